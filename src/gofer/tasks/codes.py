"""Past a one-time-code wall with no person: when a run stops in front of a page
asking for a one-time code and the task holds an authenticator's seed (a secret fact
that is a code source), the task types the code of the moment into the page's code
field and goes on with the step that stopped; the step is kept in the task's flow
(so the flow saved from it types the code too). With no such fact, the wall waits
for a person as before."""

from __future__ import annotations

from dataclasses import replace

from gofer.facts.otp import code_sources
from gofer.flow.steps import Enter, Flow
from gofer.runtime.types import RunResult
from gofer.safety.walls import ONE_TIME_CODE, TWO_FACTOR
from gofer.tasks.cell import Cell, Segment
from gofer.tasks.contract import NeedsHuman
from gofer.tasks.interpret import Outcome

__all__ = ["CODE_FIELD", "past_code_wall"]

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
