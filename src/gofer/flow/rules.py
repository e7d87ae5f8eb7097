"""Rules on typed values, shared by the parser and :func:`gofer.flow.check_flow`.

The parser checks JSON shapes (kinds, keys, types); these rules check what the
values say (blank words, names, ranges, addresses), so a flow built in code
is held to the same contract as one parsed from JSON.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from gofer.flow.names import bad_reference_problems, is_valid_name
from gofer.flow.problems import Problem, ProblemCode, where
from gofer.flow.spec import (
    MODIFIERS,
    STRING_TYPES,
    SURFACES,
    FieldSpec,
    FieldType,
    kind_spec,
)
from gofer.flow.steps import (
    MAX_DEPTH,
    MAX_STEPS,
    AllOf,
    AnyOf,
    Condition,
    Flow,
    Judged,
    NotShows,
    Shows,
    VarEmpty,
    VarEquals,
)
from gofer.flow.walk import depth_of, iter_steps
from gofer.naming import NAME_RULE

__all__ = [
    "address_problem",
    "condition_problems",
    "field_problems",
    "flow_rule_problems",
    "name_problem",
]

_BLANK_CODES = {
    FieldType.TARGET: ProblemCode.EMPTY_TARGET,
    FieldType.WORDS: ProblemCode.EMPTY_TARGET,
    FieldType.KEY: ProblemCode.BAD_KEY,
}


def address_problem(url: str, path: str, field: str) -> Problem | None:
    """``BAD_ADDRESS`` unless ``url`` is http(s) or starts with a ``${name}`` holding one."""
    text = url.strip()
    if text.startswith("${"):
        return None
    try:
        parts = urlsplit(text)
    except ValueError:  # a malformed host ("http://[x"): not an address
        parts = None
    if parts is not None and parts.scheme.lower() in ("http", "https") and parts.netloc:
        return None
    shown = repr(url) if text else "a blank address"
    return Problem(
        ProblemCode.BAD_ADDRESS,
        path,
        f"{where(path)}: `{field}` needs an http:// or https:// address, not {shown}",
        field,
    )


def name_problem(name: str, path: str, field: str) -> Problem | None:
    """``BAD_VAR_NAME`` unless ``name`` is a valid variable name."""
    if is_valid_name(name):
        return None
    return Problem(
        ProblemCode.BAD_VAR_NAME,
        path,
        f"{where(path)}: `{field}` {name!r} is not a valid variable name: use {NAME_RULE}",
        field,
    )


def _text_problems(text: str, path: str, field: str) -> list[Problem]:
    return [
        Problem(p.code, path, f"{where(path)}: {p.message}", field)
        for p in bad_reference_problems(text, path, field)
    ]


def condition_problems(
    condition: Condition, path: str, field: str, level: int = 1
) -> list[Problem]:
    """What is wrong with the values of a (typed) condition."""
    if level > MAX_DEPTH:
        return [
            Problem(
                ProblemCode.BAD_CONDITION,
                path,
                f"{where(path)}: `{field}` nests conditions more than {MAX_DEPTH} deep",
                field,
            )
        ]
    if isinstance(condition, Judged | Shows | NotShows):
        if not condition.text.strip():
            form = "words" if isinstance(condition, Judged) else "text"
            return [
                Problem(
                    ProblemCode.BAD_CONDITION,
                    path,
                    f"{where(path)}: `{field}` has blank condition {form}",
                    field,
                )
            ]
        return _text_problems(condition.text, path, field)
    if isinstance(condition, VarEquals | VarEmpty):
        problems = [p for p in [name_problem(condition.var, path, field)] if p]
        if isinstance(condition, VarEquals):
            problems += _text_problems(condition.value, path, field)
        return problems
    if isinstance(condition, AllOf | AnyOf):
        if not condition.items:
            form = "all" if isinstance(condition, AllOf) else "any"
            return [
                Problem(
                    ProblemCode.BAD_CONDITION,
                    path,
                    f"{where(path)}: `{field}` has an empty `{form}` list",
                    field,
                )
            ]
        problems = []
        for item in condition.items:
            problems += condition_problems(item, path, field, level + 1)
        return problems
    return [
        Problem(
            ProblemCode.BAD_CONDITION, path, f"{where(path)}: `{field}` is not a condition", field
        )
    ]


def field_problems(spec: FieldSpec, value: object, path: str) -> list[Problem]:
    """What is wrong with the (correctly typed) value of one field."""
    key = spec.key
    if spec.type in STRING_TYPES and isinstance(value, str):
        problems = _text_problems(value, path, key)
        code = _BLANK_CODES.get(spec.type)
        if code is not None and not value.strip():
            what = "a key name" if spec.type is FieldType.KEY else str(spec.type)
            problems.insert(
                0, Problem(code, path, f"{where(path)}: `{key}` needs {what}, not blank text", key)
            )
        if spec.type is FieldType.ADDRESS:
            bad = address_problem(value, path, key)
            if bad:
                problems.insert(0, bad)
        return problems
    if spec.type is FieldType.NAME and isinstance(value, str):
        return [p for p in [name_problem(value, path, key)] if p]
    if spec.type is FieldType.INT and isinstance(value, int) and spec.range_code:
        low, high = spec.minimum, spec.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            return [
                Problem(
                    spec.range_code,
                    path,
                    f"{where(path)}: `{key}` must be from {low} to {high}, not {value}",
                    key,
                )
            ]
        return []
    if spec.type is FieldType.SURFACE and value is not None and value not in SURFACES:
        return [
            Problem(
                ProblemCode.BAD_SURFACE,
                path,
                f'{where(path)}: `surface` must be "browser" or "desktop", not {value!r}',
                key,
            )
        ]
    if spec.type is FieldType.CONDITION and isinstance(
        value, Judged | Shows | NotShows | VarEquals | VarEmpty | AllOf | AnyOf
    ):
        return condition_problems(value, path, key)
    return []


def flow_rule_problems(flow: Flow) -> list[Problem]:
    """Every rule problem of a typed flow (one built in code, or parsed)."""
    problems: list[Problem] = []
    for name in flow.vars:
        bad = name_problem(name, "", "vars") if isinstance(name, str) else None
        if bad:
            problems.append(bad)
    if not flow.steps:
        problems.append(Problem(ProblemCode.EMPTY_FLOW, "", "the flow has no steps", "steps"))
    count = 0
    for path, step in iter_steps(flow.steps):
        count += 1
        spec = kind_spec(getattr(step, "KIND", ""))
        if spec is None or not isinstance(step, spec.cls):
            problems.append(
                Problem(
                    ProblemCode.UNKNOWN_KIND,
                    path,
                    f"{where(path)}: {type(step).__name__} is not a step kind",
                )
            )
            continue
        if depth_of(path) > MAX_DEPTH:
            problems.append(
                Problem(
                    ProblemCode.TOO_DEEP,
                    path,
                    f"{where(path)} is nested deeper than {MAX_DEPTH} levels",
                )
            )
        for field in (*spec.fields, *MODIFIERS):
            problems += field_problems(field, getattr(step, field.attr), path)
    if count > MAX_STEPS:
        problems.append(
            Problem(
                ProblemCode.TOO_MANY_STEPS,
                "",
                f"the flow has {count} steps; at most {MAX_STEPS}",
                "steps",
            )
        )
    return problems
