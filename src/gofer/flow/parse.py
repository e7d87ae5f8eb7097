"""Parsing a flow from JSON, and writing one back.

:func:`parse_flow` reads every step and reports every problem it finds at once;
it never stops at the first one.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from gofer.errors import InvalidFlow
from gofer.flow.problems import Problem, ProblemCode, where
from gofer.flow.rules import field_problems, flow_rule_problems, name_problem
from gofer.flow.spec import (
    CONDITION_FORMS,
    KIND_SPECS,
    MODIFIERS,
    FieldSpec,
    FieldType,
    KindSpec,
    kind_spec,
)
from gofer.flow.steps import (
    MAX_DEPTH,
    MAX_STEPS,
    STEP_KINDS,
    AllOf,
    AnyOf,
    Condition,
    Flow,
    JSONValue,
    Judged,
    NotShows,
    Shows,
    Step,
    VarEmpty,
    VarEquals,
)
from gofer.flow.walk import child_lists, iter_steps

__all__ = ["Parsed", "flow_to_json", "parse_flow", "read_flow"]

_MODIFIER_KEYS = frozenset(m.key for m in MODIFIERS)
_FIELD_KEYS = frozenset(f.key for spec in KIND_SPECS for f in spec.fields)
_TOP_KEYS = ("vars", "steps")
_JSON_TYPES = {
    FieldType.BOOL: "true or false",
    FieldType.INT: "a whole number",
    FieldType.STEPS: "a list of steps",
}


@dataclass(slots=True)
class Parsed:
    """What reading a flow gave: the flow (if it parsed), every problem, and the
    steps that did parse, with their paths, for checks that can run on a part."""

    flow: Flow | None
    problems: list[Problem]
    vars: dict[str, JSONValue]
    fragments: list[tuple[str, Step]] = field(default_factory=list)


def _suggest(word: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean `{close[0]}`?)" if close else ""


def _is_json(value: object, level: int = 0) -> bool:
    if level > 64:
        return False
    if value is None or isinstance(value, str | bool | int):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_is_json(item, level + 1) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_json(v, level + 1) for k, v in value.items())
    return False


class _Reader:
    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.fragments: list[tuple[int, str, Step]] = []
        self.count = 0
        self.seen = 0

    def add(self, code: str, path: str, message: str, field: str | None = None) -> None:
        self.problems.append(Problem(code, path, message, field))

    # ------------------------------------------------------------ top level

    def top(self, data: Any) -> tuple[Flow | None, dict[str, JSONValue]]:
        if isinstance(data, str | bytes | bytearray):
            try:
                data = json.loads(data, parse_constant=_reject_constant)
            except ValueError as exc:
                self.add(ProblemCode.NOT_A_FLOW, "", f"the flow is not valid JSON: {exc}")
                return None, {}
            except RecursionError:
                self.add(ProblemCode.NOT_A_FLOW, "", "the flow's JSON is nested too deeply")
                return None, {}
        if isinstance(data, list):
            data = {"steps": data}
        if not isinstance(data, Mapping):
            self.add(
                ProblemCode.NOT_A_FLOW,
                "",
                'a flow is a JSON object {"vars": {...}, "steps": [...]} or a list '
                f"of steps, not {_json_type(data)}",
            )
            return None, {}
        for key in data:
            if key not in _TOP_KEYS:
                self.add(
                    ProblemCode.UNKNOWN_FIELD,
                    "",
                    f"the flow has an unknown key {key!r}; it holds only `vars` and "
                    f"`steps`{_suggest(str(key), _TOP_KEYS)}",
                    str(key),
                )
        flow_vars = self.vars(data.get("vars", {}))
        if "steps" not in data:
            self.add(
                ProblemCode.MISSING_FIELD, "", "the flow needs `steps`: a list of steps", "steps"
            )
            return None, flow_vars
        raw_steps = data["steps"]
        if not isinstance(raw_steps, list):
            self.add(
                ProblemCode.WRONG_TYPE,
                "",
                f"`steps` must be a list of steps, not {_json_type(raw_steps)}",
                "steps",
            )
            return None, flow_vars
        if not raw_steps:
            self.add(ProblemCode.EMPTY_FLOW, "", "the flow has no steps", "steps")
        steps = self.steps(raw_steps, "", 1)
        if self.count > MAX_STEPS:
            self.add(
                ProblemCode.TOO_MANY_STEPS,
                "",
                f"the flow has {self.count} steps counting nested ones; at most {MAX_STEPS}",
                "steps",
            )
        if steps is None or self.problems:
            return None, flow_vars
        return Flow(steps=steps, vars=flow_vars), flow_vars

    def vars(self, raw: Any) -> dict[str, JSONValue]:
        if raw is None:
            return {}
        if not isinstance(raw, Mapping):
            self.add(
                ProblemCode.WRONG_TYPE,
                "",
                f"`vars` must be an object of names to starting values, not {_json_type(raw)}",
                "vars",
            )
            return {}
        good: dict[str, JSONValue] = {}
        for name, value in raw.items():
            if not isinstance(name, str):
                self.add(
                    ProblemCode.BAD_VAR_NAME, "", f"`vars` names must be text, not {name!r}", "vars"
                )
                continue
            bad = name_problem(name, "", "vars")
            if bad:
                self.problems.append(bad)
            elif not _is_json(value):
                self.add(
                    ProblemCode.WRONG_TYPE,
                    "",
                    f"`vars` {name!r} must hold a JSON value, not {type(value).__name__}",
                    "vars",
                )
            else:
                good[name] = cast(JSONValue, value)
        return good

    # ------------------------------------------------------------ steps

    def steps(self, raw: list[Any], prefix: str, depth: int) -> tuple[Step, ...] | None:
        self.count += len(raw)
        if depth > MAX_DEPTH and raw:
            path = f"{prefix}.0"
            self.add(
                ProblemCode.TOO_DEEP,
                path,
                f"{where(path)} is nested {depth} levels deep; steps nest at most "
                f"{MAX_DEPTH} levels",
            )
            return None
        built: list[Step] = []
        ok = True
        for index, item in enumerate(raw):
            path = f"{prefix}.{index}" if prefix else str(index)
            step = self.step(item, path, depth)
            if step is None:
                ok = False
            else:
                built.append(step)
        return tuple(built) if ok else None

    def step(self, raw: Any, path: str, depth: int) -> Step | None:
        order = self.seen
        self.seen += 1
        if not isinstance(raw, Mapping):
            self.add(
                ProblemCode.WRONG_TYPE,
                path,
                f"{where(path)} must be an object with one kind key, such as "
                f'{{"click": "Search"}}, not {_json_type(raw)}',
            )
            return None
        spec = self.kind(raw, path)
        if spec is None:
            return None
        before = len(self.problems)
        allowed = {f.key for f in spec.fields} | _MODIFIER_KEYS
        for key in raw:
            if key not in allowed:
                self.add(
                    ProblemCode.UNKNOWN_FIELD,
                    path,
                    f"{where(path)}: `{spec.kind}` has no field {str(key)!r}"
                    f"{_suggest(str(key), sorted(allowed))}",
                    str(key),
                )
        values: dict[str, Any] = {}
        for fs in (*spec.fields, *MODIFIERS):
            if fs.key not in raw or (raw[fs.key] is None and not fs.required):
                if fs.required:
                    self.add(
                        ProblemCode.MISSING_FIELD,
                        path,
                        f"{where(path)}: `{spec.kind}` needs `{fs.key}` "
                        f"({fs.type_label}: {fs.description})",
                        fs.key,
                    )
                continue
            value, good = self.value(fs, raw[fs.key], path, depth)
            if good:
                values[fs.attr] = value
        if len(self.problems) > before:
            return None
        step = cast(Step, spec.cls(**values))
        self.fragments.append((order, path, step))
        return step

    def kind(self, raw: Mapping[Any, Any], path: str) -> KindSpec | None:
        found = [k for k in raw if k in STEP_KINDS]
        if len(found) > 1:
            owners = [
                k
                for k in found
                if not any(
                    (spec := kind_spec(other)) and spec.field(k) for other in found if other != k
                )
            ]
            found = owners
        if len(found) > 1:
            listed = ", ".join(f"`{k}`" for k in found)
            self.add(
                ProblemCode.MULTIPLE_KINDS,
                path,
                f"{where(path)} has {len(found)} kind keys ({listed}); split it into one "
                "step per kind",
                found[1],
            )
            return None
        if found:
            return kind_spec(found[0])
        unknown = [str(k) for k in raw if k not in _FIELD_KEYS and k not in _MODIFIER_KEYS]
        if unknown:
            key = unknown[0]
            self.add(
                ProblemCode.UNKNOWN_KIND,
                path,
                f"{where(path)}: {key!r} is not a step kind{_suggest(key, STEP_KINDS)}; "
                f"the kinds are {', '.join(STEP_KINDS)}",
                key,
            )
        else:
            self.add(
                ProblemCode.NO_KIND,
                path,
                f"{where(path)} has no kind key; start it with one of {', '.join(STEP_KINDS)}",
            )
        return None

    def value(self, fs: FieldSpec, raw: Any, path: str, depth: int) -> tuple[Any, bool]:
        before = len(self.problems)
        value: Any = raw
        if fs.type is FieldType.CONDITION:
            value = self.condition(raw, path, fs.key, 1)
            if value is None:
                return None, False
        elif fs.type is FieldType.STEPS:
            if not isinstance(raw, list):
                self._wrong(fs, raw, path)
                return None, False
            value = self.steps(raw, f"{path}.{fs.key}", depth + 1)
            if value is None:
                return None, False
        elif fs.type is FieldType.BOOL:
            if not isinstance(raw, bool):
                self._wrong(fs, raw, path)
        elif fs.type is FieldType.INT:
            if not isinstance(raw, int) or isinstance(raw, bool):
                self._wrong(fs, raw, path)
        elif not isinstance(raw, str):
            self._wrong(fs, raw, path)
        if len(self.problems) > before:
            return None, False
        self.problems += field_problems(fs, value, path)
        return value, len(self.problems) == before

    def _wrong(self, fs: FieldSpec, raw: Any, path: str) -> None:
        wanted = _JSON_TYPES.get(fs.type, "text")
        self.add(
            ProblemCode.WRONG_TYPE,
            path,
            f"{where(path)}: `{fs.key}` must be {wanted}, not {_json_type(raw)}",
            fs.key,
        )

    # ------------------------------------------------------------ conditions

    def condition(self, raw: Any, path: str, key: str, level: int) -> Condition | None:
        if level > MAX_DEPTH:
            self.add(
                ProblemCode.BAD_CONDITION,
                path,
                f"{where(path)}: `{key}` nests conditions more than {MAX_DEPTH} deep",
                key,
            )
            return None
        if isinstance(raw, str):
            return Judged(raw)
        if not isinstance(raw, Mapping):
            self._bad_condition(path, key, f"not {_json_type(raw)}")
            return None
        keys = set(raw)
        form = next((f for f in CONDITION_FORMS if f.keys and set(f.keys) == keys), None)
        if form is None:
            shown = ", ".join(sorted(f"`{k}`" for k in keys)) or "no keys"
            self._bad_condition(path, key, f"an object with {shown}")
            return None
        if keys in ({"all"}, {"any"}):
            items_raw = raw["all"] if "all" in keys else raw["any"]
            if not isinstance(items_raw, list):
                self._bad_condition(path, key, f"`{form.keys[0]}` must be a list of conditions")
                return None
            items = [self.condition(item, path, key, level + 1) for item in items_raw]
            if any(item is None for item in items):
                return None
            kept = tuple(cast(list[Condition], items))
            return AllOf(kept) if "all" in keys else AnyOf(kept)
        if "var" in keys:
            var, other = raw["var"], form.keys[1]
            wanted: type[Any] = str if other == "equals" else bool
            if not isinstance(var, str) or not isinstance(raw[other], wanted):
                kind = "text" if other == "equals" else "true or false"
                self._bad_condition(
                    path, key, f"`var` must name a variable and `{other}` must be {kind}"
                )
                return None
            if other == "equals":
                return VarEquals(var, raw["equals"])
            return VarEmpty(var, raw["empty"])
        text = raw[form.keys[0]]
        if not isinstance(text, str):
            self._bad_condition(path, key, f"`{form.keys[0]}` must be text")
            return None
        return Shows(text) if form.keys == ("shows",) else NotShows(text)

    def _bad_condition(self, path: str, key: str, what: str) -> None:
        forms = (
            'words, {"shows"}, {"not_shows"}, {"var", "equals"}, '
            '{"var", "empty"}, {"all"} or {"any"}'
        )
        self.add(
            ProblemCode.BAD_CONDITION,
            path,
            f"{where(path)}: `{key}` must be a condition ({forms}); got {what}",
            key,
        )


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not JSON")


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def read_flow(data: Any) -> Parsed:
    """Read ``data`` as a flow without raising: the flow if it parsed, and every problem."""
    if isinstance(data, Flow):
        problems = flow_rule_problems(data)
        return Parsed(
            None if problems else data, problems, dict(data.vars), list(iter_steps(data.steps))
        )
    reader = _Reader()
    flow, flow_vars = reader.top(data)
    fragments = [(path, step) for _, path, step in sorted(reader.fragments, key=lambda f: f[0])]
    return Parsed(flow, reader.problems, flow_vars, fragments)


def parse_flow(data: Any) -> Flow:
    """Parse a flow: a ``{"vars", "steps"}`` object, a bare list of steps, or JSON text.

    Raises :class:`~gofer.errors.InvalidFlow` whose ``details["problems"]`` lists every
    problem found (see :mod:`gofer.flow.problems` for the codes).
    """
    parsed = read_flow(data)
    if parsed.flow is None:
        raise invalid_flow(parsed.problems)
    return parsed.flow


def invalid_flow(problems: Sequence[Problem]) -> InvalidFlow:
    """The error for a flow with ``problems``."""
    count = len(problems)
    first = problems[0].message if problems else "the flow is invalid"
    more = f" (and {count - 1} more)" if count > 1 else ""
    return InvalidFlow(f"{first}{more}", problems=[p.to_dict() for p in problems])


# ---------------------------------------------------------------- writing


def condition_to_json(condition: Condition) -> JSONValue:
    """A condition in its JSON form."""
    if isinstance(condition, Judged):
        return condition.text
    if isinstance(condition, Shows):
        return {"shows": condition.text}
    if isinstance(condition, NotShows):
        return {"not_shows": condition.text}
    if isinstance(condition, VarEquals):
        return {"var": condition.var, "equals": condition.value}
    if isinstance(condition, VarEmpty):
        return {"var": condition.var, "empty": condition.empty}
    key = "all" if isinstance(condition, AllOf) else "any"
    return {key: [condition_to_json(item) for item in condition.items]}


def step_to_json(step: Step) -> dict[str, JSONValue]:
    """One step in its JSON form; optional fields at their defaults are left out."""
    spec = kind_spec(getattr(step, "KIND", ""))
    if spec is None:
        raise InvalidFlow(f"{type(step).__name__} is not a step kind")
    out: dict[str, JSONValue] = {}
    children = dict(child_lists(step))
    for fs in (*spec.fields, *MODIFIERS):
        value = getattr(step, fs.attr)
        if not fs.required and value == fs.default:
            continue
        if fs.type is FieldType.CONDITION:
            out[fs.key] = condition_to_json(value)
        elif fs.type is FieldType.STEPS:
            out[fs.key] = [step_to_json(child) for child in children[fs.key]]
        else:
            out[fs.key] = value
    return out


def flow_to_json(flow: Flow) -> dict[str, Any]:
    """The flow in its JSON contract form: ``{"vars": {...}, "steps": [...]}``."""
    out: dict[str, Any] = {}
    if flow.vars:
        out["vars"] = dict(flow.vars)
    out["steps"] = [step_to_json(step) for step in flow.steps]
    return out
