"""Roundup, the issue tracker, run for real: its own virtual environment
(tools/corpus/roundup.sh), a fresh classic tracker on SQLite made by ``roundup-admin
install`` and ``initialise``, seeded through Roundup's own API (``seed.py``), served by
Roundup's own WSGI handler (``serve.py``) on a free loopback port for the whole session.

Tasks are judged by the tracker's own database, read through Roundup's API
(:meth:`Roundup.issue`, :meth:`Roundup.user`)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..app_process import free_port, python_query, serving

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
BIN = ROOT / ".corpus" / "roundup" / "venv" / "bin"
ADMIN = ("admin", "Adm1n-pass-123")

_OPEN = "from roundup import instance\ndb = instance.open(TRACKER).open('admin')"

_ISSUE = """
found = db.issue.filter(None, {"title": TITLE})
issue = next((i for i in found if db.issue.get(i, "title") == TITLE), None)
if issue is not None:
    def name(cls, value):
        key = "username" if cls == "user" else "name"
        return db.getclass(cls).get(value, key) if value else None
    result = {
        "priority": name("priority", db.issue.get(issue, "priority")),
        "status": name("status", db.issue.get(issue, "status")),
        "assignedto": name("user", db.issue.get(issue, "assignedto")),
        "keyword": sorted(name("keyword", k) for k in db.issue.get(issue, "keyword")),
        "messages": [db.msg.get(m, "content") for m in db.issue.get(issue, "messages")],
    }
"""

_USER = """
try:
    user = db.user.lookup(USERNAME)
except KeyError:
    user = None
if user is not None:
    result = {k: db.user.get(user, k) for k in ("realname", "address")}
"""


@dataclass(frozen=True)
class Roundup:
    url: str  # the tracker's address, ending in "/"
    tracker: Path

    def _query(self, code: str, **values: Any) -> Any:
        env = {"PATH": os.environ.get("PATH", ""), "HOME": str(self.tracker)}
        return python_query(
            BIN / "python", env, code, {"TRACKER": str(self.tracker), **values}, prelude=_OPEN
        )

    def issue(self, title: str) -> dict[str, Any]:
        """The issue titled ``title``: its priority, status, assignee's username,
        keywords and messages' texts by name ({} when there is none)."""
        found: dict[str, Any] | None = self._query(_ISSUE, TITLE=title)
        return found or {}

    def user(self, username: str) -> dict[str, Any]:
        """The user's real name and address ({} when there is none)."""
        found: dict[str, Any] | None = self._query(_USER, USERNAME=username)
        return found or {}


@pytest.fixture(scope="session")
def roundup() -> Iterator[Roundup]:
    admin = BIN / "roundup-admin"
    if not admin.exists():
        pytest.fail(f"Roundup is not installed ({admin} is missing): run ./dev setup")
    with tempfile.TemporaryDirectory(prefix="gofer-roundup-", ignore_cleanup_errors=True) as tmp:
        work = Path(tmp)
        tracker = work / "tracker"
        port = free_port()
        web = f"http://127.0.0.1:{port}/"
        prepare = [
            [
                str(admin),
                "-i",
                str(tracker),
                "install",
                "classic",
                "sqlite",
                # mail to the nosy list goes to a file, not to an SMTP server
                f"tracker_web={web},mail_domain=example.org,mail_debug={work / 'mail.txt'}",
            ],
            [str(admin), "-i", str(tracker), "initialise", ADMIN[1]],
            [str(BIN / "python"), str(HERE / "seed.py"), str(tracker)],
        ]

        def server(port: int) -> list[str]:
            return [str(BIN / "python"), str(HERE / "serve.py"), str(tracker), str(port)]

        with serving(prepare, server, work=work, port=port) as url:
            yield Roundup(url=url, tracker=tracker)
