"""Judging a rescuer's answer: every rule enforced here, not only described in the prompt.

* a retry has 1 to MAX_RESCUE_STEPS steps;
* ``covers`` is at most the number of steps after the failed one, and never covers a
  step that holds a ``stop_before`` at any depth;
* a failed guard is never skipped, and guidance replacing one must end in a guard on
  every path (:func:`ends_in_guard`);
* ``‹name›`` markers (how the briefing shows a fact's value) become ``${name}``;
* the resumed flow (guidance, then what remains) passes the flow validator against
  the task's fact and secret names, with no name left unsupplied;
* a ``browse`` goes only to a host the flow already used or one of the task's origins,
  and a ``${name}`` address only where the flow itself browsed it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from gofer.flow import Browse, Flow, If, Step, StopBefore, check_flow, iter_steps
from gofer.flow.check import validate_flow
from gofer.rescue.types import MAX_RESCUE_STEPS, Briefing, Guidance

__all__ = ["ends_in_guard", "guards", "judge", "resumed"]


def guards(step: Step) -> bool:
    """Whether ``step`` holds a ``stop_before`` at any depth."""
    return any(isinstance(s, StopBefore) for _, s in iter_steps((step,)))


def ends_in_guard(steps: Sequence[Step]) -> bool:
    """Whether every path through ``steps`` ends in a ``stop_before``.

    An ``if`` counts only when both branches are non-empty and each ends in one; a
    ``repeat_until`` body never counts (it may run zero times).
    """
    if not steps:
        return False
    last = steps[-1]
    if last.optional:
        return False  # an optional step may be passed over, and a guard that may is none
    if isinstance(last, StopBefore):
        return True
    if isinstance(last, If):
        return ends_in_guard(last.then) and ends_in_guard(last.else_)
    return False  # a repeat_until's body may run zero times; any other step guards nothing


def _markers_to_names(value: Any, names: frozenset[str]) -> Any:
    """``‹name›`` (how the briefing shows a fact) written back as ``${name}``."""
    if isinstance(value, str):
        for name in names:
            value = value.replace(f"‹{name}›", "${" + name + "}")
        return value
    if isinstance(value, list):
        return [_markers_to_names(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _markers_to_names(v, names) for k, v in value.items()}
    return value


def _host_allowed(host: str, hosts: frozenset[str]) -> bool:
    return any(
        host == h or (h.startswith(".") and (host == h[1:] or host.endswith(h))) for h in hosts
    )


def _browse_problems(steps: Sequence[Step], briefing: Briefing) -> list[str]:
    """Each ``browse`` of the guidance that leaves the hosts the task may go to."""
    browsed = {s.url.strip() for _, s in iter_steps(briefing.flow.steps) if isinstance(s, Browse)}
    problems: list[str] = []
    for _, step in iter_steps(steps):
        if not isinstance(step, Browse):
            continue
        url = step.url.strip()
        if url.startswith("${"):
            if url not in browsed:
                problems.append(
                    f"browse {url}: an address from a fact only where the flow itself went"
                )
            continue
        try:
            host = (urlsplit(url).hostname or "").lower()
        except ValueError:
            host = ""
        if not _host_allowed(host, briefing.hosts):
            allowed = ", ".join(sorted(briefing.hosts)) or "none"
            problems.append(
                f"browse {url}: guidance may go only to hosts the flow already used or the "
                f"task's origins ({allowed})"
            )
    return problems


def resumed(briefing: Briefing, guidance: Guidance) -> Flow:
    """The flow from the failed step on once ``guidance`` is spliced in: its steps, then
    every step after the ones it covers."""
    rest = briefing.flow.steps[briefing.failed + 1 + guidance.covers :]
    return Flow(steps=(*guidance.steps, *rest), vars=briefing.flow.vars)


def judge(answer: dict[str, Any], briefing: Briefing) -> tuple[Guidance | None, list[str]]:
    """The guidance ``answer`` gives, or None and every rule it breaks."""
    action = answer.get("action")
    reason = answer.get("reason")
    reason = reason.strip() if isinstance(reason, str) else ""
    if action not in ("retry", "skip", "give_up"):
        return None, ['"action" must be "retry", "skip" or "give_up"']
    if action == "give_up":
        return Guidance("give_up", reason or "the rescuer gave up"), []
    problems: list[str] = []
    if not reason:
        problems.append('"reason" must say in words why')
    covers = answer.get("covers", 0)
    following = briefing.flow.steps[briefing.failed + 1 :]
    if not isinstance(covers, int) or isinstance(covers, bool) or covers < 0:
        problems.append('"covers" must be a whole number from 0')
        covers = 0
    elif covers > len(following):
        problems.append(
            f'"covers" is {covers}, but only {len(following)} steps follow the failed one'
        )
        covers = 0
    for offset, step in enumerate(following[:covers]):
        if guards(step):
            problems.append(
                f"step {briefing.failed + 1 + offset} holds a stop_before and can never be "
                "covered; lower covers"
            )
    failed_step = briefing.flow.steps[briefing.failed]
    steps: tuple[Step, ...] = ()
    if action == "skip":
        if answer.get("steps"):
            problems.append('a "skip" carries no steps; answer "retry" to run steps')
        if guards(failed_step):
            problems.append(
                "the failed step holds a stop_before: it can never be skipped; "
                "answer retry with steps that end in a stop_before"
            )
    else:
        raw = answer.get("steps")
        if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_RESCUE_STEPS:
            problems.append(f'a "retry" needs 1 to {MAX_RESCUE_STEPS} steps')
        else:
            raw = _markers_to_names(raw, briefing.known)
            flow, check = validate_flow(
                {"vars": dict(briefing.flow.vars), "steps": raw}, briefing.known, briefing.secrets
            )
            if flow is None or check.problems:
                problems.extend(p.message for p in check.problems)
            else:
                steps = flow.steps
                problems.extend(_browse_problems(steps, briefing))
                if guards(failed_step) and not ends_in_guard(steps):
                    problems.append(
                        "the failed step holds a stop_before, so the steps must end in a "
                        "stop_before of their own on every path: not only inside one branch "
                        "of an if, and never only inside a repeat_until"
                    )
    if problems:
        return None, problems
    guidance = Guidance(action, reason, steps, covers)
    check = check_flow(resumed(briefing, guidance), briefing.known, briefing.secrets)
    problems.extend(p.message for p in check.problems)
    problems.extend(
        f"${{{name}}} is not a fact or a variable of the flow; use only the names given"
        for name in check.questions
    )
    if problems:
        return None, problems
    return guidance, []
