# npm_bundles NAME [ESBUILD OPTION...]: installs the npm packages pinned in
# tools/corpus/NAME/package.json into .corpus/NAME/ and bundles each demo form of
# tools/corpus/NAME/src/ (not the _ files it imports) with esbuild into
# .corpus/NAME/dist/<form>.js (+ .css), with the options given beside the common ones.
# Sourced by the corpus scripts; it redoes nothing while its stamp is newer than all it is
# made from (the library's folder and script, and this folder).
npm_bundles() {
    local name="$1"
    shift
    local src="tools/corpus/$name" dir=".corpus/$name" entry newest
    local stamp="$dir/.installed"
    if ! command -v npm >/dev/null; then apt_install nodejs npm; fi
    newest=$(find "$src" "tools/corpus/$name.sh" tools/corpus/bundles -type f -newer "$stamp" \
        2>/dev/null | head -1 || true)
    if [ -f "$stamp" ] && [ -z "$newest" ]; then return 0; fi
    mkdir -p "$dir"
    if [ ! -f "$dir/node_modules/.installed" ] || [ "$src/package.json" -nt "$dir/node_modules/.installed" ]; then
        cp "$src/package.json" "$dir/package.json"
        npm install --prefix "$dir" --no-package-lock --no-audit --no-fund --silent
        touch "$dir/node_modules/.installed"
    fi
    rm -rf "$dir/dist"
    for entry in "$src"/src/*.jsx "$src"/src/*.js; do
        [ -e "$entry" ] || continue
        case "$(basename "$entry")" in _*) continue ;; esac
        NODE_PATH="$dir/node_modules" "$dir/node_modules/.bin/esbuild" "$entry" \
            --bundle --minify --format=iife --target=es2020 --log-level=warning \
            --jsx=automatic --define:process.env.NODE_ENV='"production"' \
            --loader:.woff2=file --loader:.woff=file "$@" \
            --outdir="$dir/dist"
    done
    touch "$stamp"
}
