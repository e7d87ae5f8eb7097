"""Trac, the issue tracker, run for real: its own virtual environment
(tools/corpus/trac.sh), a fresh environment made by ``trac-admin initenv`` on SQLite
with a few tickets, served by ``tracd`` on a free loopback port for the whole session.
Anonymous visitors may create and change tickets (no sign-in wall in the way).

Tasks are judged by Trac's own database (:meth:`Trac.rows`)."""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..app_process import serving

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
VENV = ROOT / ".corpus" / "trac" / "venv"
PERMISSIONS = ("TICKET_ADMIN", "MILESTONE_ADMIN", "REPORT_ADMIN")


@dataclass(frozen=True)
class Trac:
    url: str  # the project's address, ending in "/"
    db: Path

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.db) as conn:
            return conn.execute(sql, args).fetchall()

    def ticket(self, summary: str) -> dict[str, Any]:
        with sqlite3.connect(self.db) as conn:
            conn.row_factory = sqlite3.Row
            row = conn.execute("SELECT * FROM ticket WHERE summary = ?", (summary,)).fetchone()
        return dict(row) if row is not None else {}


@pytest.fixture(scope="session")
def trac() -> Iterator[Trac]:
    admin = VENV / "bin" / "trac-admin"
    if not admin.exists():
        pytest.fail(f"Trac is not installed ({admin} is missing): run ./dev setup")
    with tempfile.TemporaryDirectory(prefix="gofer-trac-", ignore_cleanup_errors=True) as tmp:
        work = Path(tmp)
        env = work / "project"
        prepare = [
            [str(admin), str(env), "initenv", "Corpus Project", "sqlite:db/trac.db"],
            [str(admin), str(env), "permission", "add", "anonymous", *PERMISSIONS],
            [str(VENV / "bin" / "python"), str(HERE / "seed.py"), str(env)],
        ]

        def tracd(port: int) -> list[str]:
            return [str(VENV / "bin" / "tracd"), "-p", str(port), "-b", "127.0.0.1", str(env)]

        with serving(prepare, tracd, work=work, path="/project/") as url:
            yield Trac(url=url, db=env / "db" / "trac.db")
