"""A worker killed with SIGKILL in the middle of a turn, on SQLite and PostgreSQL: the
turn runs exactly once more, then the task reads what that run ended on; killed on
both of its runs, it reads failed, saying why in plain words."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import pytest

from gofer.store import Connector
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.status import task_group

WORKER = Path(__file__).with_name("tasks_worker.py")
LEASE_MS = 1500
FLOW = [{"browse": "https://a.example.com/"}, {"click": "Search"}]


@pytest.fixture(params=["sqlite", "postgres"])
def store_kind(request: pytest.FixtureRequest) -> str:
    """The stores several processes can share."""
    return str(request.param)


async def worker(url: str, mode: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        str(WORKER),
        url,
        mode,
        str(LEASE_MS),
        stdout=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.DEVNULL,
    )


async def started(proc: asyncio.subprocess.Process) -> None:
    assert proc.stdout is not None
    async with asyncio.timeout(60):
        line = await proc.stdout.readline()
    assert line == b"started\n"


async def killed(proc: asyncio.subprocess.Process) -> None:
    proc.send_signal(signal.SIGKILL)
    assert await proc.wait() == -signal.SIGKILL


async def stopped(proc: asyncio.subprocess.Process) -> bytes:
    proc.send_signal(signal.SIGTERM)
    out, _ = await proc.communicate()
    assert proc.returncode == 0
    return out


async def test_a_worker_killed_mid_turn_leads_to_exactly_one_rerun(
    db: Connector,
    store_url: str,
) -> None:
    async with Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        first = await worker(store_url, "hang")
        await started(first)
        await killed(first)
        second = await worker(store_url, "complete")
        done = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        assert done.status.state == "done"
        assert await stopped(second) == b"started\n", "the turn ran once more, only once"
        (turn,) = await tasks.worker.book.queue.items(group=task_group(view.id))
        assert (turn.attempts, turn.state) == (2, "done")
        report = await tasks.task_report({"id": view.id})
        assert [s.path for s in report.steps] == ["0", "1"]


async def test_a_turn_killed_on_both_runs_reads_failed_in_plain_words(
    db: Connector,
    store_url: str,
) -> None:
    async with Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        for _ in range(2):
            proc = await worker(store_url, "hang")
            await started(proc)
            await killed(proc)
        # No notice says a lease lapsed: the wait's safety net reads it again.
        view = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        assert view.status.state == "failed"
        assert view.status.reason == (
            "the run was cut short 2 times: its worker stopped before the run ended "
            "(a crash or a restart)"
        )
        assert view.status.recoverable is True
