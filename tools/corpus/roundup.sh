# Roundup (the issue tracker, from PyPI) in its own virtual environment: .corpus/roundup/venv.
# The tests install a fresh classic tracker on SQLite (`roundup-admin install`), seed it
# through Roundup's own API and serve it with `roundup-server`.
ROUNDUP_VERSION=2.6.0
dir=.corpus/roundup
stamp="$dir/.installed-$ROUNDUP_VERSION"
if [ ! -f "$stamp" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install -q "roundup==$ROUNDUP_VERSION"
    touch "$stamp"
fi
