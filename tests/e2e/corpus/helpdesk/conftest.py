"""django-helpdesk, one instance per session: the migrated and seeded folder that
tools/corpus/helpdesk.sh made is copied to a tmp dir and served by Django's own server
(DEBUG, serving its static files) on a free loopback port. Tasks are judged by the
copy's SQLite database."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..app_process import serving

ROOT = Path(__file__).resolve().parents[4]
HOME = ROOT / ".corpus" / "helpdesk"
PYTHON = HOME / "venv" / "bin" / "python"
TEMPLATE = HOME / "template"
HERE = Path(__file__).resolve().parent


@dataclass
class Helpdesk:
    url: str
    db: Path

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.db) as conn:
            return list(conn.execute(sql, args))


@pytest.fixture(scope="session")
def helpdesk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Helpdesk]:
    if not (PYTHON.exists() and (TEMPLATE / "db.sqlite3").exists()):
        pytest.fail("django-helpdesk is not installed: run ./dev setup (tools/corpus/helpdesk.sh)")
    with running(tmp_path_factory.mktemp("helpdesk")) as app:
        yield app


@contextmanager
def running(work: Path) -> Iterator[Helpdesk]:
    """A copy of the seeded helpdesk in ``work``, served until the block ends."""
    home = work / "home"
    shutil.copytree(TEMPLATE, home)
    env = {
        "PATH": f"{PYTHON.parent}:/usr/bin:/bin",
        "HOME": str(work),
        "PYTHONPATH": str(HERE),
        "PYTHONWARNINGS": "ignore",
        "DJANGO_SETTINGS_MODULE": "deskproject.settings",
        "DESK_HOME": str(home),
    }
    serve = [str(PYTHON), "-m", "django", "runserver", "--insecure", "--noreload"]
    with serving([], lambda port: [*serve, f"127.0.0.1:{port}"], work=work, env=env) as url:
        yield Helpdesk(url.rstrip("/"), home / "db.sqlite3")
