# pretalx (conference CfP and scheduling, Django) in its own venv: .corpus/pretalx/venv.
# Migrating its database takes minutes, so it is done once here: a migrated and seeded
# data folder (.corpus/pretalx/template, SQLite) that each test session copies.
PRETALX_VERSION=2025.2.2
dir=.corpus/pretalx
stamp="$dir/.installed-$PRETALX_VERSION"
seed=tests/e2e/corpus/pretalx/seed.py
if [ ! -f "$stamp" ] || [ "$seed" -nt "$stamp" ]; then
    mkdir -p "$dir"
    [ -x "$dir/venv/bin/python" ] || python3 -m venv "$dir/venv"
    "$dir/venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$dir/venv/bin/python" -m pip install -q "pretalx==$PRETALX_VERSION"
    rm -rf "$dir/template" && mkdir -p "$dir/template/data"
    template="$(cd "$dir/template" && pwd)"
    printf '[filesystem]\ndata = %s/data\n[database]\nbackend = sqlite3\n[site]\ndebug = True\n' \
        "$template" > "$template/pretalx.cfg"
    PRETALX_CONFIG_FILE="$template/pretalx.cfg" "$dir/venv/bin/python" -m pretalx migrate >/dev/null
    PRETALX_CONFIG_FILE="$template/pretalx.cfg" "$dir/venv/bin/python" "$seed"
    touch "$stamp"
fi
