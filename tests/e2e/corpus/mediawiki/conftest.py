"""MediaWiki (Debian's package), one wiki per session: the installed template that
tools/corpus/mediawiki.sh made is copied to a tmp dir and served by PHP's own server
through router.php on a free loopback port. Tasks are judged by the copy's SQLite
database."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from ..app_process import SQLiteApp, serving

ROOT = Path(__file__).resolve().parents[4]
TEMPLATE = ROOT / ".corpus" / "mediawiki" / "template"
HERE = Path(__file__).resolve().parent
MEDIAWIKI = Path("/usr/share/mediawiki")
ADMIN = "Admin"
ADMIN_PASSWORD = "corpus-admin-pass-77"


@pytest.fixture(scope="session")
def mediawiki(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SQLiteApp]:
    if not (TEMPLATE / "LocalSettings.php").exists() or not shutil.which("php"):
        pytest.fail("MediaWiki is not installed: run ./dev setup (tools/corpus/mediawiki.sh)")
    with running(tmp_path_factory.mktemp("mediawiki")) as wiki:
        yield wiki


@contextmanager
def running(work: Path) -> Iterator[SQLiteApp]:
    """A copy of the installed wiki in ``work``, served until the block ends."""
    home = work / "home"
    shutil.copytree(TEMPLATE, home)
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(work),
        "CORPUS_MW_SETTINGS": str(home / "LocalSettings.php"),
        "CORPUS_MW_DATA": str(home / "data"),
    }
    router = str(HERE / "router.php")
    with serving(
        [],
        lambda port: ["php", "-S", f"127.0.0.1:{port}", "-t", str(MEDIAWIKI), router],
        work=work,
        env=env,
        path="/index.php?title=Main_Page",
    ) as url:
        yield SQLiteApp(
            url.removesuffix("/index.php?title=Main_Page"), home / "data" / "my_wiki.sqlite"
        )
