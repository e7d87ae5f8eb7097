"""django-helpdesk, one instance per session: the migrated and seeded folder that
tools/corpus/helpdesk.sh made is copied to a tmp dir and served by Django's own server
(DEBUG, serving its static files) on a free loopback port. Tasks are judged by the
copy's SQLite database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from ..app_process import SQLiteApp, serving_a_copy

ROOT = Path(__file__).resolve().parents[4]
HOME = ROOT / ".corpus" / "helpdesk"
PYTHON = HOME / "venv" / "bin" / "python"
TEMPLATE = HOME / "template"
HERE = Path(__file__).resolve().parent


Helpdesk = SQLiteApp


@pytest.fixture(scope="session")
def helpdesk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Helpdesk]:
    if not (PYTHON.exists() and (TEMPLATE / "db.sqlite3").exists()):
        pytest.fail("django-helpdesk is not installed: run ./dev setup (tools/corpus/helpdesk.sh)")
    with running(tmp_path_factory.mktemp("helpdesk")) as app:
        yield app


@contextmanager
def running(work: Path) -> Iterator[Helpdesk]:
    """A copy of the seeded helpdesk in ``work``, served until the block ends."""
    env = {
        "PATH": f"{PYTHON.parent}:/usr/bin:/bin",
        "PYTHONPATH": str(HERE),
        "DJANGO_SETTINGS_MODULE": "deskproject.settings",
    }
    serve = [str(PYTHON), "-m", "django", "runserver", "--insecure", "--noreload"]
    with serving_a_copy(TEMPLATE, work, serve, env, folder_env="DESK_HOME") as app:
        yield app
