"""pretalx, one instance per session: the migrated and seeded data folder that
tools/corpus/pretalx.sh made is copied to a tmp dir and served by Django's own server
(DEBUG, so it serves its static files) on a free loopback port. Tasks are judged by the
copy's SQLite database."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..app_process import free_port, stop, wait_answering

ROOT = Path(__file__).resolve().parents[4]
HOME = ROOT / ".corpus" / "pretalx"
PYTHON = HOME / "venv" / "bin" / "python"
TEMPLATE = HOME / "template" / "data"
EVENT = "corpuscon"
ORGA_EMAIL = "orga@example.org"
ORGA_PASSWORD = "corpus-orga-pass"


def i18n(value: Any) -> Any:
    """A pretalx translatable field as English text (stored plain or as a JSON object)."""
    if isinstance(value, str) and value.startswith("{"):
        return json.loads(value).get("en")
    return value


@dataclass
class Pretalx:
    url: str
    db: Path

    def rows(self, sql: str, *args: Any) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.db) as conn:
            return list(conn.execute(sql, args))

    def one(self, sql: str, *args: Any) -> tuple[Any, ...] | None:
        found = self.rows(sql, *args)
        return found[0] if found else None


@pytest.fixture(scope="session")
def pretalx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pretalx]:
    if not (PYTHON.exists() and (TEMPLATE / "db.sqlite3").exists()):
        pytest.fail("pretalx is not installed: run ./dev setup (tools/corpus/pretalx.sh)")
    home = tmp_path_factory.mktemp("pretalx")
    data = home / "data"
    shutil.copytree(TEMPLATE, data)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    config = home / "pretalx.cfg"
    config.write_text(
        f"[filesystem]\ndata = {data}\n[database]\nbackend = sqlite3\n"
        f"[site]\ndebug = True\nurl = {url}\n"
    )
    env = {**os.environ, "PRETALX_CONFIG_FILE": str(config)}
    proc = subprocess.Popen(
        [str(PYTHON), "-m", "pretalx", "runserver", f"127.0.0.1:{port}", "--noreload"],
        env=env,
        cwd=home,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_answering(f"{url}/{EVENT}/", proc, 120)
        yield Pretalx(url, data / "db.sqlite3")
    finally:
        stop(proc)
