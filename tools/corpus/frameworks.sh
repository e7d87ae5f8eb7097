# Python app frameworks people make forms with, each in a virtual environment of its own
# (their dependencies clash with gofer's and with each other's): NiceGUI, Streamlit, Gradio,
# Dash, Shiny and Panel, at the versions pinned here, into .corpus/<framework>/venv, three
# at a time. The apps themselves are tests/e2e/corpus/frameworks/*_app.py, started by the
# tests' fixtures.
framework_install() {
    local pinned="$1" name="${1%%==*}"
    local dir=".corpus/$name"
    local stamp="$dir/.installed-${pinned#*==}"
    [ -f "$stamp" ] && return 0
    mkdir -p "$dir"
    [ -x "$dir/venv/bin/python" ] || python3 -m venv "$dir/venv"
    "$dir/venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$dir/venv/bin/python" -m pip install -q "$pinned"
    touch "$stamp"
}
framework_pids=()
for pinned in nicegui==3.18.0 streamlit==1.67.0 gradio==6.31.0 dash==4.4.1 shiny==1.8.0 panel==1.9.4; do
    while [ "$(jobs -rp | wc -l)" -ge 3 ]; do wait -n || true; done
    framework_install "$pinned" &
    framework_pids+=("$!")
done
for pid in "${framework_pids[@]}"; do wait "$pid"; done
