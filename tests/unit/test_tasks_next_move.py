"""The decision table of a task's segment: what ``next_move`` chooses for each thing
that can come of a segment, with no loop, no runner and no browser."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from gofer.facts import Facts
from gofer.flow import parse_flow
from gofer.rescue import Guidance
from gofer.runtime.types import Failure, Gate, RunResult, RunStatus, StepOutcome, StepReport
from gofer.safety.walls import ONE_TIME_CODE
from gofer.tasks.budget import Spending
from gofer.tasks.cell import Cell, Segment
from gofer.tasks.contract import (
    Cancelled,
    Checkpoint,
    Failed,
    NeedsApproval,
    NeedsHuman,
    RescueInfo,
    Running,
    TaskBudget,
    TaskConstraints,
    TaskView,
)
from gofer.tasks.outcome import (
    PRESS_UNSURE,
    PRESSED_UNSURE,
    Continue,
    Guided,
    Journaled,
    Move,
    OutOfBudget,
    Ran,
    Refused,
    Rescue,
    RunEnded,
    Stop,
    TimedOut,
    TypeCode,
    next_move,
)
from gofer.tasks.seams import WorkspaceOptions

FLOW = parse_flow(
    [
        {"browse": "https://shop.example.com/"},
        {"click": "Next"},
        {"stop_before": "sending the order"},
        {"click": "Done"},
    ]
)
WHOLE = Segment(FLOW.steps, 0, False)
SEND = Gate(
    path="2",
    action="sending the order",
    label="Send",
    consequence="irreversible",
    payment_screen=False,
)
PAY = Gate(path="2", action="paying", label="Pay now", consequence="payment", payment_screen=False)
PRESS = Segment((), 2, False, gate=SEND)
GUIDED = Segment(FLOW.steps[1:], 1, False, rescue=0, rescue_steps=1)
SEED = {"totp": "JBSWY3DPEHPK3PXP"}


def cell(
    pending: list[Segment], facts: Facts | None = None, rescues: list[RescueInfo] | None = None
) -> Cell:
    view = TaskView(id="task-1", status=Running(), summary="", step=None, progress=0.0, next=[])
    return Cell(
        id="task-1",
        goal=None,
        flow=FLOW,
        facts=facts or Facts({"name": "Ravi"}),
        constraints=TaskConstraints(),
        spending=Spending(TaskBudget()),
        output=None,
        options=WorkspaceOptions(),
        view=view,
        pending=pending,
        rescues=list(rescues or []),
    )


def done(*paths: str) -> list[StepReport]:
    return [StepReport(path=p, kind="click", outcome=StepOutcome.DONE, intent="") for p in paths]


def failed_at(path: str, wall: str | None = None) -> RunResult:
    return RunResult(
        status=RunStatus.FAILED,
        steps=done(*map(str, range(int(path)))),
        failure=Failure(path=path, kind="click", reason="nothing changed"),
        top_level_done=int(path),
        wall=wall,
    )


RUNNING = RescueInfo(step="1", action="retry", outcome="running", reason="")


@dataclass(frozen=True)
class Row:
    """One line of the table: the cell's pending segments (the first one ran), what
    came of it, and what the move must be."""

    pending: list[Segment]
    ran: Ran
    move: type[Move]
    status: type[Any] | None = None
    left: list[int] = field(default_factory=list)
    """The bases of the pending segments the move leaves."""
    can_rescue: bool = False
    facts: Facts | None = None
    rescues: list[RescueInfo] = field(default_factory=list)
    reason: str | None = None


TABLE = {
    "the budget ran out before the segment": Row([WHOLE], OutOfBudget("max_actions"), Stop, Failed),
    "an earlier run of the turn pressed the approved control": Row(
        [PRESS, Segment(FLOW.steps[3:], 3, False)], Journaled("pressed"), Continue, left=[3]
    ),
    "an earlier run was cut short while pressing it": Row(
        [PRESS], Journaled("unsure"), Stop, Failed, left=[2], reason=PRESS_UNSURE
    ),
    "the runner refused the run": Row(
        [WHOLE], Refused("SURFACE_ERROR", "no browser"), Stop, Failed
    ),
    "the task ran out of time": Row([WHOLE], TimedOut("1"), Stop, Failed),
    "every step finished": Row(
        [WHOLE, Segment(FLOW.steps[3:], 3, False)],
        RunEnded(RunResult(status=RunStatus.COMPLETED, steps=done("0", "1"), top_level_done=4)),
        Continue,
        left=[3],
    ),
    "the run stopped before an irreversible control": Row(
        [WHOLE],
        RunEnded(RunResult(status=RunStatus.GATED, gate=SEND, top_level_done=2)),
        Stop,
        NeedsApproval,
        left=[3],
    ),
    "the run stopped before paying": Row(
        [WHOLE],
        RunEnded(RunResult(status=RunStatus.GATED, gate=PAY, top_level_done=2)),
        Stop,
        Checkpoint,
    ),
    "a step failed and no rescuer is configured": Row(
        [WHOLE], RunEnded(failed_at("1")), Stop, Failed, left=[1]
    ),
    "a step failed and a rescuer is configured": Row(
        [WHOLE], RunEnded(failed_at("1")), Rescue, Failed, left=[1], can_rescue=True
    ),
    "a step failed in a run that a control pressed before may have pressed": Row(
        [WHOLE],
        RunEnded(failed_at("1"), refused=("0",)),
        Stop,
        Failed,
        left=[1],
        can_rescue=True,
        reason=PRESSED_UNSURE,
    ),
    "a one-time-code wall with no seed waits for a person": Row(
        [WHOLE], RunEnded(failed_at("1", ONE_TIME_CODE)), Stop, NeedsHuman, left=[1]
    ),
    "a one-time-code wall with a seed types the code": Row(
        [WHOLE],
        RunEnded(failed_at("1", ONE_TIME_CODE)),
        TypeCode,
        left=[1],
        facts=Facts(SEED, secret=["totp"]),
    ),
    "the run was cancelled": Row(
        [WHOLE], RunEnded(RunResult(status=RunStatus.CANCELLED)), Stop, Cancelled
    ),
    "the run spent the budget": Row(
        [WHOLE], RunEnded(RunResult(status=RunStatus.BUDGET_SPENT, reason="spent")), Stop, Failed
    ),
}


@pytest.mark.parametrize("row", TABLE.values(), ids=TABLE.keys())
def test_the_next_move(row: Row) -> None:
    c = cell(row.pending, row.facts, row.rescues)
    move = next_move(c, row.pending[0], row.ran, can_rescue=row.can_rescue)
    assert type(move) is row.move
    match move:
        case Stop(outcome=outcome) | Rescue(decision=outcome):
            if row.status is not None:
                assert type(outcome.status) is row.status
            if row.reason is not None:
                assert isinstance(outcome.status, Failed) and outcome.status.reason == row.reason
            pending = outcome.pending
        case Continue(pending=pending) | TypeCode(pending=pending):
            pass
    assert [s.base for s in pending] == row.left
    assert c.pending == row.pending and c.flow is FLOW  # read, never written


def test_the_code_typed_goes_into_the_flow_before_the_step_that_met_the_wall() -> None:
    c = cell([WHOLE], Facts(SEED, secret=["totp"]))
    move = next_move(c, WHOLE, RunEnded(failed_at("1", ONE_TIME_CODE)), can_rescue=False)
    assert isinstance(move, TypeCode)
    assert move.flow.steps[1].KIND == "enter" and move.flow.steps[2:] == FLOW.steps[1:]
    again = cell(move.pending, Facts(SEED, secret=["totp"]))
    again.flow = move.flow
    wall = RunEnded(failed_at("1", ONE_TIME_CODE))  # the code typed, the wall stayed
    stays = next_move(again, move.pending[0], wall, can_rescue=False)
    assert isinstance(stays, Stop) and isinstance(stays.outcome.status, NeedsHuman)


def test_a_guidance_run_settles_its_rescue() -> None:
    ok = RunEnded(
        RunResult(status=RunStatus.COMPLETED, steps=done("0", "1", "2"), top_level_done=3)
    )
    bad = RunEnded(failed_at("0"))
    for ran, outcome in ((ok, "recovered"), (bad, "failed_again"), (TimedOut("1"), "failed_again")):
        c = cell([GUIDED], rescues=[RUNNING])
        move = next_move(c, GUIDED, ran, can_rescue=False)
        assert [r.outcome for r in move.rescues] == [outcome]
        assert c.rescues == [RUNNING]


def test_the_rescuers_answer_is_spliced_in_or_stops_the_task() -> None:
    c = cell([WHOLE])
    rescue = next_move(c, WHOLE, RunEnded(failed_at("1")), can_rescue=True)
    assert isinstance(rescue, Rescue)
    guidance = Guidance(
        action="retry", reason="its words", steps=(FLOW.steps[1], FLOW.steps[3]), covers=0
    )
    went = next_move(c, WHOLE, Guided(rescue, guidance), can_rescue=False)
    assert isinstance(went, Continue) and went.flow is not None
    assert [s.base for s in went.pending] == [1] and went.pending[0].rescue == 0
    assert len(went.flow.steps) == len(FLOW.steps) + 1
    assert [r.outcome for r in went.rescues] == ["running"]
    gave_up = next_move(c, WHOLE, Guided(rescue, None, "no answer"), can_rescue=False)
    assert isinstance(gave_up, Stop) and isinstance(gave_up.outcome.status, Failed)
    assert "the rescuer gave up: no answer" in (gave_up.outcome.status.hint or "")
    assert [r.outcome for r in gave_up.rescues] == ["gave_up"]
    assert c.flow is FLOW and c.rescues == []
