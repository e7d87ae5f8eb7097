"""What a finished run means for its task: go on, pause, or stop, and how to resume."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from gofer.flow.walk import step_number
from gofer.runtime.types import Gate, RunResult, RunStatus
from gofer.safety import Consequence, consequence
from gofer.tasks.approvals import approval_needed, new_approval_id
from gofer.tasks.budget import BudgetLedger
from gofer.tasks.cell import Segment
from gofer.tasks.contract import (
    Cancelled,
    Checkpoint,
    Failed,
    NeedsHuman,
    Status,
    TaskConstraints,
)

__all__ = ["Outcome", "budget_failure", "interpret", "is_payment"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a task goes on after one run.

    ``status`` None means the run's segment is finished and the next one runs.
    Otherwise the task stops with ``status``, about the step at ``at``; ``pending``
    is what a resume runs, ``approval`` the control an approval presses, and
    ``release`` says whether the workspace can go.
    """

    status: Status | None = None
    at: str | None = None
    pending: list[Segment] = field(default_factory=list)
    approval: Gate | None = None
    release: bool = False


def is_payment(gate: Gate) -> bool:
    """Whether the control a run stopped in front of pays: by the runtime's verdict, by
    its words, or because the screen is a card form."""
    return (
        gate.consequence == Consequence.PAYMENT
        or consequence(gate.label) is Consequence.PAYMENT
        or gate.payment_screen
    )


def budget_failure(field_name: str, reason: str, at: str | None) -> Outcome:
    """The task failed because ``budget.<field_name>`` ran out."""
    return Outcome(
        Failed(
            step=at,
            reason=reason,
            hint=f"raise budget.{field_name} and start a new task",
            recoverable=False,
        ),
        at=at,
        release=True,
    )


def _from(seg: Segment, top: int) -> list[Segment]:
    """``seg``'s steps from its top-level index ``top`` on, as a segment (none if empty)."""
    rest = seg.steps[top:]
    return [Segment(rest, seg.base + top, seg.allow_destructive)] if rest else []


def interpret(
    result: RunResult,
    seg: Segment,
    later: list[Segment],
    constraints: TaskConstraints,
    ledger: BudgetLedger,
    progress_summary: str,
) -> Outcome:
    """Map how ``seg``'s run ended to what the task does next."""
    if result.status is RunStatus.COMPLETED:
        return Outcome()
    if result.status is RunStatus.GATED and result.gate is not None:
        return _gated(result.gate, seg, later, constraints, progress_summary)
    if result.status is RunStatus.FAILED:
        return _failed(result, seg, later)
    if result.status is RunStatus.BUDGET_SPENT:
        at = seg.absolute(result.steps[-1].path) if result.steps else None
        return budget_failure(
            ledger.spent_field(), result.reason or "the task spent its budget", at
        )
    if result.status is RunStatus.CANCELLED:
        return Outcome(Cancelled(), release=True)
    reason = result.reason or "the flow could not run"
    return Outcome(
        Failed(
            step=None, reason=reason, hint="fix the flow and start a new task", recoverable=False
        ),
        release=True,
    )


def _gated(
    gate: Gate,
    seg: Segment,
    later: list[Segment],
    constraints: TaskConstraints,
    progress_summary: str,
) -> Outcome:
    at = seg.absolute(gate.path)
    if is_payment(gate) and constraints.payment == "stop_at_payment":
        label = gate.label or gate.action
        return Outcome(
            Checkpoint(
                reason=f"reached the payment step ({label}); payment is always left to you",
                location=label,
                summary=progress_summary,
                continuable=False,
            ),
            at=at,
        )
    approval = replace(gate, path=at, id=new_approval_id())
    needs = approval_needed(approval)
    if seg.gate is not None:
        # The press run stopped in front of a control again (the approved one, or
        # another in its place): ask again about what is there now.
        return Outcome(needs, at=at, pending=later, approval=approval)
    top = int(gate.path.split(".")[0])
    # A gate inside `if` or `repeat_until` resumes from the start of its top-level step:
    # which branch or round it was in cannot be recovered from the path.
    nested = "." in gate.path
    return Outcome(
        needs, at=at, pending=_from(seg, top if nested else top + 1) + later, approval=approval
    )


def _failed(result: RunResult, seg: Segment, later: list[Segment]) -> Outcome:
    failure = result.failure
    path = failure.path if failure is not None else str(result.top_level_done)
    reason = failure.reason if failure is not None else (result.reason or "a step failed")
    at = seg.absolute(path)
    if seg.press:
        rest = [seg, *later]
    else:
        head = path.split(".")[0]
        top = int(head) if head.isdigit() else result.top_level_done
        rest = _from(seg, top) + later
    wall = result.wall
    if wall is not None:
        reason = f"{wall} is in the way at step {step_number(at)}"
        return Outcome(NeedsHuman(reason=reason), at=at, pending=rest)
    return Outcome(
        Failed(
            step=at,
            reason=reason,
            hint=f"continue_task runs step {step_number(at)} and the rest again on the same page",
            recoverable=True,
        ),
        at=at,
        pending=rest,
    )
