# pretalx (conference CfP and scheduling, Django) in its own venv: .corpus/pretalx/venv.
# The tests' fixture writes its config, migrates a fresh SQLite database and starts it.
PRETALX_VERSION=2025.2.2
dir=.corpus/pretalx
stamp="$dir/.installed-$PRETALX_VERSION"
if [ ! -f "$stamp" ]; then
    mkdir -p "$dir"
    [ -x "$dir/venv/bin/python" ] || python3 -m venv "$dir/venv"
    "$dir/venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$dir/venv/bin/python" -m pip install -q "pretalx==$PRETALX_VERSION"
    touch "$stamp"
fi
