# Real libraries that interrupt a step, installed from npm at the versions pinned in
# tools/corpus/popups/package.json into .corpus/popups/: Ant Design's Select (an option far
# down its scrolled list) and tippy.js popovers that open when a field gets focus. Each
# demo form (tools/corpus/popups/src/) is bundled with esbuild (from npm too) into
# .corpus/popups/dist/<name>.js (+ .css), which tests/e2e/corpus/popups serves.
src=tools/corpus/popups
dir=.corpus/popups
stamp="$dir/.installed"
if ! command -v npm >/dev/null; then apt_install nodejs npm; fi
newest=$(find "$src" "tools/corpus/popups.sh" -type f -newer "$stamp" 2>/dev/null | head -1 || true)
if [ ! -f "$stamp" ] || [ -n "$newest" ]; then
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
            --loader:.woff2=file --loader:.woff=file \
            --outdir="$dir/dist"
    done
    touch "$stamp"
fi
