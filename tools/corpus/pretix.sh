# pretix (ticket shop with a multi-step checkout, Django) in its own venv: .corpus/pretix/venv.
# Migrating its database takes about a minute, so it is done once here: a migrated and seeded
# data folder (.corpus/pretix/template, SQLite) that each test session copies.
PRETIX_VERSION=2026.8.0
dir=.corpus/pretix
stamp="$dir/.installed-$PRETIX_VERSION"
seed=tests/e2e/corpus/pretix/seed.py
if [ ! -f "$stamp" ] || [ "$seed" -nt "$stamp" ]; then
    mkdir -p "$dir"
    [ -x "$dir/venv/bin/python" ] || python3 -m venv "$dir/venv"
    "$dir/venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$dir/venv/bin/python" -m pip install -q "pretix==$PRETIX_VERSION"
    rm -rf "$dir/template" && mkdir -p "$dir/template/data"
    template="$(cd "$dir/template" && pwd)"
    printf '[pretix]\ninstance_name=corpus\nurl=http://127.0.0.1\ndatadir=%s/data\ncurrency=EUR\n[database]\nbackend=sqlite3\n[django]\ndebug=true\n[mail]\nfrom=shop@example.org\n' \
        "$template" > "$template/pretix.cfg"
    PRETIX_CONFIG_FILE="$template/pretix.cfg" "$dir/venv/bin/python" -m pretix migrate >/dev/null
    PRETIX_CONFIG_FILE="$template/pretix.cfg" "$dir/venv/bin/python" "$seed"
    touch "$stamp"
fi
