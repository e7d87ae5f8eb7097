# Real libraries that interrupt a step, installed from npm at the versions pinned in
# tools/corpus/popups/package.json into .corpus/popups/: Ant Design's Select (an option far
# down its scrolled list) and tippy.js popovers that open when a field gets focus. Each
# demo form (tools/corpus/popups/src/) is bundled with esbuild (from npm too) into
# .corpus/popups/dist/<name>.js (+ .css), which tests/e2e/corpus/popups serves.
source tools/corpus/bundles/npm_bundles.sh
npm_bundles popups
