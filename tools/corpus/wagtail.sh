# Wagtail (a CMS on Django) in its own venv: .corpus/wagtail/venv. The project is the
# one `wagtail start` makes, migrated and seeded once here (.corpus/wagtail/template,
# SQLite) with an editor account; each test session copies it.
WAGTAIL_VERSION=8.0.1
dir=.corpus/wagtail
stamp="$dir/.installed-$WAGTAIL_VERSION"
seed=tests/e2e/corpus/wagtail/seed.py
if [ ! -f "$stamp" ] || [ "$seed" -nt "$stamp" ]; then
    mkdir -p "$dir"
    [ -x "$dir/venv/bin/python" ] || python3 -m venv "$dir/venv"
    "$dir/venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$dir/venv/bin/python" -m pip install -q "wagtail==$WAGTAIL_VERSION"
    rm -rf "$dir/template" && mkdir -p "$dir/template"
    "$dir/venv/bin/wagtail" start corpussite "$dir/template" >/dev/null
    ( cd "$dir/template" && DJANGO_SETTINGS_MODULE=corpussite.settings.dev \
        ../venv/bin/python manage.py migrate -v 0 )
    ( cd "$dir/template" && DJANGO_SETTINGS_MODULE=corpussite.settings.dev \
        PYTHONPATH=. ../venv/bin/python "$OLDPWD/$seed" )
    touch "$stamp"
fi
