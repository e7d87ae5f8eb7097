"""Files into the upload controls of real component kits (tools/corpus/kits/src/
uploads_*): a plain file input (Bootstrap), a file input hidden behind a styled button
(Mantine's FileInput, PrimeReact's "Browse"), a drag-and-drop zone that opens the file
chooser (Element Plus's el-upload), and several files into one control (Mantine's and
PrimeReact's multiple ones). Judged by the bytes the server received: each file's name
and the digest of what arrived."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from gofer.runtime import RunStatus, TaskFile

from ...conftest import Opener
from ..bundles import ACTION_TIMEOUT_MS, Library, Page, serving

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

KITS = ("bootstrap", "mantine", "primereact", "elementplus")
PAGES = {f"uploads_{kit}": Page("Job application") for kit in KITS}

CV = TaskFile("cv", "ana-cv.txt", "text/plain", b"Ana Lima\nData engineer, 8 years\n")
SHOTS = {
    "shot one": TaskFile("shot one", "harbour.png", "image/png", b"\x89PNG\r\n\x1a\n" + b"1" * 64),
    "shot two": TaskFile("shot two", "market.png", "image/png", b"\x89PNG\r\n\x1a\n" + b"2" * 64),
}


def sent(*files: TaskFile) -> str:
    return ",".join(f"{f.filename}:{hashlib.sha256(f.data).hexdigest()}" for f in files)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def uploads() -> AsyncIterator[Library]:
    async with serving("kits", PAGES, ("Application sent", "We have your files.")) as site:
        yield site


CASES: dict[str, tuple[str, list[dict[str, Any]], dict[str, str]]] = {
    "plain-file-input": (
        "bootstrap",
        [{"upload": "${cv}", "into": "Upload your CV"}],
        {"cv": sent(CV)},
    ),
    "input-behind-a-styled-button": (
        "mantine",
        [{"upload": "${cv}", "into": "Upload your CV"}],
        {"cv": sent(CV)},
    ),
    "input-behind-a-browse-button": (
        "primereact",
        [{"upload": "${cv}", "into": "Browse"}],
        {"cv": sent(CV)},
    ),
    "drop-zone-opening-the-chooser": (
        "elementplus",
        [{"upload": "${cv}", "into": "Drop your CV here or click to upload"}],
        {"cv": sent(CV)},
    ),
    "several-files-into-one-control": (
        "mantine",
        [{"upload": "${shot one}, ${shot two}", "into": "Portfolio images"}],
        {"photos": sent(*SHOTS.values())},
    ),
    "several-files-into-a-drop-list": (
        "primereact",
        [{"upload": "${shot one}, ${shot two}", "into": "Choose papers"}],
        {"papers": sent(*SHOTS.values())},
    ),
}


@pytest.mark.parametrize("case", CASES)
async def test_a_kit_upload_control_takes_the_files(
    case: str, run_open: Opener, uploads: Library
) -> None:
    kit, steps, want = CASES[case]
    mark = len(uploads.posted)
    flow = [
        {"browse": uploads.url(f"uploads_{kit}")},
        *steps,
        {"click": "Send application"},
        {"wait": {"shows": "Application sent"}},
    ]
    files = {"cv": CV, **SHOTS}
    async with run_open(
        flow, allow_destructive=True, files=files, action_timeout_ms=ACTION_TIMEOUT_MS
    ) as done:
        result = done.result
    assert result.status is RunStatus.COMPLETED, (
        result.failure,
        [(s.kind, s.outcome.value, s.reason) for s in result.steps],
    )
    posted = uploads.since(mark)
    assert len(posted) == 1, posted
    assert {key: posted[0].get(key) for key in want} == want


async def test_a_field_that_takes_one_file_refuses_two(run_open: Opener, uploads: Library) -> None:
    flow = [
        {"browse": uploads.url("uploads_bootstrap")},
        {"upload": "${shot one}, ${shot two}", "into": "Upload your CV"},
    ]
    async with run_open(flow, files=SHOTS, action_timeout_ms=ACTION_TIMEOUT_MS) as done:
        result = done.result
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and "takes one file" in result.failure.reason


async def test_a_file_the_task_was_not_given_is_never_read_from_a_path(
    run_open: Opener, uploads: Library
) -> None:
    flow = [
        {"browse": uploads.url("uploads_bootstrap")},
        {"upload": "/etc/passwd", "into": "Upload your CV"},
    ]
    async with run_open(flow, action_timeout_ms=ACTION_TIMEOUT_MS) as done:
        result = done.result
        held = await done.page.evaluate("document.getElementById('cv').files.length")
    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert "holds no file named '/etc/passwd'" in result.failure.reason
    assert held == 0
