"""A rescue's record on the task, from the rescuer's answer to how its guidance ran
(tasks/outcome.py, on a task's working state, with a scripted model)."""

from __future__ import annotations

import json
from typing import Any

from gofer.facts import Facts
from gofer.flow import parse_flow
from gofer.flow.parse import step_to_json
from gofer.models import ScriptedModel
from gofer.rescue import ModelRescuer
from gofer.runtime.types import Failure, Gate, RunResult, RunStatus, StepOutcome, StepReport
from gofer.tasks.budget import Spending
from gofer.tasks.cell import Cell, Segment
from gofer.tasks.contract import Failed, Running, TaskBudget, TaskConstraints, TaskView
from gofer.tasks.outcome import (
    Continue,
    Outcome,
    Rescue,
    RunEnded,
    ask,
    next_move,
    rescuable,
    settled,
)
from gofer.tasks.seams import WorkspaceOptions

FLOW = parse_flow(
    {
        "steps": [
            {"browse": "https://air.example.com/"},
            {"click": "Continue"},
            {"click": "No thanks"},
            {"stop_before": "paying for the booking"},
        ]
    }
)
GUIDANCE = [{"click": "Save and continue"}, {"click": "Next"}]


def cell(**budget: Any) -> Cell:
    return Cell(
        id="task-1",
        goal="book it",
        flow=FLOW,
        facts=Facts({"first name": "Ashqorina"}),
        constraints=TaskConstraints(),
        spending=Spending(TaskBudget(**budget)),
        output=None,
        options=WorkspaceOptions(),
        view=TaskView(id="task-1", status=Running(), summary="", step=None, progress=0.0, next=[]),
    )


def failed_at_1(c: Cell) -> tuple[RunResult, Outcome]:
    result = RunResult(
        status=RunStatus.FAILED,
        failure=Failure(path="1", kind="click", reason="nothing changed"),
        screen_text="Passenger details\nAshqorina",
    )
    pending = [Segment(FLOW.steps[1:], 1, False)]
    status = Failed(step="1", reason="nothing changed", recoverable=True)
    return result, Outcome(status, at="1", pending=pending)


def report(path: str, outcome: StepOutcome) -> StepReport:
    return StepReport(path=path, kind="click", outcome=outcome, intent="")


async def guided(c: Cell) -> list[Segment]:
    result, decision = failed_at_1(c)
    assert rescuable(c, decision.pending[0], decision)
    model = ScriptedModel(
        [
            json.dumps(
                {"action": "retry", "reason": "the page's words", "steps": GUIDANCE, "covers": 1}
            )
        ]
    )
    c.pending = [Segment(FLOW.steps, 0, False)]
    move = next_move(c, c.pending[0], RunEnded(result), can_rescue=True)
    assert isinstance(move, Rescue) and move.decision.pending == decision.pending
    answered = await ask(ModelRescuer(model), move, c.spending, c.id)
    went = next_move(c, c.pending[0], answered, can_rescue=False)
    assert isinstance(went, Continue)
    c.pending, c.flow, c.rescues = went.pending, went.flow, went.rescues  # as the turn does
    assert "Ashqorina" not in json.dumps([m.content for m in model.calls[0]])
    return went.pending


async def test_a_rescue_is_running_until_its_guidance_run_ends_then_recovered() -> None:
    c = cell()
    [seg] = await guided(c)
    assert [step_to_json(s) for s in seg.steps] == [*GUIDANCE, step_to_json(FLOW.steps[3])]
    assert (seg.base, seg.rescue, seg.rescue_steps) == (1, 0, 2)
    assert [step_to_json(s) for s in c.flow.steps] == [  # type: ignore[union-attr]
        step_to_json(FLOW.steps[0]),
        *GUIDANCE,
        step_to_json(FLOW.steps[3]),
    ]
    assert [(r.action, r.outcome, r.covers) for r in c.rescues] == [("retry", "running", 1)]
    assert c.spending.rescues == 1 and c.spending.spent.model_calls == 1

    c.rescues = settled(
        c.rescues,
        seg,
        RunResult(
            status=RunStatus.GATED,
            steps=[
                report("0", StepOutcome.DONE),
                report("1", StepOutcome.ALREADY_DONE),
                report("2", StepOutcome.GATED),
            ],
            gate=Gate(
                path="2",
                action="paying",
                label="Pay now",
                consequence="payment",
                payment_screen=False,
            ),
        ),
    )
    assert c.rescues[0].outcome == "recovered"


async def test_guidance_whose_step_fails_or_whose_run_is_cut_short_failed_again() -> None:
    for result in (
        RunResult(
            status=RunStatus.FAILED,
            steps=[report("0", StepOutcome.DONE), report("1", StepOutcome.FAILED)],
        ),
        None,
    ):
        c = cell()
        [seg] = await guided(c)
        c.rescues = settled(c.rescues, seg, result)
        assert c.rescues[0].outcome == "failed_again"


async def test_a_task_with_no_rescues_left_is_not_rescued() -> None:
    c = cell(max_rescues=1)
    await guided(c)
    _, decision = failed_at_1(c)
    assert not rescuable(c, decision.pending[0], decision)
    press = Segment(
        (),
        1,
        False,
        gate=Gate(
            path="1", action="x", label="x", consequence="irreversible", payment_screen=False
        ),
    )
    assert not rescuable(cell(), press, decision)
