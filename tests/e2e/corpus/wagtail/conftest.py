"""Wagtail, one instance per session: the project tools/corpus/wagtail.sh made (`wagtail
start`, migrated, an editor seeded) copied to a tmp dir and served by Django's own
server with its dev settings (DEBUG: it serves its static files) on a free loopback
port. Tasks are judged by the copy's SQLite database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from ..app_process import SQLiteApp, serving_a_copy

ROOT = Path(__file__).resolve().parents[4]
HOME = ROOT / ".corpus" / "wagtail"
PYTHON = HOME / "venv" / "bin" / "python"
TEMPLATE = HOME / "template"


Wagtail = SQLiteApp


@pytest.fixture(scope="session")
def wagtail(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Wagtail]:
    if not (PYTHON.exists() and (TEMPLATE / "db.sqlite3").exists()):
        pytest.fail("Wagtail is not installed: run ./dev setup (tools/corpus/wagtail.sh)")
    with running(tmp_path_factory.mktemp("wagtail")) as app:
        yield app


@contextmanager
def running(work: Path) -> Iterator[Wagtail]:
    """A copy of the seeded project in ``work``, served until the block ends."""
    env = {
        "PATH": f"{PYTHON.parent}:/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "corpussite.settings.dev",
    }
    serve = [str(PYTHON), "manage.py", "runserver", "--insecure", "--noreload"]
    with serving_a_copy(TEMPLATE, work, serve, env, path="/admin/login/") as app:
        yield app
