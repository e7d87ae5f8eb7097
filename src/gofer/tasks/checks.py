"""The checks a task passes before it runs, shared by the calls and the worker that
plans a task: surfaces, card entry, and the planner's brief."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from gofer.errors import InvalidFlow, InvalidRequest, invalid_request
from gofer.facts import Facts, is_card_fact, is_card_number
from gofer.facts.otp import unusable_seeds
from gofer.flow import check_flow, iter_steps, names_in
from gofer.flow.steps import Enter, Flow
from gofer.tasks import errors
from gofer.tasks.cell import Cell, step_surfaces
from gofer.tasks.contract import TaskConstraints
from gofer.tasks.seams import FlowRunner, PlanBrief, WorkspaceOptions

__all__ = [
    "brief_for",
    "check_card_entry",
    "check_seeds",
    "check_surfaces",
    "coerce",
    "facts_of",
    "invalid_flow",
    "new_task_id",
    "options_for",
    "take_inputs",
]


def new_task_id() -> str:
    """A random id, in every controller: an id names no other task and cannot be
    guessed from another."""
    return f"task-{uuid.uuid4().hex[:16]}"


def invalid_flow(check_problems: list[dict[str, Any]]) -> InvalidFlow:
    """INVALID_FLOW listing the first few problems."""
    listed = "; ".join(str(p["message"]) for p in check_problems[:5])
    return InvalidFlow(f"the flow is not valid: {listed}", problems=check_problems)


def check_seeds(facts: Facts) -> None:
    """No fact looks like an authenticator's seed that gives no codes: it would be
    typed as it is (INVALID_REQUEST naming the first such fact, never its value)."""
    for name, why in sorted(unusable_seeds(facts.as_dict()).items()):
        raise errors.seed_unusable(name, why)


def facts_of(values: Mapping[str, str], secret: Iterable[str]) -> Facts:
    """A new task's facts, checked (:func:`check_seeds`)."""
    facts = Facts(values, secret=secret)
    check_seeds(facts)
    return facts


def take_inputs(
    cell: Cell, inputs: Mapping[str, str], secret: list[str]
) -> tuple[Facts, list[str]]:
    """The task's facts with the caller's new values added, checked against its flow
    again, and the questions the flow still asks.

    Raises INVALID_FLOW when a new value turns a name into a secret used where only an
    ``enter`` value may hold one.
    """
    facts = cell.facts.merged(inputs, secret=secret)
    check_seeds(facts)
    if cell.flow is None:
        return facts, []
    check = check_flow(cell.flow, facts.names, facts.secret_names)
    if check.problems:
        raise invalid_flow([p.to_dict() for p in check.problems])
    check_card_entry(cell.flow, facts, cell.constraints)
    return facts, list(check.questions)


def options_for(runner: FlowRunner, constraints: TaskConstraints) -> WorkspaceOptions:
    """The workspace a task with ``constraints`` gets on ``runner``
    (SURFACE_UNAVAILABLE when it asks for a surface the runner cannot give)."""
    available = runner.available_surfaces()
    for surface in constraints.surfaces:
        reason = available.get(surface, "this runner has no such surface")
        if reason is not None:
            raise errors.surface_unavailable(surface, reason)
    endpoint = constraints.browser_endpoint
    if endpoint and not runner.endpoint_allowed(endpoint):
        raise errors.endpoint_refused(endpoint)
    usable = {s for s, r in available.items() if r is None}
    wanted: set[str] = set(constraints.surfaces) or usable
    return WorkspaceOptions(
        surfaces=frozenset(wanted),
        origins=tuple(constraints.origins),
        browser_endpoint=constraints.browser_endpoint,
        headed=constraints.headed,
    )


def check_surfaces(runner: FlowRunner, flow: Flow, options: WorkspaceOptions) -> None:
    """Every step's surface is one the task's workspace has (SURFACE_UNAVAILABLE)."""
    available = runner.available_surfaces()
    for surface in step_surfaces(flow, options.surfaces).values():
        if surface not in options.surfaces:
            reason = available.get(surface) or "the task's constraints leave it out"
            raise errors.surface_unavailable(surface, reason)


def brief_for(task: str, facts: Facts, options: WorkspaceOptions) -> PlanBrief:
    """The planner's brief: the task, the surfaces and the fact names (never values)."""
    return PlanBrief(
        task=task,
        surfaces=tuple(sorted(options.surfaces)),
        facts=tuple(facts.names),
        secrets=tuple(sorted(facts.secret_names)),
    )


M = TypeVar("M", bound=BaseModel)


def coerce(model: type[M], value: M | Mapping[str, Any] | None) -> M:
    """``value`` as a ``model``: a mapping is validated (INVALID_REQUEST when it does not fit)."""
    if isinstance(value, model):
        return value
    if value is not None and not isinstance(value, Mapping):
        raise InvalidRequest(f"a {model.__name__} is a JSON object, not {type(value).__name__}")
    try:
        return model.model_validate(dict(value or {}))
    except ValidationError as exc:
        raise invalid_request(exc, f"the {model.__name__} does not fit") from None


_NAME = re.compile(r"\$\{[^}]*\}")


def check_card_entry(flow: Flow, facts: Facts, constraints: TaskConstraints) -> None:
    """Card details are typed only under ``payment: fill_then_approve``, and only from
    secret facts: a card number written into the flow would show in every view
    (CARD_ENTRY_REFUSED)."""
    filling = constraints.payment == "fill_then_approve"
    for path, step in iter_steps(flow.steps):
        if not isinstance(step, Enter):
            continue
        if is_card_number(_NAME.sub("", step.value).strip()):
            raise errors.card_entry_refused("a card number written into the flow", path)
        if filling:
            continue
        for name in names_in(step.value):
            value = facts.get(name)
            if value is not None and is_card_fact(name, value):
                raise errors.card_entry_refused(name, path)
