# django-helpdesk (a helpdesk ticket tracker on Django) in its own venv:
# .corpus/helpdesk/venv, run as the small project of tests/e2e/corpus/helpdesk/deskproject;
# migrated and seeded once here (.corpus/helpdesk/template, SQLite); each test session
# copies it.
HELPDESK_VERSION=2.6.1
dir=.corpus/helpdesk
stamp="$dir/.installed-$HELPDESK_VERSION"
here=tests/e2e/corpus/helpdesk
if [ ! -f "$stamp" ] || [ "$here/seed.py" -nt "$stamp" ] || [ "$here/deskproject/settings.py" -nt "$stamp" ]; then
    mkdir -p "$dir"
    [ -x "$dir/venv/bin/python" ] || python3 -m venv "$dir/venv"
    "$dir/venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$dir/venv/bin/python" -m pip install -q "django-helpdesk==$HELPDESK_VERSION"
    rm -rf "$dir/template" && mkdir -p "$dir/template"
    export DESK_HOME DJANGO_SETTINGS_MODULE=deskproject.settings PYTHONPATH="$here"
    DESK_HOME="$(cd "$dir/template" && pwd)"
    "$dir/venv/bin/python" -m django migrate -v 0
    "$dir/venv/bin/python" -m django loaddata -v 0 emailtemplate.json
    "$dir/venv/bin/python" "$here/seed.py"
    touch "$stamp"
fi
