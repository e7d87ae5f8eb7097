# Trac (the issue tracker, from PyPI) in its own virtual environment: .corpus/trac/venv.
# The tests make a fresh environment (`trac-admin initenv`, SQLite) and run `tracd`.
TRAC_VERSION=1.6
dir=.corpus/trac
stamp="$dir/.installed-$TRAC_VERSION"
if [ ! -f "$stamp" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install -q "Trac==$TRAC_VERSION"
    touch "$stamp"
fi
