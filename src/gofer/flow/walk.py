"""Walking a flow: step paths, finding a step by path, and the names each step uses."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gofer.errors import InvalidRequest
from gofer.flow.names import names_in
from gofer.flow.spec import MODIFIERS, STRING_TYPES, FieldSpec, FieldType, kind_spec
from gofer.flow.steps import (
    AllOf,
    AnyOf,
    Condition,
    Flow,
    If,
    Judged,
    NotShows,
    RepeatUntil,
    Shows,
    Step,
    VarEmpty,
    VarEquals,
)

__all__ = [
    "child_lists",
    "condition_names",
    "depth_of",
    "iter_steps",
    "names_in_step",
    "step_at",
    "step_number",
]


def child_lists(step: Step) -> list[tuple[str, tuple[Step, ...]]]:
    """The nested step lists of ``step`` with their JSON keys, in order."""
    if isinstance(step, If):
        return [("then", step.then), ("else", step.else_)]
    if isinstance(step, RepeatUntil):
        return [("do", step.do)]
    return []


def iter_steps(steps: Sequence[Step], prefix: str = "") -> Iterator[tuple[str, Step]]:
    """Every step depth-first with its path: ``"3"``, ``"5.then.1"``, ``"7.do.2"``."""
    for index, step in enumerate(steps):
        path = f"{prefix}.{index}" if prefix else str(index)
        yield path, step
        for key, children in child_lists(step):
            yield from iter_steps(children, f"{path}.{key}")


def depth_of(path: str) -> int:
    """How deep the step at ``path`` is nested: top-level steps are at depth 1."""
    return (path.count(".") + 2) // 2


def step_at(flow: Flow, path: str) -> Step:
    """The step at ``path``; raises :class:`~gofer.errors.InvalidRequest` if there is none."""
    parts = path.split(".")
    steps: Sequence[Step] = flow.steps
    step: Step | None = None
    for at in range(0, len(parts), 2):
        index = parts[at]
        if not index.isdigit() or int(index) >= len(steps):
            break
        step = steps[int(index)]
        if at + 1 == len(parts):
            return step
        wanted = dict(child_lists(step)).get(parts[at + 1])
        if wanted is None:
            break
        steps = wanted
    raise InvalidRequest(f"the flow has no step at {path!r}", path=path)


def condition_names(condition: Condition) -> list[str]:
    """The names a condition uses: ``${name}`` in its texts and the variables it tests."""
    if isinstance(condition, Judged | Shows | NotShows):
        return names_in(condition.text)
    if isinstance(condition, VarEquals):
        return [condition.var, *names_in(condition.value)]
    if isinstance(condition, VarEmpty):
        return [condition.var]
    found: list[str] = []
    for item in condition.items:
        found.extend(condition_names(item))
    return found


def _field_names(spec: FieldSpec, value: object) -> list[str]:
    if spec.type in STRING_TYPES and isinstance(value, str):
        return names_in(value)
    if spec.type is FieldType.CONDITION and isinstance(
        value, AllOf | AnyOf | Judged | Shows | NotShows | VarEquals | VarEmpty
    ):
        return condition_names(value)
    return []


def names_in_step(step: Step) -> list[tuple[str, str]]:
    """``(name, where)`` for each name the step itself uses (not its nested steps).

    ``where`` is the JSON key the name appears under: ``"enter"`` for an enter step's
    value, ``"into"``, ``"if"`` for a condition, ``"intent"``... A ``read`` step's
    ``as`` defines a variable and is not listed. Each (name, where) appears once.
    """
    spec = kind_spec(getattr(step, "KIND", ""))
    found: dict[tuple[str, str], None] = {}
    fields = (*(spec.fields if spec else ()), *MODIFIERS)
    for field in fields:
        for name in _field_names(field, getattr(step, field.attr, None)):
            found.setdefault((name, field.key), None)
    return list(found)


def step_number(path: str) -> str:
    """A step's path as a person counts steps, from 1: ``"0"`` is ``"1"``, the second
    step inside step 6's branch (``"5.then.1"``) is ``"6.2"``."""
    return ".".join(str(int(p) + 1) for p in path.split(".") if p.isdigit()) or path
