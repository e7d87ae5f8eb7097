"""Flask-Admin's model views over a small SQLAlchemy app (app.py), one instance per
session on a free loopback port with its own SQLite file; tasks are judged by that
file."""

from __future__ import annotations

import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..app_process import free_port, stop, wait_answering

ROOT = Path(__file__).resolve().parents[4]
PYTHON = ROOT / ".corpus" / "flask_admin" / "venv" / "bin" / "python"
APP = Path(__file__).with_name("app.py")


@dataclass
class FlaskAdmin:
    url: str
    db: Path

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.db) as conn:
            return list(conn.execute(sql, args))

    def one(self, sql: str, *args: Any) -> tuple[Any, ...] | None:
        found = self.rows(sql, *args)
        return found[0] if found else None


@pytest.fixture(scope="session")
def flask_admin(tmp_path_factory: pytest.TempPathFactory) -> Iterator[FlaskAdmin]:
    if not PYTHON.exists():
        pytest.fail("Flask-Admin is not installed: run ./dev setup (tools/corpus/flask_admin.sh)")
    db = tmp_path_factory.mktemp("flask_admin") / "app.sqlite"
    port = free_port()
    proc = subprocess.Popen(
        [str(PYTHON), str(APP), str(db), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_answering(f"{url}/admin/", proc, 30)
        yield FlaskAdmin(url, db)
    finally:
        stop(proc)
