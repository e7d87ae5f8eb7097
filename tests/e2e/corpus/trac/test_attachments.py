"""A file attached to a Trac ticket, judged by what Trac keeps (its attachment table,
and the bytes in the project's attachment folder), then downloaded back in its original
format: the bytes Trac serves."""

from __future__ import annotations

import hashlib

import pytest

from gofer.runtime import RunStatus, TaskFile

from ...conftest import Opener
from .conftest import Trac

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

TICKET = "Crash when saving an empty draft"
DUMP = b"core dump excerpt\nframe 0: save_draft(empty=True)\nframe 1: main\n"


async def test_a_file_is_attached_to_a_ticket_and_downloaded_back(
    run_open: Opener, trac: Trac
) -> None:
    given = TaskFile("dump", "draft-crash.txt", "text/plain", DUMP)
    flow = [
        {"browse": trac.url},
        {"click": "View Tickets"},
        {"click": "Active Tickets"},
        {"click": TICKET},
        {"click": "Attachments"},
        {"click": "Attach file"},
        {"upload": "${dump}", "into": "File"},
        {"enter": "The crash's core dump", "into": "Description"},
        {"click": "Add attachment"},
        {"wait": {"shows": "draft-crash.txt"}},
        {"click": "draft-crash.txt"},
        {"download": "Download in original format", "as": "attached dump"},
    ]
    async with run_open(flow, allow_destructive=True, files={"dump": given}) as done:
        result = done.result
    rows = trac.rows("SELECT filename, size FROM attachment WHERE type = 'ticket'")
    assert result.status is RunStatus.COMPLETED, (result.failure, result.steps[-4:])
    assert ("draft-crash.txt", len(DUMP)) in rows
    folder = trac.db.parent.parent / "files" / "attachments"
    kept_by_trac = {hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.rglob("*.txt")}
    want = hashlib.sha256(DUMP).hexdigest()
    assert want in kept_by_trac
    [kept] = result.kept
    assert kept.sha256 == want and kept.filename == "draft-crash.txt"
