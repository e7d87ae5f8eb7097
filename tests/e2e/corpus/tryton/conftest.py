"""Tryton (Debian's packages: the server with its sale module, and the sao web client),
one database per session: the template tools/corpus/tryton.sh made is copied to a tmp dir
and served by trytond on a free loopback port. Tasks are judged by the copy's SQLite
database."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from ..app_process import SQLiteApp, free_port, serving

ROOT = Path(__file__).resolve().parents[4]
TEMPLATE = ROOT / ".corpus" / "tryton" / "template"
SAO = Path("/usr/share/tryton-sao/www")
DATABASE = "shop"
ADMIN = "admin"
ADMIN_PASSWORD = "corpus-tryton-admin-66"


@pytest.fixture(scope="session")
def tryton(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SQLiteApp]:
    if not (TEMPLATE / "db" / f"{DATABASE}.sqlite").exists() or not shutil.which("trytond"):
        pytest.fail("Tryton is not installed: run ./dev setup (tools/corpus/tryton.sh)")
    work = tmp_path_factory.mktemp("tryton")
    home = work / "home"
    shutil.copytree(TEMPLATE, home)
    port = free_port()
    conf = home / "trytond.conf"
    conf.write_text(
        f"[database]\nuri = sqlite://\npath = {home / 'db'}\n"
        f"[web]\nlisten = 127.0.0.1:{port}\nroot = {SAO}\n",
        encoding="utf-8",
    )
    env = {"PATH": "/usr/bin:/bin", "HOME": str(work), "PYTHONWARNINGS": "ignore"}
    with serving(
        [], lambda _port: ["trytond", "-c", str(conf)], work=work, env=env, port=port
    ) as url:
        yield SQLiteApp(url.rstrip("/"), home / "db" / f"{DATABASE}.sqlite")
