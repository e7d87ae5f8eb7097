# Flask-Admin's model views over a small SQLAlchemy app (tests/e2e/corpus/flask_admin/app.py)
# in its own venv: .corpus/flask_admin/venv.
FLASK_ADMIN_VERSION=2.2.1
dir=.corpus/flask_admin
stamp="$dir/.installed-$FLASK_ADMIN_VERSION"
if [ ! -f "$stamp" ]; then
    mkdir -p "$dir"
    [ -x "$dir/venv/bin/python" ] || python3 -m venv "$dir/venv"
    "$dir/venv/bin/python" -m pip install -q --upgrade pip >/dev/null
    "$dir/venv/bin/python" -m pip install -q "flask-admin[sqlalchemy]==$FLASK_ADMIN_VERSION" \
        "flask==3.1.3" "flask-sqlalchemy==3.1.1" "sqlalchemy==2.0.44"
    touch "$stamp"
fi
