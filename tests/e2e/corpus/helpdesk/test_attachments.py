"""A customer's ticket with a screenshot attached from django-helpdesk's public form:
the helpdesk keeps the file (its attachment row, and the bytes in its media folder)."""

from __future__ import annotations

import hashlib

import pytest

from gofer.runtime import RunStatus, TaskFile

from ...conftest import Opener
from .conftest import Helpdesk

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

TITLE = "Receipt page shows the wrong total"
SHOT = TaskFile(
    "screenshot", "receipt-total.png", "image/png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
)


async def test_a_public_ticket_keeps_its_attached_screenshot(
    run_open: Opener, helpdesk: Helpdesk
) -> None:
    flow = [
        {"browse": helpdesk.url + "/"},
        {"choose": "Billing", "in": "Queue"},
        {"enter": TITLE, "into": "Summary of the problem"},
        {"enter": "The receipt says 41.50 but I paid 14.50.", "into": "Description of your issue"},
        {"enter": "noor@example.org", "into": "Your E-Mail Address"},
        {"upload": "${screenshot}", "into": "Attach File"},
        {"click": "Submit Ticket"},
    ]
    async with run_open(flow, allow_destructive=True, files={"screenshot": SHOT}) as done:
        result = done.result
    assert result.status is RunStatus.COMPLETED, (result.failure, result.steps[-3:])
    rows = helpdesk.rows(
        "SELECT a.filename, a.size, a.file FROM helpdesk_followupattachment a "
        "JOIN helpdesk_followup f ON f.id = a.followup_id "
        "JOIN helpdesk_ticket t ON t.id = f.ticket_id WHERE t.title = ?",
        TITLE,
    )
    assert [(name, size) for name, size, _ in rows] == [("receipt-total.png", len(SHOT.data))]
    stored = helpdesk.db.parent / "media" / rows[0][2]
    assert hashlib.sha256(stored.read_bytes()).hexdigest() == SHOT.sha256
