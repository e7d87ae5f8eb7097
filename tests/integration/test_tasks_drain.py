"""A worker drained with SIGTERM mid-turn, as ``gofer worker --drain-seconds`` does, on
SQLite and PostgreSQL: a turn that ends within the grace ends there (one run, nothing
handed back) and the worker exits 0; a turn longer than the grace is cut when it ends
and another worker finishes it, its attempt refunded; a second SIGTERM cuts at once."""

from __future__ import annotations

import signal
from collections.abc import Awaitable, Callable

import pytest
from worker_process import Worker

from gofer.store import Connector
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.status import task_group

LEASE_MS = 120_000  # the lease alone would hold a turn far longer than every test here
FLOW = [{"browse": "https://a.example.com/"}, {"click": "Search"}]


@pytest.fixture(params=["sqlite", "postgres"])
def store_kind(request: pytest.FixtureRequest) -> str:
    """The stores several processes can share."""
    return str(request.param)


Spawn = Callable[..., Awaitable[Worker]]


@pytest.fixture
def worker(workers: Spawn) -> Callable[..., Awaitable[Worker]]:
    async def start(url: str, mode: str, drain_s: float | None = None) -> Worker:
        return await workers(url, mode, LEASE_MS, drain_s=drain_s)

    return start


async def ended(proc: Worker) -> tuple[bytes, float]:
    """The rest of what the worker printed, once it exited 0, and how long that took."""
    out, code, took = await proc.ended()
    assert code == 0, f"exited {code}"
    return out, took


async def attempts(tasks: Tasks, task_id: str) -> list[tuple[int, str]]:
    turns = await tasks.worker.book.queue.items(group=task_group(task_id))
    return [(t.attempts, t.state) for t in turns]


async def test_a_turn_that_ends_within_the_grace_ends_in_the_drained_worker(
    db: Connector,
    store_url: str,
    worker: Spawn,
) -> None:
    async with Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        drained = await worker(store_url, "slow:2", drain_s=20)
        await drained.said(b"started\n")
        drained.send_signal(signal.SIGTERM)
        await drained.said(b"draining\n")
        out, _ = await ended(drained)
        assert out == b"ended\n", "the turn ran on to its end there, once"
        done = await tasks.await_task({"id": view.id, "timeout_ms": 10_000})
        assert done.status.state == "done"
        assert await attempts(tasks, view.id) == [(1, "done")]


async def test_a_turn_longer_than_the_grace_is_cut_then_and_another_worker_ends_it(
    db: Connector,
    store_url: str,
    worker: Spawn,
) -> None:
    async with Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        drained = await worker(store_url, "hang", drain_s=1.5)
        await drained.said(b"started\n")
        drained.send_signal(signal.SIGTERM)
        await drained.said(b"draining\n")
        out, took = await ended(drained)
        assert out == b""
        assert 1.0 <= took < 15, "it waits out its grace, then cuts the turn"
        last = await worker(store_url, "complete")
        done = await tasks.await_task({"id": view.id, "timeout_ms": 30_000})
        assert done.status.state == "done"
        last.send_signal(signal.SIGTERM)
        assert (await ended(last))[0] == b"started\n", "the other worker ran it once"
        assert await attempts(tasks, view.id) == [(1, "done")], "the cut run was refunded"


async def test_a_second_sigterm_during_the_grace_cuts_the_turn_at_once(
    db: Connector,
    store_url: str,
    worker: Spawn,
) -> None:
    async with Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        drained = await worker(store_url, "hang", drain_s=120)
        await drained.said(b"started\n")
        drained.send_signal(signal.SIGTERM)
        await drained.said(b"draining\n")
        drained.send_signal(signal.SIGTERM)
        out, took = await ended(drained)
        assert out == b""
        assert took < 15, "the second signal does not wait out the 120 s grace"
        last = await worker(store_url, "complete")
        done = await tasks.await_task({"id": view.id, "timeout_ms": 30_000})
        assert done.status.state == "done"
        last.send_signal(signal.SIGTERM)
        assert (await ended(last))[0] == b"started\n"
        assert await attempts(tasks, view.id) == [(1, "done")]
