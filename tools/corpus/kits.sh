# Component kits as sites ship them, for the corpus's first-run families: Ant Design, Mantine,
# PrimeReact, Material UI, Chakra UI, React Aria Components, Fluent UI v9 and Blueprint (React),
# Element Plus, Naive UI, Vuetify, PrimeVue and Quasar (Vue), Shoelace, Vaadin and Ionic (web
# components) and Bootstrap with tom-select and flatpickr, installed from npm at the versions
# pinned in tools/corpus/kits/package.json into .corpus/kits/, one generated trip-request form
# per kit (every widget kind a form uses; tools/corpus/kits/src/) bundled with esbuild into
# .corpus/kits/dist/<kit>.js (+ .css), which tests/e2e/corpus/kits serves.
source tools/corpus/bundles/npm_bundles.sh
npm_bundles kits \
    --alias:vue=vue/dist/vue.esm-bundler.js --define:__VUE_OPTIONS_API__=true \
    --define:__VUE_PROD_DEVTOOLS__=false --define:__VUE_PROD_HYDRATION_MISMATCH_DETAILS__=false \
    --define:process.env.VITE_LOGGER_ENABLED=undefined \
    --loader:.ttf=file --loader:.eot=file --loader:.svg=file --loader:.png=file
