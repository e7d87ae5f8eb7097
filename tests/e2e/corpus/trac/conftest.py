"""Trac, the issue tracker, run for real: its own virtual environment
(tools/corpus/trac.sh), a fresh environment made by ``trac-admin initenv`` on SQLite
with a few tickets, served by ``tracd`` on a free loopback port for the whole session.
Anonymous visitors may create and change tickets (no sign-in wall in the way).

Tasks are judged by Trac's own database (:meth:`Trac.rows`)."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..app_process import free_port, wait_until_up

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
    work = Path(tempfile.mkdtemp(prefix="gofer-trac-"))
    env = work / "project"
    proc: subprocess.Popen[bytes] | None = None
    try:
        subprocess.run(
            [str(admin), str(env), "initenv", "Corpus Project", "sqlite:db/trac.db"],
            check=True,
            capture_output=True,
            timeout=120,
        )
        subprocess.run(
            [str(admin), str(env), "permission", "add", "anonymous", *PERMISSIONS],
            check=True,
            capture_output=True,
            timeout=60,
        )
        subprocess.run(
            [str(VENV / "bin" / "python"), str(HERE / "seed.py"), str(env)],
            check=True,
            capture_output=True,
            timeout=60,
        )
        port = free_port()
        log = work / "tracd.log"
        with log.open("wb") as sink:
            proc = subprocess.Popen(
                [str(VENV / "bin" / "tracd"), "-p", str(port), "-b", "127.0.0.1", str(env)],
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        url = f"http://127.0.0.1:{port}/project/"
        wait_until_up(url, proc, log, 60)
        yield Trac(url=url, db=env / "db" / "trac.db")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)
