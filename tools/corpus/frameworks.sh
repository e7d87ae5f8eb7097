# Python app frameworks people make forms with, each in a virtual environment of its own
# (their dependencies clash with gofer's and with each other's): NiceGUI, Streamlit, Gradio,
# Dash, Shiny, Panel, Solara, Mesop and Taipy GUI, at the versions pinned here, into
# .corpus/<framework>/venv, three at a time. A framework's entry may name packages to pin
# beside it: Solara's offline assets (solara-assets, whose newest release serves the Vue 2
# app of ipyvuetify 1: the Vuetify 3 app of ipyvuetify 3 is only on a CDN) and Taipy GUI's
# Flask (3.1.3 breaks the Flask-SocketIO 5.4 it pins: no page connects). The apps
# themselves are tests/e2e/corpus/frameworks/*_app.py, started by the tests' fixtures.
framework_install() {
    local pinned="$1" name="${1%%==*}" beside="${*:2}"
    local dir=".corpus/$name"
    local stamp="$dir/.installed-${pinned#*==}${beside:++${beside// /+}}"
    [ -f "$stamp" ] && return 0
    mkdir -p "$dir"
    [ -x "$dir/venv/bin/python" ] || python3 -m venv "$dir/venv"
    "$dir/venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$dir/venv/bin/python" -m pip install -q "$@"
    touch "$stamp"
}
frameworks=(
    nicegui==3.18.0 streamlit==1.67.0 gradio==6.31.0 dash==4.4.1 shiny==1.8.0 panel==1.9.4
    "solara==1.64.1 solara-assets==1.58.2 ipyvuetify==1.12.0" mesop==1.3.7
    "taipy-gui==4.1.2 flask==3.1.2"
)
framework_pids=()
for entry in "${frameworks[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge 3 ]; do wait -n || true; done
    # shellcheck disable=SC2086 # an entry is its packages, split on spaces
    framework_install $entry &
    framework_pids+=("$!")
done
for pid in "${framework_pids[@]}"; do wait "$pid"; done
