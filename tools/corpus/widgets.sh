# Component libraries as sites ship them: MUI X date pickers (with MUI and React), Ant
# Design, react-datepicker and Vuetify, installed from npm at the versions pinned in
# tools/corpus/widgets/package.json into .corpus/widgets/, and one demo form per library
# (tools/corpus/widgets/src/) bundled with esbuild (from npm too) into
# .corpus/widgets/dist/<library>.js (+ .css), which tests/e2e/corpus/widgets serves.
source tools/corpus/bundles/npm_bundles.sh
npm_bundles widgets \
    --define:process.env.VITE_LOGGER_ENABLED=false \
    --alias:vue=vue/dist/vue.esm-bundler.js --define:__VUE_OPTIONS_API__=true \
    --define:__VUE_PROD_DEVTOOLS__=false --define:__VUE_PROD_HYDRATION_MISMATCH_DETAILS__=false \
    --loader:.ttf=file
