"""Handing a failed step to the rescuer, splicing its guidance in, and judging how the
guidance's run went.

Only a task's top-level failure is rescued, never a wall a person must clear (that is
``needs_human`` before this is asked), never an approved press, and never a plain flow
run outside a task.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import replace
from urllib.parse import urlsplit

from gofer.errors import GoferError, ModelError
from gofer.flow import Browse, Flow, Read, flow_to_json, iter_steps, parse_flow
from gofer.flow.parse import step_to_json
from gofer.models import CallMeter
from gofer.rescue import RESCUE_TIMEOUT_S, Briefing, Earlier, Guidance, StepLine
from gofer.runtime.types import RunResult, StepOutcome
from gofer.tasks.interpret import Decision
from gofer.tasks.models import Failed, RescueInfo
from gofer.tasks.seams import Rescuer
from gofer.tasks.store import Cell, Segment

__all__ = ["RESCUING", "briefing_for", "rescuable", "rescue", "settle_outcome"]

log = logging.getLogger("gofer.tasks")

RESCUING = "A step failed; asking the rescuer how to get past it."
"""The note a task's view carries while its rescuer is asked."""

MAX_BRIEFED_STEPS = 40
"""The latest step reports a briefing carries."""

_REACHED = {StepOutcome.DONE, StepOutcome.ALREADY_DONE, StepOutcome.GATED}


def rescuable(cell: Cell, seg: Segment, decision: Decision) -> bool:
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
    rescuer: Rescuer, cell: Cell, result: RunResult, decision: Decision
) -> list[Segment] | Decision:
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


def _splice(cell: Cell, decision: Decision, failed: int, guidance: Guidance) -> list[Segment]:
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
