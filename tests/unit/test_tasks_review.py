"""Edge cases of the controller found in review: races, odd runner endings, resumes."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from gofer.cli import EXIT_CODES, main
from gofer.errors import GoferError
from gofer.flow import Click, Enter, Flow, parse_flow
from gofer.models import CallMeter
from gofer.runtime.types import (
    Gate,
    Masker,
    RunRequest,
    RunResult,
    RunStatus,
    Spend,
    StepOutcome,
    StepReport,
)
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.seams import PlanBrief
from gofer.tasks.testing import complete, gate, hang

PAY = {"payment": "fill_then_approve", "origins": ["https://.example.com"]}


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
    async def plan(self, brief: PlanBrief, meter: CallMeter | None = None) -> Flow:
        return parse_flow(
            [{"enter": "${card number}", "into": "Card number"}, {"stop_before": "paying"}]
        )


async def test_a_planned_flow_may_not_type_card_details_without_fill_then_approve() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner, planner=CardPlanner()) as tasks:
        view = await tasks.start_task(
            {"task": "pay for my order", "facts": {"card number": "4111 1111 1111 1111"}}
        )
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "failed"
        assert view.status.hint == "CARD_ENTRY_REFUSED"
        assert "4111" not in view.model_dump_json()
    assert runner.requests == []


async def test_continue_while_a_cancel_is_under_way_starts_nothing() -> None:
    shot = asyncio.Event()
    go = asyncio.Event()

    class SlowShots(ScriptedRunner):
        async def screenshot(self, task_id: str, mask: Masker | None = None) -> bytes | None:
            shot.set()
            await go.wait()
            return None

    def gated(request: RunRequest) -> RunResult:
        return RunResult(
            status=RunStatus.GATED,
            gate=Gate(
                path="0",
                action="sending",
                label="Send",
                consequence="irreversible",
                payment_screen=False,
            ),
        )

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
            "cancelled"
        )
    assert len(runner.requests) == 1


def key_gate(request: RunRequest) -> RunResult:
    """A run whose Enter on a card form stopped in front of paying (step 0 typed first)."""
    return RunResult(
        status=RunStatus.GATED,
        gate=Gate(
            path="0",
            action="press Enter",
            label="press Enter",
            consequence="payment",
            payment_screen=True,
            key="Enter",
        ),
        spend=Spend(actions=1),
    )


async def test_approving_an_enter_that_pays_presses_enter_not_a_control_found_by_words() -> None:
    runner = ScriptedRunner.of(key_gate, complete())
    async with Tasks(runner) as tasks:
        view = await tasks.start_task(
            {
                "flow": [
                    {"enter": "${card number}", "into": "Card number", "submit": True},
                    {"verify": {"shows": "Thank you"}},
                ],
                "facts": {"card number": "4111 1111 1111 1111"},
                "constraints": PAY,
            }
        )
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "needs_approval"
        await tasks.continue_task({"id": view.id, "approve": True})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"
    press = runner.requests[1][1]
    # The Enter step runs again, allowed to submit: it types into its own field and
    # presses Enter there (never a stop_before grounding the words "press Enter").
    assert press.flow.steps == (Enter(value="${card number}", into="Card number", submit=True),)
    assert press.allow_destructive is True
    assert [s.KIND for s in runner.requests[2][1].flow.steps] == ["verify"]


async def test_approving_a_gated_click_presses_that_click_within_its_scope() -> None:
    runner = ScriptedRunner.of(gate("1", "Delete"), complete())
    async with Tasks(runner) as tasks:
        view = await tasks.start_task(
            {
                "flow": [
                    {"browse": "https://a.example.com/invoices"},
                    {"click": "Delete", "within": "Invoice 42", "optional": True},
                    {"verify": {"shows": "Invoice 42 deleted"}},
                ]
            }
        )
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "needs_approval"
        assert view.step is not None and view.step.path == "1"
        await tasks.continue_task({"id": view.id, "approve": True})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"
    press = runner.requests[1][1]
    assert press.flow.steps == (Click(target="Delete", within="Invoice 42"),)
    assert press.allow_destructive is True


def test_gofer_run_refuses_a_bad_facts_file_without_echoing_its_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flow = tmp_path / "flow.json"
    flow.write_text(json.dumps([{"enter": "${card number}", "into": "Card number"}]))
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps({"card number": 4111111111111111, "cvv": 737}))
    assert main(["run", str(flow), "--facts", str(facts), "--json"]) == EXIT_CODES["refused"]
    out = capsys.readouterr()
    error = json.loads(out.out)["error"]
    assert error["code"] == "INVALID_REQUEST"
    assert "facts" in error["message"]
    assert "4111111111111111" not in out.out + out.err
    assert "737" not in out.out + out.err


async def test_a_run_out_of_time_fails_at_the_step_it_was_on() -> None:
    async def slow_second_step(request: RunRequest) -> RunResult:
        assert request.on_step is not None
        request.on_step("0")
        request.on_step("1")
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    runner = ScriptedRunner.of(slow_second_step)
    async with Tasks(runner) as tasks:
        view = await tasks.start_task(
            {
                "flow": [
                    {"browse": "https://a.example.com/"},
                    {"click": "Next"},
                    {"click": "Done"},
                ],
                "budget": {"max_elapsed_ms": 100},
            }
        )
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "failed"
        assert view.status.step == "1"
        assert view.step is not None and view.step.kind == "click"


async def test_a_card_number_written_into_the_flow_is_card_data_too() -> None:
    flow = [{"enter": "4111 1111 1111 1111", "into": "Card number"}, {"stop_before": "paying"}]
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        with pytest.raises(GoferError) as caught:
            await tasks.start_task({"flow": flow})
        assert caught.value.code == "CARD_ENTRY_REFUSED"
        assert caught.value.details["step"] == "0"
        assert "4111" not in str(caught.value) and "4111" not in str(caught.value.details)
        # Not even under fill_then_approve: written into the flow, it would show in views.
        with pytest.raises(GoferError) as caught:
            await tasks.start_task(
                {
                    "flow": flow,
                    "constraints": {
                        "payment": "fill_then_approve",
                        "origins": ["https://.example.com"],
                    },
                }
            )
        assert caught.value.code == "CARD_ENTRY_REFUSED"
        # A number that is no card (fails the Luhn check) is typed as any value.
        view = await tasks.start_task({"flow": [{"enter": "4111 1111 1111 1112", "into": "Ref"}]})
        assert (await tasks.await_task({"id": view.id, "timeout_ms": 2000})).status.state == (
            "done"
        )
    assert len(runner.requests) == 1


async def test_a_spent_budget_names_the_step_it_stopped_on() -> None:
    def spent_on_step_two(request: RunRequest) -> RunResult:
        steps = [
            StepReport(path=str(i), kind="click", outcome=StepOutcome.DONE, intent="")
            for i in range(3)
        ]
        return RunResult(
            status=RunStatus.BUDGET_SPENT,
            steps=steps,
            spend=Spend(actions=3),
            reason="the run used all 3 actions it was given (max_actions)",
        )

    runner = ScriptedRunner.of(spent_on_step_two)
    flow = [{"click": f"Button {i}"} for i in range(6)]
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": flow, "budget": {"max_actions": 3}})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
    assert view.status.state == "failed"
    assert view.status.step == "2"
    assert view.status.hint is not None and "max_actions" in view.status.hint
