"""Wagtail, one instance per session: the project tools/corpus/wagtail.sh made (`wagtail
start`, migrated, an editor seeded) copied to a tmp dir and served by Django's own
server with its dev settings (DEBUG: it serves its static files) on a free loopback
port. Tasks are judged by the copy's SQLite database."""

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
HOME = ROOT / ".corpus" / "wagtail"
PYTHON = HOME / "venv" / "bin" / "python"
TEMPLATE = HOME / "template"


@dataclass
class Wagtail:
    url: str
    db: Path

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.db) as conn:
            return list(conn.execute(sql, args))


@pytest.fixture(scope="session")
def wagtail(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Wagtail]:
    if not (PYTHON.exists() and (TEMPLATE / "db.sqlite3").exists()):
        pytest.fail("Wagtail is not installed: run ./dev setup (tools/corpus/wagtail.sh)")
    with running(tmp_path_factory.mktemp("wagtail")) as app:
        yield app


@contextmanager
def running(work: Path) -> Iterator[Wagtail]:
    """A copy of the seeded project in ``work``, served until the block ends."""
    site = work / "site"
    shutil.copytree(TEMPLATE, site)
    env = {
        "PATH": f"{PYTHON.parent}:/usr/bin:/bin",
        "HOME": str(work),
        "PYTHONWARNINGS": "ignore",
        "DJANGO_SETTINGS_MODULE": "corpussite.settings.dev",
    }
    serve = [str(PYTHON), "manage.py", "runserver", "--insecure", "--noreload"]
    with serving(
        [],
        lambda port: [*serve, f"127.0.0.1:{port}"],
        work=work,
        env=env,
        cwd=site,
        path="/admin/login/",
    ) as url:
        yield Wagtail(url.removesuffix("/admin/login/"), site / "db.sqlite3")
