"""Durable tasks on every store: restarts, owners, caps, reruns, Mark done and Reopen,
and waiting from another controller (scripted runs; the store is real)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from gofer.errors import GoferError
from gofer.flow import Browse
from gofer.runtime.types import RunRequest, RunResult
from gofer.store import Connector
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.status import task_group
from gofer.tasks.testing import complete, gate, hang
from gofer.tasks.worker import TurnLimits

PAGE = "https://mail.example.com/compose"
SEND = [
    {"browse": PAGE},
    {"click": "Compose"},
    {"stop_before": "sending the message"},
    {"read": "the message id", "as": "order"},
]
ASK = [{"browse": "https://shop.example.com/"}, {"enter": "${email}", "into": "Email"}]


def waits(started: list[str], release: asyncio.Event) -> Callable[[RunRequest], Any]:
    """A run that notes its start and completes once ``release`` is set."""

    async def run(request: RunRequest) -> RunResult:
        first = request.flow.steps[0]
        started.append(first.url if isinstance(first, Browse) else first.KIND)
        await release.wait()
        return complete()(request)

    return run


async def test_a_restart_loses_no_task_reply_or_approval_and_paused_work_goes_on(
    reopen: Callable[[], Any],
) -> None:
    first = ScriptedRunner.of(gate("2", "Send"))
    async with reopen() as db:
        async with Tasks(first, store=db) as tasks:
            paused = await tasks.start_task({"flow": SEND})
            paused = await tasks.await_task({"id": paused.id, "timeout_ms": 5000})
            assert paused.status.state == "needs_approval"
            asking = await tasks.start_task({"flow": ASK})
            assert asking.status.state == "needs_input"
        assert first.open == set(), "a closing worker lets its browsers go"
    # An API replica that runs nothing: its answers wait on the queue.
    async with reopen() as db, Tasks(first, store=db, work=False) as replica:
        listed = {v.id: v.status.state for v in (await replica.list_tasks()).tasks}
        assert listed == {paused.id: "needs_approval", asking.id: "needs_input"}
        answered = await replica.continue_task(
            {"id": asking.id, "inputs": {"email": "asha@example.com"}}
        )
        approved = await replica.continue_task({"id": paused.id, "approve": True})
        assert answered.status.state == approved.status.state == "running"
    after = ScriptedRunner()
    async with reopen() as db, Tasks(after, store=db) as tasks:
        done = await tasks.await_task({"id": paused.id, "timeout_ms": 5000})
        assert done.status.state == "done"
        assert (
            await tasks.await_task({"id": asking.id, "timeout_ms": 5000})
        ).status.state == "done"
        # The browser was gone: the run that went on opened the journaled page first,
        # then pressed the approved control and ran the steps after it.
        assert (paused.id, PAGE) in after.preloaded
        pressed = [r for t, r in after.requests if t == paused.id]
        assert [s.KIND for s in pressed[0].flow.steps] == ["stop_before"]
        assert pressed[0].allow_destructive is True
        assert [s.KIND for s in pressed[1].flow.steps] == ["read"]
        typed = [r for t, r in after.requests if t == asking.id]
        assert typed[0].variables["email"] == "asha@example.com"
        report = await tasks.task_report({"id": paused.id})
        assert [e.kind for e in report.log] == ["start", "ended", "reply", "ended"]
        assert report.log[2].text == "Approved the step waiting for approval."
        assert [s.path for s in report.steps][-1] == "3"
        secrets = (await tasks.task_report({"id": asking.id})).model_dump_json()
        assert "asha@example.com" not in secrets


async def test_another_owners_task_is_the_same_as_no_task_in_every_call(db: Connector) -> None:
    runner = ScriptedRunner.of(gate("2", "Send"))
    async with Tasks(runner, store=db, owner="alice") as alice:
        bob = alice.for_owner("bob")
        mine = await alice.start_task({"flow": SEND})
        await alice.await_task({"id": mine.id, "timeout_ms": 5000})
        missing = mine.id[:-4] + "zzzz"
        calls: list[tuple[str, dict[str, Any]]] = [
            ("await_task", {"timeout_ms": 10}),
            ("continue_task", {"approve": True}),
            ("cancel_task", {}),
            ("task_report", {}),
        ]
        for call, extra in calls:
            errors = []
            for task_id in (mine.id, missing):
                with pytest.raises(GoferError) as raised:
                    await getattr(bob, call)({"id": task_id, **extra})
                errors.append(raised.value.to_dict())
            theirs, none = errors
            assert str(theirs).replace(mine.id, "ID") == str(none).replace(missing, "ID")
            assert theirs["code"] == "UNKNOWN_TASK"
        for call in ("mark_done", "reopen"):
            with pytest.raises(GoferError) as raised:
                await getattr(bob, call)(mine.id)
            assert raised.value.code == "UNKNOWN_TASK"
        with pytest.raises(GoferError):
            bob.read_artifact(mine.id, "nothing")
        assert (await bob.list_tasks()).tasks == []
        assert [v.id for v in (await alice.list_tasks()).tasks] == [mine.id]
        assert (await alice.await_task({"id": mine.id})).status.state == "needs_approval"


async def test_turns_per_owner_are_capped_and_a_held_back_turn_starts_when_one_ends(
    db: Connector,
) -> None:
    started: list[str] = []
    release = asyncio.Event()
    runner = ScriptedRunner.of(*(waits(started, release) for _ in range(4)))
    limits = TurnLimits(per_owner=2, per_process=10)
    async with Tasks(runner, store=db, owner="alice", limits=limits) as alice:
        bob = alice.for_owner("bob")
        views = [
            await alice.start_task({"flow": [{"browse": f"https://a.example/{i}"}]})
            for i in range(3)
        ]
        theirs = await bob.start_task({"flow": [{"browse": "https://b.example/"}]})
        with db.waker.subscribe() as sub:
            while len(started) < 3:
                await sub.wait(1.0)
        held = views[2]
        # Two of alice's turns and bob's run; her third is held back and reads running.
        assert sorted(started) == [
            "https://a.example/0",
            "https://a.example/1",
            "https://b.example/",
        ]
        assert (await alice.await_task({"id": held.id, "timeout_ms": 0})).status.state == "running"
        release.set()
        for view in [*views]:
            assert (
                await alice.await_task({"id": view.id, "timeout_ms": 5000})
            ).status.state == "done"
        assert (await bob.await_task({"id": theirs.id, "timeout_ms": 5000})).status.state == "done"
        assert any("a.example/2" in s for s in started)


async def test_a_turn_cut_short_by_two_shutdowns_goes_back_each_time_and_runs_to_its_end(
    reopen: Callable[[], Any],
) -> None:
    for _ in range(2):
        started = asyncio.Event()
        runner = ScriptedRunner.of(hang(started))
        async with reopen() as db, Tasks(runner, store=db) as tasks:
            if not (await tasks.list_tasks()).tasks:
                await tasks.start_task({"flow": SEND[:2]})
            await started.wait()
            task_id = (await tasks.list_tasks()).tasks[0].id
            # closing mid-run (a drain) puts the turn back with its attempt refunded
    runner = ScriptedRunner()
    async with reopen() as db, Tasks(runner, store=db) as tasks:
        done = await tasks.await_task({"id": task_id, "timeout_ms": 5000})
        assert done.status.state == "done"
        assert len(runner.requests) == 1
        turns = await tasks.worker.book.queue.items(group=task_group(task_id))
        assert [(t.kind, t.attempts, t.state) for t in turns] == [("turn", 1, "done")]


async def test_mark_done_lets_the_browser_go_and_reopen_brings_the_task_back(
    db: Connector,
) -> None:
    runner = ScriptedRunner.of(gate("2", "Send"))
    async with Tasks(runner, store=db) as tasks:
        view = await tasks.start_task({"flow": SEND})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 5000})
        assert runner.open == {view.id}
        marked = await tasks.mark_done(view.id)
        assert marked.status.state == "done"
        assert runner.open == set()
        with pytest.raises(GoferError) as raised:
            await tasks.continue_task({"id": view.id, "approve": True})
        assert raised.value.code == "WRONG_STATE"
        again = await tasks.reopen(view.id)
        assert again.status.state == "needs_approval"
        with pytest.raises(GoferError) as raised:
            await tasks.reopen(view.id)
        assert raised.value.code == "WRONG_STATE"
        report = await tasks.task_report({"id": view.id})
        assert [e.kind for e in report.log][-2:] == ["resolved", "reopened"]


async def test_await_from_a_controller_that_runs_nothing_wakes_on_the_workers_finish(
    db: Connector,
    other: Connector,
) -> None:
    release = asyncio.Event()
    started: list[str] = []
    runner = ScriptedRunner.of(waits(started, release))
    async with (
        Tasks(runner, store=db) as worker,
        Tasks(ScriptedRunner(), store=other, work=False) as replica,
    ):
        view = await replica.start_task({"flow": SEND[:2]})
        with other.waker.subscribe() as sub:
            while not started:
                await sub.wait(1.0)
        waiting = asyncio.ensure_future(replica.await_task({"id": view.id}))
        release.set()
        assert (await waiting).status.state == "done"
        assert (await worker.await_task({"id": view.id})).status.state == "done"


async def test_a_process_runs_at_most_its_own_cap_of_turns_whoever_owns_them(
    db: Connector,
) -> None:
    started: list[str] = []
    release = asyncio.Event()
    runner = ScriptedRunner.of(*(waits(started, release) for _ in range(2)))
    async with Tasks(
        runner, store=db, owner="alice", limits=TurnLimits(per_owner=3, per_process=1)
    ) as alice:
        first = await alice.start_task({"flow": [{"browse": "https://a.example/"}]})
        second = await alice.for_owner("bob").start_task(
            {"flow": [{"browse": "https://b.example/"}]}
        )
        with db.waker.subscribe() as sub:
            while not started:
                await sub.wait(1.0)
        assert started == ["https://a.example/"]
        assert (
            await alice.for_owner("bob").await_task({"id": second.id, "timeout_ms": 0})
        ).status.state == "running"
        release.set()
        assert (await alice.await_task({"id": first.id})).status.state == "done"
        assert (await alice.for_owner("bob").await_task({"id": second.id})).status.state == "done"
        assert started == ["https://a.example/", "https://b.example/"]


class SlowPages(ScriptedRunner):
    """A runner whose pages take until ``loaded`` is set to open."""

    def __init__(self) -> None:
        super().__init__()
        self.opening = asyncio.Event()
        self.loaded = asyncio.Event()

    async def open_page(self, task_id: str, options: Any, address: str) -> None:
        self.opening.set()
        await self.loaded.wait()
        await super().open_page(task_id, options, address)


async def test_a_turn_stopped_before_its_run_began_gives_its_attempt_back(
    reopen: Callable[[], Any],
) -> None:
    async with reopen() as db, Tasks(ScriptedRunner.of(gate("2", "Send")), store=db) as tasks:
        view = await tasks.start_task({"flow": SEND})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 5000})
        assert view.status.state == "needs_approval"
    slow = SlowPages()
    async with reopen() as db:
        async with Tasks(slow, store=db) as tasks:
            await tasks.continue_task({"id": view.id, "approve": True})
            await slow.opening.wait()
        # stopped while the page it was last on was still opening: nothing ran
        assert slow.requests == []
        async with Tasks(ScriptedRunner(), store=db, work=False) as replica:
            (_, reply) = await replica.worker.book.queue.items(group=task_group(view.id))
            assert (reply.kind, reply.state, reply.attempts) == ("reply", "queued", 0)
    after = ScriptedRunner()
    async with reopen() as db, Tasks(after, store=db) as tasks:
        assert (await tasks.await_task({"id": view.id})).status.state == "done"
        (_, reply) = await tasks.worker.book.queue.items(group=task_group(view.id))
        assert (reply.state, reply.attempts) == ("done", 1)
