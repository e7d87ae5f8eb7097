"""The guide, step_kinds and the JSON Schema follow the same specs as the parser."""

from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import pytest

import gofer.flow as flow_pkg
from gofer.flow import (
    EXAMPLES,
    PROBLEM_CODES,
    STEP_KINDS,
    flow_guide,
    flow_json_schema,
    parse_flow,
    step_kinds,
    validate_flow,
)
from gofer.flow.spec import CONDITION_FORMS, KIND_SPECS, MODIFIERS, STEP_OUTCOMES

GUIDE = flow_guide()
BLOCKS = re.findall(r"```json\n(.*?)\n```", GUIDE, flags=re.S)


def test_specs_follow_the_step_classes() -> None:
    assert tuple(spec.kind for spec in KIND_SPECS) == STEP_KINDS
    for spec in KIND_SPECS:
        assert spec.kind == spec.cls.KIND
        assert spec.main.key == spec.kind
        attrs = {f.attr for f in (*spec.fields, *MODIFIERS)}
        assert attrs == {f.name for f in dataclasses.fields(spec.cls)}


def test_guide_has_three_or_more_examples_that_validate() -> None:
    assert len(BLOCKS) == len(EXAMPLES) >= 3
    for block, example in zip(BLOCKS, EXAMPLES, strict=True):
        data = json.loads(block)
        assert data == example.flow
        flow, check = validate_flow(data)
        assert flow is not None and check.ok, check.problems
        flow, check = validate_flow(block, example.facts, example.secrets)
        assert flow is not None and check.ok and check.questions == (), check


def test_examples_cover_booking_list_and_secret_login() -> None:
    kinds = [
        next(iter(step))
        for ex in EXAMPLES
        for step in (ex.flow["steps"] if isinstance(ex.flow, dict) else ex.flow)
    ]
    assert {"stop_before", "repeat_until", "read", "if", "enter"} <= set(kinds)
    assert any(ex.secrets for ex in EXAMPLES)
    assert any(isinstance(ex.flow, list) for ex in EXAMPLES)
    assert any('"list": true' in block for block in BLOCKS)


def test_examples_fail_when_a_secret_is_misused() -> None:
    login = next(ex for ex in EXAMPLES if ex.secrets)
    assert isinstance(login.flow, dict)
    broken = {**login.flow, "steps": [*login.flow["steps"], {"click": "${password}"}]}
    _, check = validate_flow(broken, login.facts, login.secrets)
    assert [p.code for p in check.problems] == ["SECRET_MISPLACED"]


def test_every_kind_field_modifier_form_outcome_and_code_is_in_the_guide() -> None:
    for spec in KIND_SPECS:
        assert f"### `{spec.kind}`" in GUIDE
        assert f"| `{spec.kind}` |" in GUIDE
        assert spec.summary in GUIDE
        for field in spec.fields:
            assert f"| `{field.key}` | {field.type_label} |" in GUIDE
            assert field.description in GUIDE
        assert json.dumps(spec.example) in GUIDE
    for field in MODIFIERS:
        assert f"| `{field.key}` |" in GUIDE
    for form in CONDITION_FORMS:
        assert json.dumps(form.example) in GUIDE
    for name, _ in STEP_OUTCOMES:
        assert f"`{name}`" in GUIDE
    for code in PROBLEM_CODES:
        assert f"`{code}`" in GUIDE
    for limit in ("200", "8 levels", "from 1 to 50", "120000"):
        assert limit in GUIDE


@pytest.mark.parametrize("spec", KIND_SPECS, ids=lambda s: s.kind)
def test_each_kind_example_parses(spec: Any) -> None:
    flow = parse_flow([spec.example])
    assert type(flow.steps[0]) is spec.cls


def test_step_kinds_for_describe() -> None:
    kinds = step_kinds()
    assert [k["name"] for k in kinds] == list(STEP_KINDS)
    enter = next(k for k in kinds if k["name"] == "enter")
    assert enter["fields"][0] == {
        "name": "enter",
        "type": "text",
        "required": True,
        "description": "the text to type; the only place a secret fact may appear",
    }
    repeat = next(k for k in kinds if k["name"] == "repeat_until")
    assert {
        "name": "max",
        "type": "integer 1..50",
        "required": False,
        "description": "rounds at most",
        "default": 10,
    } in repeat["fields"]
    json.dumps(kinds)


def test_package_exports() -> None:
    for name in flow_pkg.__all__:
        assert hasattr(flow_pkg, name), name
    for name in (
        "Problem",
        "FlowCheck",
        "parse_flow",
        "check_flow",
        "validate_flow",
        "flow_to_json",
        "iter_steps",
        "step_at",
        "names_in",
        "substitute",
        "names_in_step",
        "flow_guide",
        "step_kinds",
        "flow_json_schema",
        "Condition",
        "JSONValue",
        "CONTRACT_VERSION",
        "REPEAT_MAX",
        "MAX_STEPS",
    ):
        assert name in flow_pkg.__all__


# ---------------------------------------------------------------- JSON Schema

SCHEMA = flow_json_schema()


def conforms(value: Any, schema: dict[str, Any]) -> bool:
    """A small validator for the keywords the flow schema uses."""
    if "$ref" in schema:
        target = SCHEMA
        for part in schema["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        return conforms(value, target)
    if "oneOf" in schema:
        return sum(conforms(value, s) for s in schema["oneOf"]) == 1
    if "anyOf" in schema and not any(conforms(value, s) for s in schema["anyOf"]):
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    kind = schema.get("type")
    checks = {
        "string": lambda v: isinstance(v, str),
        "boolean": lambda v: isinstance(v, bool),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "array": lambda v: isinstance(v, list),
        "object": lambda v: isinstance(v, dict),
    }
    if kind is not None and not checks[kind](value):
        return False
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            return False
        if len(value) > schema.get("maxLength", len(value)):
            return False
    if (
        isinstance(value, int)
        and not isinstance(value, bool)
        and not (schema.get("minimum", value) <= value <= schema.get("maximum", value))
    ):
        return False
    if isinstance(value, list):
        if not schema.get("minItems", 0) <= len(value) <= schema.get("maxItems", len(value)):
            return False
        if "items" in schema and not all(conforms(v, schema["items"]) for v in value):
            return False
    if isinstance(value, dict):
        props = schema.get("properties", {})
        if any(key not in value for key in schema.get("required", [])):
            return False
        if schema.get("additionalProperties") is False and set(value) - set(props):
            return False
        if not all(conforms(v, props[k]) for k, v in value.items() if k in props):
            return False
        names = schema.get("propertyNames")
        if names and not all(conforms(k, names) for k in value):
            return False
    return True


def test_schema_is_json_and_names_every_kind() -> None:
    json.dumps(SCHEMA)
    assert SCHEMA["$schema"].startswith("https://json-schema.org/")
    for spec in KIND_SPECS:
        step = SCHEMA["$defs"][f"step_{spec.kind}"]
        assert set(step["properties"]) == {f.key for f in (*spec.fields, *MODIFIERS)}
        assert step["required"] == [f.key for f in spec.fields if f.required]


def test_schema_accepts_every_example() -> None:
    for example in EXAMPLES:
        assert conforms(example.flow, SCHEMA), example.title
    for spec in KIND_SPECS:
        assert conforms([spec.example], SCHEMA), spec.kind


@pytest.mark.parametrize(
    "data",
    [
        [],
        [{"click": ""}],
        [{"click": "a", "press": "b"}],
        [{"navigate": "x"}],
        [{"enter": "x"}],
        [{"browse": "ftp://x"}],
        [{"repeat_until": "x", "do": [], "max": 51}],
        [{"wait": {"shows": "a", "not_shows": "b"}}],
        [{"read": "x", "as": "a.b"}],
        [{"click": "a", "surface": "tv"}],
        {"steps": [{"click": "a"}], "extra": 1},
        {"vars": {"a/b": 1}, "steps": [{"click": "a"}]},
    ],
)
def test_schema_rejects_what_the_parser_rejects(data: Any) -> None:
    assert not conforms(data, SCHEMA)
    flow, _ = validate_flow(data)
    assert flow is None
