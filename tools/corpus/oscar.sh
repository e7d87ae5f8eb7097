# django-oscar (the shop, from PyPI) in its own virtual environment: .corpus/oscar/venv,
# with sorl-thumbnail and Whoosh as Oscar's sandbox uses them. Its Django project is
# tests/e2e/corpus/oscar/oscar_settings.py (the tests' fixture migrates and seeds it).
OSCAR_VERSION=4.2.1
dir=.corpus/oscar
stamp="$dir/.installed-$OSCAR_VERSION"
if [ ! -f "$stamp" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    python3 -m venv "$dir/venv"
    "$dir/venv/bin/pip" install -q "django-oscar==$OSCAR_VERSION" "Django==5.2.19" \
        "sorl-thumbnail==12.11.0" "Whoosh==2.7.4"
    touch "$stamp"
fi
