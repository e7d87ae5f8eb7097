# Component libraries as sites ship them: MUI X date pickers (with MUI and React), Ant
# Design, react-datepicker and Vuetify, installed from npm at the versions pinned in
# tools/corpus/widgets/package.json into .corpus/widgets/, and one demo form per library
# (tools/corpus/widgets/src/) bundled with esbuild (from npm too) into
# .corpus/widgets/dist/<library>.js (+ .css), which tests/e2e/corpus/widgets serves.
src=tools/corpus/widgets
dir=.corpus/widgets
stamp="$dir/.installed"
if ! command -v npm >/dev/null; then apt_install nodejs npm; fi
newest=$(find "$src" "tools/corpus/widgets.sh" -type f -newer "$stamp" 2>/dev/null | head -1 || true)
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
            --jsx=automatic --define:process.env.NODE_ENV='"production"' --define:process.env.VITE_LOGGER_ENABLED=false \
            --alias:vue=vue/dist/vue.esm-bundler.js --define:__VUE_OPTIONS_API__=true \
            --define:__VUE_PROD_DEVTOOLS__=false --define:__VUE_PROD_HYDRATION_MISMATCH_DETAILS__=false \
            --loader:.woff2=file --loader:.woff=file --loader:.ttf=file \
            --outdir="$dir/dist"
    done
    touch "$stamp"
fi
