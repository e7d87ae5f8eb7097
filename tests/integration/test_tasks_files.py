"""Files through the controller on every store: an upload given to a task reaches its
run with its bytes, a secret one's name and bytes are sealed at rest and never shown,
kept files are the owner's alone, the operator's limits refuse with stable codes, and a
task's files go with the task."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest

from gofer.errors import GoferError
from gofer.runtime import FileLimits, RunRequest, RunResult, TaskFile
from gofer.store.sealing import SEALED
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import complete


def at_rest(store_kind: str, store_url: str) -> str:
    """Everything the database holds: its files' bytes (SQLite), or the raw text of the
    rows that hold a task's request, its log and its files (PostgreSQL)."""
    if store_kind == "sqlite":
        files = [Path(store_url + tail) for tail in ("", "-wal", "-shm")]
        return "".join(f.read_bytes().decode("latin-1") for f in files if f.exists())
    with psycopg.connect(store_url) as conn:
        rows = conn.execute(
            "SELECT request::text FROM tasks UNION ALL SELECT data::text FROM task_events "
            "UNION ALL SELECT filename || data || sha256 FROM task_files"
        ).fetchall()
    return "\n".join(str(r[0]) for r in rows)


pytestmark = pytest.mark.asyncio

UPLOAD = [
    {"browse": "https://jobs.example.com/apply"},
    {"upload": "${cv}", "into": "Upload your CV"},
    {"upload": "${passport}", "into": "Passport scan"},
]
INVOICE = b"%PDF-1.4 invoice March 2026 total 41.50 EUR"


def keeping(name: str, data: bytes) -> Callable[[RunRequest], RunResult]:
    """A run that completes and kept ``data`` under ``name`` (as a download does)."""

    def run(request: RunRequest) -> RunResult:
        file = TaskFile(name, "invoice-2026-03.pdf", "application/pdf", data, kept_by="1")
        result = complete({name: file.record()})(request)
        assert isinstance(result, RunResult)
        result.kept = [file]
        return result

    return run


async def test_an_upload_reaches_the_run_and_a_secret_one_stays_sealed_and_unseen(
    store_kind: str,
    store_url: str,
    reopen: Callable[[], Any],
    canary: Callable[[str], str],
) -> None:
    scan_name = canary("canary-passport-4e7a1b.jpg")
    scan = canary("canary-scan-bytes-90d2c6").encode()
    runner = ScriptedRunner()
    async with reopen() as db, Tasks(runner, store=db) as tasks:
        cv = await tasks.files.upload("../../home/ana/cv.txt", b"Ana Lima, engineer")
        assert cv.filename == "cv.txt" and cv.size == 18
        secret = await tasks.files.upload(scan_name, scan, secret=True)
        assert secret.sha256 == ""
        started = await tasks.start_task(
            {"flow": UPLOAD, "files": {"cv": cv.id, "passport": secret.id}}
        )
        done = await tasks.await_task({"id": started.id, "timeout_ms": 5000})
        assert done.status.state == "done"
        report = await tasks.task_report({"id": started.id})
        views = [done.model_dump_json(), report.model_dump_json()]
        if store_kind != "memory":
            held = at_rest(store_kind, store_url)
            assert SEALED in held
            assert scan_name not in held and scan.decode() not in held
    [(_task, run)] = runner.requests
    assert run.files["cv"].data == b"Ana Lima, engineer"
    assert run.files["passport"].data == scan and run.files["passport"].secret
    assert "passport" in run.private
    assert all(scan_name not in v and scan.decode() not in v for v in views)
    listed = {f.name: f for f in report.files}
    assert listed["passport"].filename == "(secret)" and listed["passport"].sha256 == ""
    assert listed["cv"].filename == "cv.txt"
    assert listed["cv"].sha256 == hashlib.sha256(b"Ana Lima, engineer").hexdigest()


async def test_a_kept_file_is_the_owners_alone(reopen: Callable[[], Any]) -> None:
    runner = ScriptedRunner.of(keeping("march invoice", INVOICE))
    flow = [{"browse": "https://shop.example.com/"}, {"download": "Invoice", "as": "march invoice"}]
    async with reopen() as db, Tasks(runner, store=db) as tasks:
        started = await tasks.start_task({"flow": flow})
        done = await tasks.await_task({"id": started.id, "timeout_ms": 5000})
        assert done.status.state == "done"
        kept = await tasks.read_file(started.id, "march invoice")
        assert kept.data == INVOICE and kept.filename == "invoice-2026-03.pdf"
        report = await tasks.task_report({"id": started.id})
        assert report.records["march invoice"] == {
            "name": "invoice-2026-03.pdf",
            "type": "application/pdf",
            "size": len(INVOICE),
            "sha256": hashlib.sha256(INVOICE).hexdigest(),
        }
        other = tasks.for_owner("mallory")
        with pytest.raises(GoferError) as unknown_task:
            await other.read_file(started.id, "march invoice")
        assert unknown_task.value.code == "UNKNOWN_TASK"
        with pytest.raises(GoferError) as no_file:
            await tasks.read_file(started.id, "april invoice")
        assert no_file.value.code == "UNKNOWN_FILE"
        mine = await tasks.files.upload("cv.txt", b"mine")
        with pytest.raises(GoferError) as theirs:
            await other.start_task({"flow": UPLOAD[:2], "files": {"cv": mine.id}})
        assert theirs.value.code == "UNKNOWN_FILE"


async def test_the_operators_limits_refuse_with_stable_codes(reopen: Callable[[], Any]) -> None:
    limits = FileLimits(bytes=10, count=2)
    async with reopen() as db, Tasks(ScriptedRunner(), store=db, file_limits=limits) as tasks:
        with pytest.raises(GoferError) as large:
            await tasks.files.upload("big.bin", b"x" * 11)
        assert large.value.code == "FILE_TOO_LARGE" and large.value.details["limit"] == 10
        await tasks.files.upload("a.txt", b"a")
        await tasks.files.upload("b.txt", b"b")
        with pytest.raises(GoferError) as many:
            await tasks.files.upload("c.txt", b"c")
        assert many.value.code == "TOO_MANY_FILES"


async def test_a_tasks_files_go_with_the_task() -> None:
    runner = ScriptedRunner.of(keeping("march invoice", INVOICE), keeping("march invoice", b"2"))
    flow = [{"browse": "https://shop.example.com/"}, {"download": "Invoice", "as": "march invoice"}]
    async with Tasks(runner, max_tasks=1) as tasks:
        first = await tasks.start_task({"flow": flow})
        await tasks.await_task({"id": first.id, "timeout_ms": 5000})
        assert (await tasks.read_file(first.id, "march invoice")).data == INVOICE
        second = await tasks.start_task({"flow": flow})  # room made: the first is dropped
        await tasks.await_task({"id": second.id, "timeout_ms": 5000})
        assert await tasks.files.files.of_task(tasks.owner, first.id) == []
        assert (await tasks.read_file(second.id, "march invoice")).data == b"2"


async def test_a_flow_saved_from_a_task_keeps_file_names_never_files(
    reopen: Callable[[], Any],
) -> None:
    async with reopen() as db, Tasks(ScriptedRunner(), store=db) as tasks:
        cv = await tasks.files.upload("ana-lima-cv.txt", b"Ana Lima, data engineer")
        scan = await tasks.files.upload("passport-scan.jpg", b"scan bytes", secret=True)
        started = await tasks.start_task(
            {"flow": UPLOAD, "files": {"cv": cv.id, "passport": scan.id}}
        )
        await tasks.await_task({"id": started.id, "timeout_ms": 5000})
        saved = await tasks.flows.save({"name": "apply", "task_id": started.id})
        written = saved.model_dump_json()
        assert "${cv}" in written and "${passport}" in written
        assert {"cv", "passport"} <= set(saved.params) and "passport" in saved.secret_params
        for leaked in ("ana-lima-cv", "Ana Lima", "passport-scan", "scan bytes"):
            assert leaked not in written
        again = await tasks.start_task(
            {"saved_flow": {"name": "apply"}, "files": {"cv": cv.id, "passport": scan.id}}
        )
        done = await tasks.await_task({"id": again.id, "timeout_ms": 5000})
        assert done.status.state == "done"


async def test_a_file_the_flow_asks_for_is_answered_with_an_upload(
    reopen: Callable[[], Any],
) -> None:
    runner = ScriptedRunner()
    async with reopen() as db, Tasks(runner, store=db) as tasks:
        started = await tasks.start_task({"flow": UPLOAD[:2]})
        asked = await tasks.await_task({"id": started.id, "timeout_ms": 5000})
        assert asked.status.state == "needs_input"
        assert asked.status.fields == ["cv"]  # type: ignore[union-attr]
        cv = await tasks.files.upload("cv.txt", b"Ana Lima, engineer")
        mallory = await tasks.for_owner("mallory").files.upload("cv.txt", b"not hers")
        with pytest.raises(GoferError) as theirs:
            await tasks.continue_task({"id": started.id, "files": {"cv": mallory.id}})
        assert theirs.value.code == "UNKNOWN_FILE"
        await tasks.continue_task({"id": started.id, "files": {"cv": cv.id}})
        done = await tasks.await_task({"id": started.id, "timeout_ms": 5000})
        assert done.status.state == "done"
    [(_task, run)] = runner.requests
    assert run.files["cv"].data == b"Ana Lima, engineer"
