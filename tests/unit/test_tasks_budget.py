"""A task's budget bounds all its runs: no refill on resume, elapsed time excludes waiting."""

from __future__ import annotations

import asyncio

import pytest

from gofer.errors import InvalidRequest
from gofer.runtime import Deliberation, Strategy
from gofer.runtime.types import RunBudget, RunRequest, RunResult
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import complete, gate, hang

FLOW = [
    {"browse": "https://mail.example.com/"},
    {"click": "Compose"},
    {"stop_before": "sending the message"},
    {"click": "Done"},
]


async def test_the_budget_does_not_refill_across_an_approval() -> None:
    runner = ScriptedRunner.of(
        gate("2", "Send message", actions=7),
        complete(actions=1),
        complete(actions=1, model_calls=4),
    )
    async with Tasks(runner) as tasks:
        view = await tasks.start_task(
            {"flow": FLOW, "budget": {"max_actions": 10, "max_model_calls": 50}}
        )
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "needs_approval"
        await tasks.continue_task({"id": view.id, "approve": True})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"
        report = await tasks.task_report({"id": view.id})
    budgets = [
        (b.max_actions, b.max_model_calls)
        for b in (request.budget for _, request in runner.requests)
    ]
    assert budgets == [(10, 50), (3, 50), (2, 50)]
    assert (report.spend.actions, report.spend.model_calls, report.spend.runs) == (9, 4, 3)


async def test_a_task_with_nothing_left_fails_before_running_again() -> None:
    runner = ScriptedRunner.of(gate("2", "Send message", actions=10))
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": FLOW, "budget": {"max_actions": 10}})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        await tasks.continue_task({"id": view.id, "approve": True})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "failed"
        assert view.status.hint == "raise budget.max_actions and start a new task"
        assert view.status.recoverable is False
    assert len(runner.requests) == 1
    assert runner.released == [view.id]


async def test_time_waiting_for_the_caller_does_not_count_against_max_elapsed_ms() -> None:
    runner = ScriptedRunner.of(gate("2", "Send message"), complete(), complete())
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": FLOW, "budget": {"max_elapsed_ms": 300}})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "needs_approval"
        await asyncio.sleep(0.4)  # the caller takes its time: longer than the whole budget
        await tasks.continue_task({"id": view.id, "approve": True})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"
        report = await tasks.task_report({"id": view.id})
        assert report.spend.elapsed_ms < 300


async def test_a_run_that_goes_past_max_elapsed_ms_is_cancelled_and_fails() -> None:
    runner = ScriptedRunner.of(hang())
    async with Tasks(runner) as tasks:
        loop = asyncio.get_running_loop()
        started = loop.time()
        view = await tasks.start_task({"flow": FLOW, "budget": {"max_elapsed_ms": 150}})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 5000})
        took = loop.time() - started
        assert view.status.state == "failed"
        assert view.status.hint == "raise budget.max_elapsed_ms and start a new task"
        assert view.status.step == "0"
        assert 0.14 <= took < 2.0
    assert runner.cancelled == [view.id]
    assert runner.released == [view.id]


async def test_running_time_adds_up_over_runs() -> None:
    async def slow(request: RunRequest) -> RunResult:
        await asyncio.sleep(0.3)
        return gate("2", "Send message")(request)  # type: ignore[return-value]

    runner = ScriptedRunner.of(slow, hang())
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": FLOW, "budget": {"max_elapsed_ms": 600}})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "needs_approval"
        await tasks.continue_task({"id": view.id, "approve": True})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "failed"
        assert view.status.hint == "raise budget.max_elapsed_ms and start a new task"
    first, second = (request.budget.time_left_ms for _id, request in runner.requests)
    assert first == 600
    assert second is not None and second <= 300  # the first run's 300 ms were spent


@pytest.mark.parametrize(
    "budget",
    [
        {"max_rescues": 6},
        {"max_actions": 0},
        {"max_elapsed_ms": 0},
        {"max_rescues": -1},
        {"votes": 0},
        {"votes": 16},
        {"strategy": "broad"},
        {"deliberation": "shallow"},
    ],
)
async def test_budgets_out_of_range_are_refused(budget: dict[str, object]) -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        with pytest.raises(InvalidRequest):
            await tasks.start_task({"flow": FLOW, "budget": budget})


async def test_unset_budget_fields_take_the_defaults() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        report = await tasks.task_report({"id": view.id})
    assert runner.requests[0][1].budget == RunBudget(
        120, 6000, votes=7, strategy=Strategy.NARROW, deliberation=Deliberation.DEEP
    )
    assert report.budget.max_rescues == 5
    assert (report.budget.votes, report.budget.strategy, report.budget.deliberation) == (
        7,
        "narrow",
        "deep",
    )


async def test_the_way_of_deciding_reaches_the_run() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        view = await tasks.start_task(
            {
                "flow": FLOW,
                "budget": {
                    "votes": 5,
                    "strategy": "wide",
                    "deliberation": "standard",
                    "max_elapsed_ms": 60_000,
                },
            }
        )
        await tasks.await_task({"id": view.id, "timeout_ms": 2000})
    budget = runner.requests[0][1].budget
    assert (budget.votes, budget.strategy, budget.deliberation) == (
        5,
        Strategy.WIDE,
        Deliberation.STANDARD,
    )
    assert budget.time_left_ms is not None and 0 < budget.time_left_ms <= 60_000
