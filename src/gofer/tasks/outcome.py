"""What a run's result means for its task: go on, pause, stop, or be rescued.

:func:`interpret` reads a finished run against the task's constraints and budget and
says how the task goes on (an :class:`Outcome`): its next segment, a pause for its
caller or a person, an approval, a checkpoint or a failure, and how to resume.

Then three ways past a stop, each judged here from the run's result:

- **A one-time-code wall with no person** (:func:`past_code_wall`): when the task
  holds an authenticator's seed (a secret fact that is a code source), it types the
  code of the moment into the page's code field and goes on with the step that
  stopped; the step is kept in the task's flow, so the flow saved from it types the
  code too. With no such fact the wall waits for a person.
- **A rescue** (:func:`rescuable`, :func:`rescue`): a failed top-level step is handed
  to the rescuer, its guidance spliced in, and how the guidance's run went is judged
  (:func:`settle_outcome`). Never a wall a person must clear (that is ``needs_human``
  before a rescue is asked), never an approved press, never a plain flow run outside
  a task.
- **A hand-back** (:func:`hand_back`): the turn that takes the task's browser back
  from a person reads what they did there (:meth:`gofer.tasks.holding.Holding.take_record`);
  it is kept in the task's report as flow steps, the flow's next steps their actions
  already did are marked done by them (a control is never pressed twice), and when
  the step to run next is a click whose control is gone from a page that has moved
  on, the person is asked what happened instead of the step failing.
  :func:`still_blocked` answers "I've done it" while the wall is still there.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

from gofer.decide.gates import wall_on
from gofer.errors import GoferError, ModelError
from gofer.facts.otp import code_sources
from gofer.flow import Browse, Flow, Read, flow_to_json, iter_steps, parse_flow
from gofer.flow.describe import describe_step
from gofer.flow.parse import step_to_json
from gofer.flow.steps import Enter
from gofer.flow.walk import step_number
from gofer.models import CallMeter
from gofer.rescue import RESCUE_TIMEOUT_S, Briefing, Earlier, Guidance, StepLine
from gofer.runtime.takeover import Handback, Recorder, done_by_person
from gofer.runtime.types import Gate, RunResult, RunStatus, StepOutcome
from gofer.safety import Consequence, consequence
from gofer.safety.walls import LOGIN_WALL, ONE_TIME_CODE, TWO_FACTOR
from gofer.surfaces.screen import Screen
from gofer.tasks.approvals import approval_needed, new_approval_id
from gofer.tasks.budget import BudgetLedger
from gofer.tasks.cell import Cell, Segment
from gofer.tasks.contract import (
    Cancelled,
    Checkpoint,
    Failed,
    NeedsHuman,
    PersonStepInfo,
    RescueInfo,
    Status,
    StepReportInfo,
    TaskConstraints,
)
from gofer.tasks.seams import Rescuer

__all__ = [
    "BY_PERSON",
    "CODE_FIELD",
    "RESCUING",
    "Outcome",
    "briefing_for",
    "budget_failure",
    "hand_back",
    "interpret",
    "is_payment",
    "past_code_wall",
    "rescuable",
    "rescue",
    "settle_outcome",
    "step_number",
    "still_blocked",
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
        and cell.ledger.rescues_left() > 0
    )


def settle_outcome(cell: Cell, seg: Segment, result: RunResult | None) -> None:
    """After the run of a segment that opened with guidance: ``recovered`` when each of
    the guidance's own top-level steps finished (done or already done) or reached its
    own approval gate, else ``failed_again`` (also when the run was cut short and
    ``result`` is None)."""
    if seg.rescue < 0 or seg.rescue >= len(cell.rescues):
        return
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
    record = cell.rescues[seg.rescue]
    cell.rescues[seg.rescue] = record.model_copy(
        update={"outcome": "recovered" if ok else "failed_again"}
    )


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


def briefing_for(cell: Cell, failed: int, failure: str, screen: str) -> Briefing:
    """The briefing, every fact value redacted before it is built."""
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
            Earlier(r.step, r.action, r.outcome, _hide(cell, r.reason)) for r in cell.rescues
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


async def rescue(
    rescuer: Rescuer, cell: Cell, result: RunResult, decision: Outcome
) -> list[Segment] | Outcome:
    """Ask the rescuer about the failure ``decision`` stops on: the pending segments
    with its guidance spliced in, or the failure (with the rescuer's reason in the hint)."""
    status = decision.status
    assert isinstance(status, Failed) and status.step is not None and cell.flow is not None
    failed = int(status.step.split(".")[0])
    briefing = briefing_for(cell, failed, status.reason, result.screen_text)
    cell.ledger.rescues += 1
    meter = CallMeter(cell.ledger.model_calls_left())
    limit = RESCUE_TIMEOUT_S
    left = cell.ledger.time_left_s()
    if left is not None:
        limit = min(limit, left)
    loop = asyncio.get_running_loop()
    started = loop.time()
    guidance: Guidance | None = None
    why = ""
    scope = asyncio.timeout(limit)
    try:
        async with scope:
            guidance = await rescuer.guide(briefing, meter)
    except TimeoutError:
        if not scope.expired():
            raise
        why = f"the rescuer did not answer within {round(limit)} s"
    except ModelError as exc:
        why = f"the rescuer could not help: {exc.message}"
    finally:
        cell.ledger.charge_model_calls(meter.used)
        cell.ledger.add_pass_time((loop.time() - started) * 1000.0)
    if guidance is None or guidance.action == "give_up":
        reason = guidance.reason if guidance is not None else why
        reason = _hide(cell, reason)
        cell.rescues.append(
            RescueInfo(step=status.step, action="give_up", outcome="gave_up", reason=reason)
        )
        log.info("task %s: the rescue of step %s gave up", cell.id, status.step)
        hint = f"the rescuer gave up: {reason}; {status.hint or ''}".rstrip("; ")
        return replace(decision, status=status.model_copy(update={"hint": hint}))
    return _splice(cell, decision, failed, guidance)


def _splice(cell: Cell, decision: Outcome, failed: int, guidance: Guidance) -> list[Segment]:
    assert cell.flow is not None and isinstance(decision.status, Failed)
    steps = cell.flow.steps
    spliced = (*steps[:failed], *guidance.steps, *steps[failed + 1 + guidance.covers :])
    cell.flow = Flow(steps=spliced, vars=cell.flow.vars)
    index = len(cell.rescues)
    cell.rescues.append(
        RescueInfo(
            step=decision.status.step or str(failed),
            action=guidance.action,
            outcome="running" if guidance.steps else "recovered",
            reason=_hide(cell, guidance.reason),
            covers=guidance.covers,
            steps=[cell.facts.mask_json(step_to_json(s)) for s in guidance.steps],
        )
    )
    log.info(
        "task %s: rescued step %d with %s (%d steps, covers %d)",
        cell.id,
        failed,
        guidance.action,
        len(guidance.steps),
        guidance.covers,
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
                rescue=index if guidance.steps else -1,
                rescue_steps=len(guidance.steps),
            )
        )
    out.extend(replace(seg, base=seg.base + shift) for seg in later)
    return out


CODE_FIELD = "code"
"""The words that name a one-time code's field (its label says code: "Authentication
code", "Verification code", "6-digit code")."""


def past_code_wall(cell: Cell, result: RunResult, decision: Outcome) -> list[Segment] | None:
    """The segments that type the code and go on, or None: not a code wall, no code
    source among the facts, a press, or the code was typed just before this step."""
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
        return None  # typed already and the wall stayed: a person must look
    cell.flow = Flow(steps=(*steps[:failed], step, *steps[failed:]), vars=cell.flow.vars)
    return [
        Segment((step, *first.steps), failed, first.allow_destructive),
        *(replace(seg, base=seg.base + 1) for seg in later),
    ]


BY_PERSON = "done_by_person"
"""The outcome of a step the task's person did themselves in the live view."""


def still_blocked(screen: Screen | None, reason: str) -> str | None:
    """Why the task is still blocked on ``screen`` (in words) by the wall its pause's
    ``reason`` names, or None when that wall is gone (or the page could not be read)."""
    if screen is None:
        return None
    wall = wall_on(screen)
    if wall is None or not reason.startswith(wall):
        return None
    if wall == LOGIN_WALL:
        return "It is still blocked: the sign-in form is still showing."
    return f"It is still blocked: {wall} is still showing."


def hand_back(cell: Cell, recorder: Recorder, now: Screen | None) -> Outcome | None:
    """Count what the person did (see the module); an outcome when the task must ask
    them what happened, else None (its pending steps start where they left off)."""
    facts = cell.facts
    values = facts.as_dict()
    seg = cell.pending[0] if cell.pending else None
    found = Handback(0)
    if seg is not None and not seg.press and cell.flow is not None:
        variables = {
            **{k: v for k, v in cell.flow.vars.items() if isinstance(v, str)},
            **{k: v for k, v in cell.variables.items() if isinstance(v, str)},
            **values,
        }
        found = done_by_person(recorder, seg.steps, variables, now)
    for done in recorder.steps(values, frozenset(facts.secret_names)):
        step = facts.mask_json(step_to_json(done.step))
        cell.person.append(
            PersonStepInfo(
                step=step if isinstance(step, dict) else {},
                url=facts.mask(done.url),
                secret=done.secret,
                words=facts.redact(facts.mask(describe_step(done.step))),
                before=None if seg is None else seg.base,
                did=found.done,
            )
        )
    if seg is None or seg.press or cell.flow is None:
        return None
    for i in range(found.done):
        step = seg.steps[i]
        cell.steps.append(
            StepReportInfo(
                run=cell.ledger.runs,
                path=str(seg.base + i),
                kind=step.KIND,
                outcome=BY_PERSON,
                intent=facts.redact(facts.mask(describe_step(step))),
            )
        )
    rest = seg.steps[found.done :]
    cell.finished_top = max(cell.finished_top, seg.base + found.done)
    if not found.moved_on:
        cell.pending[0:1] = _from(seg, found.done)
        return None
    gone = rest[0]
    at = str(seg.base + found.done)
    cell.pending[0:1] = _from(seg, found.done + 1)
    words = facts.redact(facts.mask(describe_step(gone)))
    later = (
        f"the task goes on from step {step_number(str(seg.base + found.done + 1))}"
        if len(rest) > 1 or len(cell.pending) > 0
        else "the task ends there"
    )
    reason = (
        f"the page has moved on since you took over, and step {step_number(at)} "
        f"({words}) is not on it. If you did it yourself, say you have done it and "
        f"{later}; if not, do it in the task's browser first"
    )
    return Outcome(NeedsHuman(reason=reason), at=at, pending=list(cell.pending))
