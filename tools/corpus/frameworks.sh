# Python app frameworks people make forms with, each in a virtual environment of its own
# (their dependencies clash with gofer's and with each other's): NiceGUI, Streamlit, Gradio
# Dash, Shiny and Panel, at the versions pinned here, into .corpus/<framework>/venv. The apps themselves are
# tests/e2e/corpus/frameworks/*_app.py, started by the tests' fixtures.
for pinned in nicegui==3.18.0 streamlit==1.67.0 gradio==6.31.0 dash==4.4.1 shiny==1.8.0 panel==1.10.0; do
    name="${pinned%%==*}"
    dir=".corpus/$name"
    stamp="$dir/.installed-${pinned#*==}"
    [ -f "$stamp" ] && continue
    mkdir -p "$dir"
    [ -x "$dir/venv/bin/python" ] || python3 -m venv "$dir/venv"
    "$dir/venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$dir/venv/bin/python" -m pip install -q "$pinned"
    touch "$stamp"
done
