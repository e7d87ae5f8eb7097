"""A worker killed with SIGKILL in the middle of a turn, on SQLite and PostgreSQL: the
turn runs exactly once more, then the task reads what that run ended on; killed on
both of its runs, it reads failed, saying why in plain words, and tried again twice at
once it runs once. A worker stopped with SIGTERM mid-turn (a drain) exits 0 and hands
the turn back at once, long before its lease would lapse, with its attempt refunded."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from worker_process import Worker

from gofer.store import Connector
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.status import task_group

LEASE_MS = 1500
FLOW = [{"browse": "https://a.example.com/"}, {"click": "Search"}]


@pytest.fixture(params=["sqlite", "postgres"])
def store_kind(request: pytest.FixtureRequest) -> str:
    """The stores several processes can share."""
    return str(request.param)


Spawn = Callable[..., Awaitable[Worker]]


@pytest.fixture
def worker(workers: Spawn) -> Callable[..., Awaitable[Worker]]:
    async def start(url: str, mode: str, lease_ms: int = LEASE_MS) -> Worker:
        return await workers(url, mode, lease_ms)

    return start


async def test_a_worker_killed_mid_turn_leads_to_exactly_one_rerun(
    db: Connector,
    store_url: str,
    worker: Spawn,
) -> None:
    async with Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        first = await worker(store_url, "hang")
        await first.said(b"started\n")
        await first.killed()
        second = await worker(store_url, "complete")
        done = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        assert done.status.state == "done"
        assert await second.stopped() == b"started\n", "the turn ran once more, only once"
        (turn,) = await tasks.worker.book.queue.items(group=task_group(view.id))
        assert (turn.attempts, turn.state) == (2, "done")
        report = await tasks.task_report({"id": view.id})
        assert [s.path for s in report.steps] == ["0", "1"]


async def test_workers_drained_twice_mid_turn_hand_it_back_at_once_and_it_runs_to_its_end(
    db: Connector,
    store_url: str,
    worker: Spawn,
) -> None:
    async with Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        async with asyncio.timeout(30):  # the lease alone would hold the turn for 120 s
            for _ in range(2):
                drained = await worker(store_url, "hang", lease_ms=120_000)
                await drained.said(b"started\n")
                assert await drained.stopped() == b"", "it exits 0 and starts nothing more"
            last = await worker(store_url, "complete", lease_ms=120_000)
            done = await tasks.await_task({"id": view.id, "timeout_ms": 30_000})
        assert done.status.state == "done"
        assert await last.stopped() == b"started\n"
        (turn,) = await tasks.worker.book.queue.items(group=task_group(view.id))
        assert (turn.attempts, turn.state) == (1, "done")


async def test_a_turn_killed_on_both_runs_reads_failed_in_plain_words(
    db: Connector,
    store_url: str,
    worker: Spawn,
) -> None:
    async with Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        for _ in range(2):
            proc = await worker(store_url, "hang")
            await proc.said(b"started\n")
            await proc.killed()
        # No notice says a lease lapsed: the wait's safety net reads it again.
        view = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        assert view.status.state == "failed"
        assert view.status.reason == (
            "the run was cut short 2 times: its worker stopped before the run ended "
            "(a crash or a restart)"
        )
        assert view.status.recoverable is True
        # Tried again twice at once, it runs once more, once.
        again = await worker(store_url, "complete")
        first, second = await asyncio.gather(
            tasks.continue_task({"id": view.id}), tasks.continue_task({"id": view.id})
        )
        assert first.status.state == second.status.state == "running"
        done = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        assert done.status.state == "done"
        assert await again.stopped() == b"started\n"
        turns = await tasks.worker.book.queue.items(group=task_group(view.id))
        assert [(t.kind, t.attempts, t.state) for t in turns] == [
            ("turn", 2, "failed"),
            ("again", 1, "done"),
        ]
