"""What a run's result means for its task: go on, pause, stop, or be rescued.

:func:`next_move` holds every decision about a segment of a task: from the cell, the
segment and what came of it (:data:`Ran`: its run's end, the runner's refusal, the
time or the budget running out, the press journal's word, the rescuer's answer) it
chooses the task's next :data:`Move`, reading the cell and writing nothing; the turn
(:class:`gofer.tasks.turn.Driver`) does what the move says. :func:`interpret` reads a
finished run against the task's constraints and budget: its next segment, a pause
for its caller or a person, an approval, a checkpoint or a failure.

Then three ways past a stop, each judged here from the run's result:

- **A one-time-code wall with no person** (:class:`TypeCode`): when the task holds an
  authenticator's seed (a secret fact that is a code source), it types the code of
  the moment into the page's code field and goes on with the step that stopped; the
  step is kept in the task's flow, so the flow saved from it types the code too. With
  no such fact the wall waits for a person.
- **A rescue** (:class:`Rescue`, :func:`ask`): a failed top-level step is handed to
  the rescuer, its guidance spliced in, and how the guidance's run went is judged
  (:func:`settled`). Never a wall a person must clear (that is ``needs_human`` before
  a rescue is asked), never an approved press, never a plain flow run outside a task.
- **A hand-back** from a person who worked in the task's browser is counted where
  their hold is kept (:func:`gofer.tasks.holding.hand_back`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field, replace
from typing import Literal, TypeAlias
from urllib.parse import urlsplit

from pydantic import JsonValue

from gofer.errors import GoferError, ModelError
from gofer.facts.otp import code_sources
from gofer.flow import Browse, Flow, Read, flow_to_json, iter_steps, parse_flow
from gofer.flow.parse import step_to_json
from gofer.flow.steps import Enter
from gofer.flow.walk import step_number
from gofer.models import CallMeter
from gofer.rescue import RESCUE_TIMEOUT_S, Briefing, Earlier, Guidance, StepLine
from gofer.runtime.types import Gate, RunResult, RunStatus, StepOutcome
from gofer.safety import Consequence, consequence
from gofer.safety.walls import ONE_TIME_CODE, TWO_FACTOR
from gofer.shape import schema_violations
from gofer.tasks.approvals import approval_needed, new_approval_id
from gofer.tasks.budget import Spending
from gofer.tasks.cell import Cell, Segment, answer_for, progress_summary
from gofer.tasks.contract import (
    Cancelled,
    Checkpoint,
    Done,
    Failed,
    NeedsHuman,
    RescueInfo,
    Status,
    TaskConstraints,
)
from gofer.tasks.seams import Rescuer, ShapeBrief, Shaper

__all__ = [
    "CODE_FIELD",
    "PRESSED_UNSURE",
    "PRESS_UNSURE",
    "RESCUING",
    "Continue",
    "Guided",
    "Journaled",
    "Move",
    "OutOfBudget",
    "Outcome",
    "Ran",
    "Refused",
    "Rescue",
    "RunEnded",
    "Stop",
    "TimedOut",
    "TypeCode",
    "ask",
    "briefing_for",
    "budget_failure",
    "finished",
    "interpret",
    "is_payment",
    "next_move",
    "rescuable",
    "segment_from",
    "settled",
    "step_number",
    "stopped",
]


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


def stopped(reason: str, hint: str) -> Outcome:
    """The task stops failed, for good, about no one step (its browser released)."""
    return Outcome(Failed(step=None, reason=reason, hint=hint, recoverable=False), release=True)


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


PRESS_UNSURE = (
    "the run was cut short while pressing the approved control, so it may have been "
    "pressed already; it is not pressed a second time"
)
PRESSED_UNSURE = (
    "an earlier run of this turn was cut short while pressing a control that cannot be "
    "undone, so it may have been pressed already; it is not pressed a second time"
)
_PRESS_AGAIN = "look at the page, then continue_task to press it again"


@dataclass(frozen=True, slots=True)
class RunEnded:
    """The segment's run ended with ``result``; ``refused``: the irreversible presses
    the turn's press journal refused in it (an earlier run of the turn may have pressed
    them)."""

    result: RunResult
    refused: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Refused:
    """The runner refused the segment's run (``code``; ``reason``, masked)."""

    code: str
    reason: str


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The task ran out of time while the run was on the step at ``at``."""

    at: str


@dataclass(frozen=True, slots=True)
class OutOfBudget:
    """The task spent ``budget.<field_name>`` before the segment ran."""

    field_name: str


@dataclass(frozen=True, slots=True)
class Journaled:
    """The press journal's word before an approved press: an earlier run of this turn
    ``pressed`` it, or was cut short while pressing it (``unsure``)."""

    verdict: Literal["pressed", "unsure"]


@dataclass(frozen=True, slots=True)
class Guided:
    """The rescuer's answer to a :class:`Rescue` (None, and ``why``: no answer)."""

    rescue: Rescue
    guidance: Guidance | None
    why: str = ""


Ran: TypeAlias = RunEnded | Refused | TimedOut | OutOfBudget | Journaled | Guided


@dataclass(frozen=True, slots=True)
class Continue:
    """Go on with ``pending`` (the finished segment gone, or guidance spliced in), over
    ``flow``, with the task's rescues as ``rescues``."""

    pending: list[Segment]
    flow: Flow | None
    rescues: list[RescueInfo]


@dataclass(frozen=True, slots=True)
class TypeCode:
    """Type the one-time code of the moment and go on: ``flow`` and ``pending`` carry
    the step that types it."""

    pending: list[Segment]
    flow: Flow
    rescues: list[RescueInfo]


@dataclass(frozen=True, slots=True)
class Rescue:
    """Ask the rescuer (:func:`ask`) about the failure ``decision`` stops on, with
    ``briefing``; the task's rescues stand as ``rescues`` meanwhile."""

    decision: Outcome
    briefing: Briefing
    rescues: list[RescueInfo]


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop the task as ``outcome`` says, its rescues standing as ``rescues``."""

    outcome: Outcome
    rescues: list[RescueInfo]


Move: TypeAlias = Continue | TypeCode | Rescue | Stop


def next_move(cell: Cell, seg: Segment, ran: Ran, *, can_rescue: bool) -> Move:
    """What the task does after ``seg`` (``cell.pending[0]``) came to ``ran``: every
    decision about a run's result, read from the cell and written nowhere.
    ``can_rescue``: a rescuer is configured."""
    at = seg.gate.path if seg.gate is not None else str(seg.base)
    match ran:
        case OutOfBudget(field_name=name):
            reason = "the task used up its budget before this step"
            return Stop(budget_failure(name, reason, at), cell.rescues)
        case Journaled(verdict="pressed"):
            return Continue(cell.pending[1:], cell.flow, cell.rescues)
        case Journaled():
            # Kept pending: going on (the caller's choice) presses it again.
            failed = Failed(step=at, reason=PRESS_UNSURE, hint=_PRESS_AGAIN, recoverable=True)
            return Stop(Outcome(failed, at=at, pending=list(cell.pending)), cell.rescues)
        case Refused(code=code, reason=reason):
            hint = f"the runner raised {code}"
            failed = Failed(step=at, reason=reason, hint=hint, recoverable=False)
            return Stop(Outcome(failed, at=at, release=True), settled(cell.rescues, seg, None))
        case TimedOut(at=on):
            timed_out = budget_failure("max_elapsed_ms", "the task ran out of time", on)
            return Stop(timed_out, settled(cell.rescues, seg, None))
        case Guided():
            return _guided(cell, ran)
        case RunEnded(result=result, refused=refused):
            return _after(cell, seg, result, refused, can_rescue)


def _after(
    cell: Cell, seg: Segment, result: RunResult, refused: tuple[str, ...], can_rescue: bool
) -> Move:
    rescues = settled(cell.rescues, seg, result)
    summary = progress_summary(cell)
    decision = interpret(result, seg, cell.pending[1:], cell.constraints, cell.spending, summary)
    if refused and isinstance(decision.status, Failed):
        # Going on (the caller's choice, in a turn of its own) presses it again.
        failed = Failed(step=refused[0], reason=PRESSED_UNSURE, hint=_PRESS_AGAIN, recoverable=True)
        return Stop(replace(decision, status=failed), rescues)
    typed = _code_typed(cell, result, decision)
    if typed is not None:
        flow, pending = typed
        return TypeCode(pending, flow, rescues)
    status = decision.status
    if can_rescue and rescuable(cell, seg, decision):
        assert isinstance(status, Failed) and status.step is not None
        failed_at = int(status.step.split(".")[0])
        briefing = briefing_for(cell, failed_at, status.reason, result.screen_text, rescues)
        return Rescue(decision, briefing, rescues)
    if status is not None:
        return Stop(decision, rescues)
    return Continue(cell.pending[1:], cell.flow, rescues)


def segment_from(seg: Segment, top: int) -> list[Segment]:
    """``seg``'s steps from its top-level index ``top`` on, as a segment (none if empty)."""
    rest = seg.steps[top:]
    return [Segment(rest, seg.base + top, seg.allow_destructive)] if rest else []


def interpret(
    result: RunResult,
    seg: Segment,
    later: list[Segment],
    constraints: TaskConstraints,
    spending: Spending,
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
            spending.spent_field(), result.reason or "the task spent its budget", at
        )
    if result.status is RunStatus.CANCELLED:
        return Outcome(Cancelled(), release=True)
    return stopped(result.reason or "the flow could not run", "fix the flow and start a new task")


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
        needs,
        at=at,
        pending=segment_from(seg, top if nested else top + 1) + later,
        approval=approval,
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
        rest = segment_from(seg, top) + later
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


log = logging.getLogger("gofer.tasks")

RESCUING = "A step failed; asking the rescuer how to get past it."
"""The note a task's view carries while its rescuer is asked."""

MAX_BRIEFED_STEPS = 40
"""The latest step reports a briefing carries."""

_REACHED = {StepOutcome.DONE, StepOutcome.ALREADY_DONE, StepOutcome.GATED}


def rescuable(cell: Cell, seg: Segment, decision: Outcome) -> bool:
    """Whether this stop may be rescued: a recoverable failed step of a task's flow (a
    wall a person must clear is ``needs_human`` instead), not an approved press, in the
    task's last segment, with rescues left."""
    status = decision.status
    return (
        isinstance(status, Failed)
        and status.recoverable
        and status.step is not None
        and not seg.press
        and cell.flow is not None
        and len(decision.pending) == 1
        and cell.spending.rescues_left() > 0
    )


def settled(rescues: list[RescueInfo], seg: Segment, result: RunResult | None) -> list[RescueInfo]:
    """``rescues`` once the run of ``seg`` ended: when ``seg`` opened with a rescue's
    guidance, that rescue is ``recovered`` when each of the guidance's own top-level
    steps finished (done or already done) or reached its own approval gate, else
    ``failed_again`` (also when the run was cut short and ``result`` is None)."""
    if seg.rescue < 0 or seg.rescue >= len(rescues):
        return rescues
    steps = result.steps if result is not None else []
    reached = {r.path: r.outcome for r in steps if "." not in r.path}
    gate = result.gate if result is not None else None
    gated_at = gate.path.split(".")[0] if gate is not None else None
    ok = True
    for i in range(seg.rescue_steps):
        outcome = reached.get(str(i))
        if outcome is StepOutcome.GATED or (gated_at == str(i) and outcome is None):
            break  # the rest of the guidance waits behind its own gate
        if outcome not in _REACHED:
            ok = False
            break
    record = rescues[seg.rescue]
    update = {"outcome": "recovered" if ok else "failed_again"}
    return [*rescues[: seg.rescue], record.model_copy(update=update), *rescues[seg.rescue + 1 :]]


def _known(cell: Cell, flow: Flow) -> frozenset[str]:
    names = {*cell.facts.names, *flow.vars, *cell.variables}
    names.update(s.as_ for _, s in iter_steps(flow.steps) if isinstance(s, Read))
    return frozenset(names)


def _rules(cell: Cell) -> tuple[str, ...]:
    c = cell.constraints
    rules = [
        "payment: the task stops before the control that pays; never pay"
        if c.payment == "stop_at_payment"
        else "payment: card details are typed from secret facts, and paying waits for approval",
        "irreversible actions (send, delete, publish, submit) are pressed without asking"
        if c.allow_destructive
        else "irreversible actions (send, delete, publish, submit) wait behind a stop_before",
    ]
    if c.origins:
        rules.append("the browser may load only: " + ", ".join(c.origins))
    return tuple(rules)


def _hide(cell: Cell, text: str) -> str:
    """``text`` with secret values as ``${name}`` and shared ones as ``‹name›``."""
    return cell.facts.redact(cell.facts.mask(text))


def briefing_for(
    cell: Cell, failed: int, failure: str, screen: str, rescues: list[RescueInfo] | None = None
) -> Briefing:
    """The briefing, every fact value redacted before it is built (``rescues``: the
    task's rescues so far, when not yet the cell's)."""
    assert cell.flow is not None
    facts = cell.facts
    try:
        flow = parse_flow(facts.redact_json(facts.mask_json(flow_to_json(cell.flow))))
    except GoferError:
        flow = cell.flow  # a value written into the flow made it invalid once redacted
    collected = tuple(
        (
            name,
            _hide(cell, value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)),
        )
        for name, value in cell.records.items()
    )
    return Briefing(
        goal=_hide(cell, cell.goal or ""),
        flow=flow,
        failed=failed,
        failure=_hide(cell, failure),
        steps=tuple(
            StepLine(s.path, s.kind, s.outcome, _hide(cell, s.reason or ""))
            for s in cell.steps[-MAX_BRIEFED_STEPS:]
        ),
        earlier=tuple(
            Earlier(r.step, r.action, r.outcome, _hide(cell, r.reason))
            for r in (cell.rescues if rescues is None else rescues)
        ),
        screen=_hide(cell, screen),
        rules=_rules(cell),
        known=_known(cell, cell.flow),
        secrets=frozenset(facts.secret_names),
        collected=collected,
        hosts=_hosts(cell),
    )


def _hosts(cell: Cell) -> frozenset[str]:
    """The hosts a rescue's guidance may browse: the flow's (its ``${name}`` addresses
    filled in) and the origins' (``.site`` for a site and its subdomains)."""
    assert cell.flow is not None
    hosts: set[str] = set()
    values = {name: cell.facts.get(name) for name in cell.facts.names}
    for _, step in iter_steps(cell.flow.steps):
        if not isinstance(step, Browse):
            continue
        url = step.url
        for name, value in values.items():
            if isinstance(value, str):
                url = url.replace("${" + name + "}", value)
        try:
            host = urlsplit(url.strip()).hostname
        except ValueError:
            host = None
        if host:
            hosts.add(host.lower())
    for origin in cell.constraints.origins:
        try:
            host = urlsplit(origin.strip().replace("://.", "://", 1)).hostname
        except ValueError:
            host = None
        if host:
            hosts.add(("." if "://." in origin else "") + host.lower())
    return frozenset(hosts)


async def ask(rescuer: Rescuer, move: Rescue, spending: Spending, task_id: str) -> Guided:
    """Ask the rescuer about the failure ``move`` stops on, within the rescue's time and
    the task's budget (both charged to ``spending``): its guidance, or why there is none."""
    status = move.decision.status
    assert isinstance(status, Failed)
    spending.rescues += 1
    meter = CallMeter(spending.model_calls_left())
    limit = RESCUE_TIMEOUT_S
    left = spending.time_left_s()
    if left is not None:
        limit = min(limit, left)
    loop = asyncio.get_running_loop()
    started = loop.time()
    guidance: Guidance | None = None
    why = ""
    scope = asyncio.timeout(limit)
    try:
        async with scope:
            guidance = await rescuer.guide(move.briefing, meter)
    except TimeoutError:
        if not scope.expired():
            raise
        why = f"the rescuer did not answer within {round(limit)} s"
    except ModelError as exc:
        why = f"the rescuer could not help: {exc.message}"
    finally:
        spending.charge_model_calls(meter.used)
        spending.add_pass_time((loop.time() - started) * 1000.0)
    if guidance is None or guidance.action == "give_up":
        log.info("task %s: the rescue of step %s gave up", task_id, status.step)
    else:
        log.info(
            "task %s: rescued step %s with %s (%d steps, covers %d)",
            task_id,
            status.step,
            guidance.action,
            len(guidance.steps),
            guidance.covers,
        )
    return Guided(move, guidance, why)


def _guided(cell: Cell, ran: Guided) -> Continue | Stop:
    """The task after its rescuer answered: the guidance spliced into its flow and its
    pending segments, or the failure (with the rescuer's reason in the hint)."""
    decision, guidance = ran.rescue.decision, ran.guidance
    status = decision.status
    assert isinstance(status, Failed) and status.step is not None and cell.flow is not None
    rescues = ran.rescue.rescues
    if guidance is None or guidance.action == "give_up":
        reason = _hide(cell, guidance.reason if guidance is not None else ran.why)
        record = RescueInfo(step=status.step, action="give_up", outcome="gave_up", reason=reason)
        hint = f"the rescuer gave up: {reason}; {status.hint or ''}".rstrip("; ")
        gave_up = replace(decision, status=status.model_copy(update={"hint": hint}))
        return Stop(gave_up, [*rescues, record])
    failed = int(status.step.split(".")[0])
    steps = cell.flow.steps
    spliced = (*steps[:failed], *guidance.steps, *steps[failed + 1 + guidance.covers :])
    record = RescueInfo(
        step=status.step,
        action=guidance.action,
        outcome="running" if guidance.steps else "recovered",
        reason=_hide(cell, guidance.reason),
        covers=guidance.covers,
        steps=[cell.facts.mask_json(step_to_json(s)) for s in guidance.steps],
    )
    first, *later = decision.pending
    shift = len(guidance.steps) - 1 - guidance.covers
    out: list[Segment] = []
    rest = (*guidance.steps, *first.steps[1 + guidance.covers :])
    if rest:
        out.append(
            Segment(
                rest,
                failed,
                first.allow_destructive,
                rescue=len(rescues) if guidance.steps else -1,
                rescue_steps=len(guidance.steps),
            )
        )
    out.extend(replace(seg, base=seg.base + shift) for seg in later)
    return Continue(out, Flow(steps=spliced, vars=cell.flow.vars), [*rescues, record])


CODE_FIELD = "code"
"""The words that name a one-time code's field (its label says code: "Authentication
code", "Verification code", "6-digit code")."""


def _code_typed(
    cell: Cell, result: RunResult, decision: Outcome
) -> tuple[Flow, list[Segment]] | None:
    """The flow and the segments that type the code and go on, or None when the wall is
    no code wall, no fact is a code source, it stopped a press, or the code was typed
    just before this step (a person must look)."""
    if not isinstance(decision.status, NeedsHuman) or result.wall not in (
        ONE_TIME_CODE,
        TWO_FACTOR,
    ):
        return None
    sources = code_sources(cell.facts.as_dict(), cell.facts.secret_names)
    if not sources or cell.flow is None or not decision.pending:
        return None
    first, *later = decision.pending
    if first.press or not first.steps:
        return None
    name = sorted(sources)[0]
    step = Enter(
        value="${" + name + "}",
        into=CODE_FIELD,
        submit=True,
        intent="type the one-time code from the authenticator",
    )
    failed = first.base
    steps = cell.flow.steps
    if failed > 0 and steps[failed - 1] == step:
        return None
    flow = Flow(steps=(*steps[:failed], step, *steps[failed:]), vars=cell.flow.vars)
    return flow, [
        Segment((step, *first.steps), failed, first.allow_destructive),
        *(replace(seg, base=seg.base + 1) for seg in later),
    ]


async def finished(shaper: Shaper | None, cell: Cell) -> Outcome:
    """Every step finished: the answer, shaped if the caller asked for a shape (the
    shaper's calls charged to the task's budget)."""
    total = len(cell.flow.steps) if cell.flow else 0
    answer = answer_for(total, cell.records, cell.facts)
    redacted = cell.facts.redact_json(cell.records)
    records: dict[str, JsonValue] = redacted if isinstance(redacted, dict) else {}
    if cell.output is None or shaper is None:
        return Outcome(Done(answer=answer, records=records), release=True)
    brief = ShapeBrief(
        goal=cell.goal or "",
        instructions=cell.output.instructions,
        schema=cell.output.json_schema,
        records=records,
    )
    meter = CallMeter(cell.spending.model_calls_left())
    try:
        result = await shaper.shape(brief, meter)
    except GoferError as exc:
        return _shape_failed(exc.message)
    finally:
        cell.spending.charge_model_calls(meter.used)
    if cell.output.json_schema is not None:
        wrong = schema_violations(result, cell.output.json_schema)
        if wrong:
            return _shape_failed("; ".join(str(v) for v in wrong[:5]))
    return Outcome(Done(answer=answer, records=records, result=result), release=True)


def _shape_failed(reason: str) -> Outcome:
    return stopped(
        f"the result did not take the asked shape: {reason}",
        "read the records in task_report, or loosen the output schema",
    )
