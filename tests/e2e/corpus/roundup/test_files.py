"""Files on Roundup's issues, judged by the tracker's own database: a log given to the
task attached to an issue (the bytes Roundup stored), and the attachment downloaded
back (the bytes it serves), then read."""

from __future__ import annotations

import hashlib
import io

import pytest
from pypdf import PdfWriter

from gofer.runtime import RunStatus, TaskFile

from ...conftest import Opener
from .conftest import Roundup
from .tasks import sign_in_steps

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SLOW = "Login page is slow"
LOG = (
    b"2026-03-02 09:14:07 GET /login 200 4812 ms\n"
    b"2026-03-02 09:14:19 GET /login 200 5107 ms\n"
    b"total requests: 2\n"
)

_FILES = """
import hashlib
found = db.issue.filter(None, {"title": TITLE})
issue = next(i for i in found if db.issue.get(i, "title") == TITLE)
def digest(content):
    data = content if isinstance(content, bytes) else content.encode("utf-8")
    return hashlib.sha256(data).hexdigest()
result = [
    {"name": db.file.get(f, "name"), "sha256": digest(db.file.get(f, "binary_content"))}
    for f in db.issue.get(issue, "files")
]
"""


async def test_a_log_attached_to_an_issue_is_stored_and_downloaded_back(
    run_open: Opener, roundup: Roundup
) -> None:
    given = TaskFile("server log", "server-login.log", "text/plain", LOG)
    flow = [
        *sign_in_steps(roundup.url),
        {"click": "Show All"},
        {"click": SLOW},
        {"upload": "${server log}", "into": "File"},
        {"click": "Submit Changes"},
        {"wait": {"shows": "edited ok"}},
        {"download": "server-login.log", "as": "attached log"},
        {"read": "total requests", "from": "attached log", "as": "requests"},
    ]
    async with run_open(flow, allow_destructive=True, files={"server log": given}) as done:
        result = done.result
    stored = roundup._query(_FILES, TITLE=SLOW)
    assert result.status is RunStatus.COMPLETED, (result.failure, result.steps[-3:])
    want = hashlib.sha256(LOG).hexdigest()
    assert {"name": "server-login.log", "sha256": want} in stored
    [kept] = result.kept
    assert kept.sha256 == want and kept.filename == "server-login.log"
    assert result.variables["attached log"] == {
        "name": "server-login.log",
        "type": "text/plain",
        "size": len(LOG),
        "sha256": want,
    }
    assert result.variables["requests"] == "2"


async def test_an_issue_page_saved_as_a_pdf_reads_back_what_the_tracker_holds(
    run_open: Opener, roundup: Roundup
) -> None:
    flow = [
        *sign_in_steps(roundup.url),
        {"click": "Show All"},
        {"click": SLOW},
        {"save_pdf": "issue page"},
        {"read": "Priority", "from": "issue page", "as": "priority"},
    ]
    async with run_open(flow) as done:
        result = done.result
    assert result.status is RunStatus.COMPLETED, (result.failure, result.steps[-3:])
    [kept] = result.kept
    assert kept.media_type == "application/pdf" and kept.data.startswith(b"%PDF-")
    assert result.variables["issue page"]["sha256"] == kept.sha256  # type: ignore[index]
    assert result.variables["priority"] == roundup.issue(SLOW)["priority"]


def a_pdf() -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


async def test_a_pdf_the_tracker_shows_in_place_is_kept_whole(
    run_open: Opener, roundup: Roundup
) -> None:
    await pdf_in_place_kept(run_open, roundup, "crash-report.pdf")


async def test_a_pdf_a_remote_browsers_viewer_shows_in_place_is_kept_whole(
    remote_open: Opener, roundup: Roundup
) -> None:
    """A full Chrome shows the PDF in its viewer, in the issue page's place: the file
    kept is the PDF, not the viewer, and the task goes back to the issue."""
    await pdf_in_place_kept(remote_open, roundup, "remote-crash-report.pdf")


async def pdf_in_place_kept(open_run: Opener, roundup: Roundup, name: str) -> None:
    report = TaskFile("report", name, "application/pdf", a_pdf())
    flow = [
        *sign_in_steps(roundup.url),
        {"click": "Show All"},
        {"click": SLOW},
        {"upload": "${report}", "into": "File"},
        {"click": "Submit Changes"},
        {"wait": {"shows": "edited ok"}},
        {"download": name, "as": "kept report"},
        {"verify": {"shows": "Submit Changes"}},
    ]
    async with open_run(flow, allow_destructive=True, files={"report": report}) as done:
        result = done.result
    assert result.status is RunStatus.COMPLETED, (result.failure, result.steps[-3:])
    stored = roundup._query(_FILES, TITLE=SLOW)
    assert {"name": name, "sha256": report.sha256} in stored
    [kept] = result.kept
    assert kept.sha256 == report.sha256 and kept.media_type == "application/pdf"
