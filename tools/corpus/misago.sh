# Misago (the forum, from PyPI) in its own virtual environment: .corpus/misago/venv.
# Its Django project is the package's own `devproject`, run with the settings in
# tests/e2e/corpus/misago/ (PostgreSQL from the tests, no Redis: Celery runs eagerly).
MISAGO_VERSION=0.39.6
dir=.corpus/misago
stamp="$dir/.installed-$MISAGO_VERSION"
if [ ! -f "$stamp" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install -q "misago==$MISAGO_VERSION"
    touch "$stamp"
fi
