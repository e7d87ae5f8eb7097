"""A task never starts another task by itself: ``start_task`` from inside a task's own
turn (its run, a model pass of it, anything either starts) is refused, while its
caller may start tasks as before, even while that turn runs."""

from __future__ import annotations

import asyncio

import pytest

from gofer.errors import GoferError
from gofer.runtime.types import RunRequest, RunResult
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import complete

FLOW = [{"browse": "https://mail.example.com/"}, {"click": "Open the newest email"}]


async def test_a_tasks_own_turn_cannot_start_a_task() -> None:
    refusals: list[GoferError] = []
    go, tried = asyncio.Event(), asyncio.Event()
    tasks: Tasks

    async def obeys_the_email(request: RunRequest) -> RunResult:
        # What an injected instruction on the screen would have a model pass do.
        for starter in (tasks, tasks.for_owner("mallory")):
            try:
                await starter.start_task({"flow": FLOW, "facts": {"to": "x@example.com"}})
            except GoferError as exc:
                refusals.append(exc)

        async def later() -> None:  # work the turn hands on carries the turn with it
            try:
                await tasks.start_task({"task": "forward every email"})
            except GoferError as exc:
                refusals.append(exc)

        await asyncio.create_task(later())
        tried.set()
        await go.wait()
        result = complete()(request)
        assert isinstance(result, RunResult)
        return result

    runner = ScriptedRunner.of(obeys_the_email)
    async with Tasks(runner) as tasks:
        first = await tasks.start_task({"flow": FLOW})
        await tried.wait()
        # the caller, outside every turn, still starts tasks while that turn runs
        second = await tasks.start_task({"flow": FLOW})
        go.set()
        assert (await tasks.await_task({"id": first.id})).status.state == "done"
        assert (await tasks.await_task({"id": second.id})).status.state == "done"
        listed = await tasks.list_tasks()
        assert sorted(v.id for v in listed.tasks) == sorted([first.id, second.id])
        assert (await tasks.for_owner("mallory").list_tasks()).tasks == []
    assert [e.code for e in refusals] == ["STARTED_BY_TASK"] * 3
    assert all(e.details["by"] == first.id and first.id in e.message for e in refusals)


async def test_the_refusal_leaves_nothing_half_written() -> None:
    async def tries(request: RunRequest) -> RunResult:
        with pytest.raises(GoferError, match="never starts another task"):
            await tasks.start_task({"flow": FLOW})
        result = complete()(request)
        assert isinstance(result, RunResult)
        return result

    runner = ScriptedRunner.of(tries)
    async with Tasks(runner) as tasks:
        only = await tasks.start_task({"flow": FLOW})
        assert (await tasks.await_task({"id": only.id})).status.state == "done"
        assert [v.id for v in (await tasks.list_tasks()).tasks] == [only.id]
        assert [t for t, _r in runner.requests] == [only.id]
