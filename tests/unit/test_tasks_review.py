"""Edge cases of the controller found in review: races, odd runner endings, resumes."""

from __future__ import annotations

import asyncio

import pytest

from gofer.errors import GoferError
from gofer.flow import Flow, parse_flow
from gofer.runtime.types import Gate, RunRequest, RunResult, RunStatus
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.runner import hang
from gofer.tasks.seams import PlanBrief


async def test_a_runner_that_raises_cancelled_on_its_own_fails_the_task() -> None:
    # A CancelledError the controller did not ask for (a library cancelling its own
    # work) must not leave the task `running` for ever.
    runner = ScriptedRunner.of(asyncio.CancelledError())
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": [{"browse": "https://a.example.com/"}]})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "failed"
        assert view.status.recoverable is False
        assert runner.open == set()


async def test_cancelling_still_cancels_a_running_task() -> None:
    started = asyncio.Event()
    runner = ScriptedRunner.of(hang(started))
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": [{"browse": "https://a.example.com/"}]})
        await started.wait()
        view = await tasks.cancel_task({"id": view.id})
        assert view.status.state == "cancelled"


class CardPlanner:
    async def plan(self, brief: PlanBrief) -> Flow:
        return parse_flow([{"enter": "${card number}", "into": "Card number"},
                           {"stop_before": "paying"}])


async def test_a_planned_flow_may_not_type_card_details_without_fill_then_approve() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner, planner=CardPlanner()) as tasks:
        view = await tasks.start_task({"task": "pay for my order",
                                       "facts": {"card number": "4111 1111 1111 1111"}})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "failed"
        assert view.status.hint == "CARD_ENTRY_REFUSED"
        assert "4111" not in view.model_dump_json()
    assert runner.requests == []


async def test_continue_while_a_cancel_is_under_way_starts_nothing() -> None:
    shot = asyncio.Event()
    go = asyncio.Event()

    class SlowShots(ScriptedRunner):
        async def screenshot(self, task_id: str) -> bytes | None:
            shot.set()
            await go.wait()
            return None

    def gated(request: RunRequest) -> RunResult:
        return RunResult(status=RunStatus.GATED,
                         gate=Gate(path="0", action="sending", label="Send",
                                   consequence="irreversible", payment_screen=False))

    runner = SlowShots.of(gated)
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": [{"stop_before": "sending"}]})
        shot.set()
        go.set()
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "needs_approval"
        shot.clear()
        go.clear()
        cancelling = asyncio.create_task(tasks.cancel_task({"id": view.id}))
        await shot.wait()
        try:
            with pytest.raises(GoferError) as caught:
                await tasks.continue_task({"id": view.id, "approve": True})
            assert caught.value.code == "WRONG_STATE"
        finally:
            go.set()
        view = await cancelling
        assert view.status.state == "cancelled"
        await asyncio.sleep(0.05)
        assert (await tasks.await_task({"id": view.id, "timeout_ms": 0})).status.state == (
            "cancelled")
    assert len(runner.requests) == 1
