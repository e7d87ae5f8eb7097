"""Parsing flows from JSON: shapes accepted, every problem code, round trips."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gofer.errors import InvalidFlow
from gofer.flow import (
    MAX_DEPTH,
    REPEAT_DEFAULT,
    AllOf,
    AnyOf,
    Browse,
    Choose,
    Click,
    Enter,
    Flow,
    If,
    Judged,
    NotShows,
    ProblemCode,
    Read,
    RepeatUntil,
    Shows,
    StopBefore,
    VarEmpty,
    VarEquals,
    Wait,
    flow_to_json,
    parse_flow,
    validate_flow,
)

BOOKING: dict[str, Any] = {
    "vars": {"cheapest": ""},
    "steps": [
        {"browse": "http://127.0.0.1:8765/"},
        {"choose": "Delhi", "in": "From"},
        {"click": "Search flights"},
        {"read": "the first result: airline and price", "as": "cheapest"},
        {"click": "Select", "within": "the first result"},
        {"enter": "${first name}", "into": "First name", "submit": True},
        {"if": {"shows": "Add extras"}, "then": [{"click": "No thanks"}]},
        {"stop_before": "paying for the booking"},
    ],
}


def problems_of(data: Any) -> list[dict[str, Any]]:
    with pytest.raises(InvalidFlow) as caught:
        parse_flow(data)
    assert caught.value.code == "INVALID_FLOW"
    problems: list[dict[str, Any]] = caught.value.details["problems"]
    return problems


def only(data: Any) -> dict[str, Any]:
    problems = problems_of(data)
    assert len(problems) == 1, problems
    return problems[0]


def test_parses_the_contract_example_into_typed_steps() -> None:
    flow = parse_flow(BOOKING)
    assert flow.vars == {"cheapest": ""}
    assert flow.steps[0] == Browse(url="http://127.0.0.1:8765/")
    assert flow.steps[1] == Choose(option="Delhi", in_="From")
    assert flow.steps[3] == Read(what="the first result: airline and price", as_="cheapest")
    assert flow.steps[4] == Click(target="Select", within="the first result")
    assert flow.steps[5] == Enter(value="${first name}", into="First name", submit=True)
    assert flow.steps[6] == If(condition=Shows("Add extras"), then=(Click(target="No thanks"),))
    assert flow.steps[7] == StopBefore(action="paying for the booking")


def test_bare_list_and_json_text_are_flows() -> None:
    steps = BOOKING["steps"]
    assert parse_flow(steps) == Flow(steps=parse_flow(BOOKING).steps)
    assert parse_flow(json.dumps(BOOKING)) == parse_flow(BOOKING)
    assert parse_flow(json.dumps(steps).encode()).steps == parse_flow(BOOKING).steps


def test_conditions_in_every_form() -> None:
    flow = parse_flow(
        [
            {"verify": "the basket is not empty"},
            {"wait": {"not_shows": "Loading"}, "timeout_ms": 500},
            {
                "repeat_until": {
                    "all": [
                        {"var": "x", "equals": "1"},
                        {"any": [{"var": "y", "empty": False}, {"shows": "Done"}]},
                    ]
                },
                "do": [{"press": "ArrowDown"}],
            },
        ]
    )
    assert flow.steps[0].condition == Judged("the basket is not empty")  # type: ignore[union-attr]
    assert flow.steps[1] == Wait(condition=NotShows("Loading"), timeout_ms=500)
    repeat = flow.steps[2]
    assert isinstance(repeat, RepeatUntil)
    assert repeat.max == REPEAT_DEFAULT
    assert repeat.condition == AllOf(
        (VarEquals("x", "1"), AnyOf((VarEmpty("y", False), Shows("Done"))))
    )


def test_modifiers_and_null_optional_fields() -> None:
    flow = parse_flow(
        [
            {
                "click": "OK",
                "within": None,
                "intent": "close it",
                "optional": True,
                "surface": "desktop",
            }
        ]
    )
    assert flow.steps[0] == Click(target="OK", intent="close it", optional=True, surface="desktop")


def test_repeat_until_with_do_field_is_one_kind() -> None:
    flow = parse_flow([{"repeat_until": {"shows": "End"}, "do": [{"do": "scroll"}], "max": 50}])
    step = flow.steps[0]
    assert isinstance(step, RepeatUntil) and step.max == 50


@pytest.mark.parametrize(
    "data",
    [
        BOOKING,
        {
            "steps": [
                {"wait": "x", "timeout_ms": 1, "optional": True, "intent": "", "surface": "browser"}
            ]
        },
        [
            {
                "if": {"any": [{"var": "a b", "equals": ""}]},
                "then": [],
                "else": [{"repeat_until": {"not_shows": "x"}, "do": [{"press": "Tab"}], "max": 3}],
            }
        ],
        [{"read": "rows", "as": "rows", "list": True}, {"open": "Notes", "surface": "desktop"}],
    ],
)
def test_round_trip(data: Any) -> None:
    flow = parse_flow(data)
    again = flow_to_json(flow)
    assert parse_flow(again) == flow
    assert parse_flow(json.loads(json.dumps(again))) == flow


def test_flow_to_json_leaves_out_defaults() -> None:
    flow = parse_flow([{"enter": "a", "into": "b", "submit": False, "optional": False}])
    assert flow_to_json(flow) == {"steps": [{"enter": "a", "into": "b"}]}


# ---------------------------------------------------------------- every code


def nest(levels: int) -> dict[str, Any]:
    step: dict[str, Any] = {"click": "deep"}
    for _ in range(levels - 1):
        step = {"if": "x", "then": [step]}
    return step


CASES: list[tuple[str, Any, str, str, str | None]] = [
    ("not json", "{not json", ProblemCode.NOT_A_FLOW, "", None),
    ("a number", 42, ProblemCode.NOT_A_FLOW, "", None),
    ("json string", '"click"', ProblemCode.NOT_A_FLOW, "", None),
    ("nan", '[{"wait": "x", "timeout_ms": NaN}]', ProblemCode.NOT_A_FLOW, "", None),
    ("no steps", [], ProblemCode.EMPTY_FLOW, "", "steps"),
    ("empty steps", {"steps": []}, ProblemCode.EMPTY_FLOW, "", "steps"),
    (
        "unknown kind",
        [{"navigate": "https://a.example/"}],
        ProblemCode.UNKNOWN_KIND,
        "0",
        "navigate",
    ),
    ("no kind", [{"into": "Email"}], ProblemCode.NO_KIND, "0", None),
    ("empty step", [{}], ProblemCode.NO_KIND, "0", None),
    ("two kinds", [{"click": "A", "press": "Enter"}], ProblemCode.MULTIPLE_KINDS, "0", "press"),
    ("do with click", [{"do": "x", "click": "A"}], ProblemCode.MULTIPLE_KINDS, "0", "click"),
    ("missing into", [{"enter": "x"}], ProblemCode.MISSING_FIELD, "0", "into"),
    ("missing as", [{"read": "x"}], ProblemCode.MISSING_FIELD, "0", "as"),
    ("missing then", [{"if": "x"}], ProblemCode.MISSING_FIELD, "0", "then"),
    ("no steps key", {"vars": {}}, ProblemCode.MISSING_FIELD, "", "steps"),
    ("number target", [{"click": 3}], ProblemCode.WRONG_TYPE, "0", "click"),
    (
        "string submit",
        [{"enter": "x", "into": "y", "submit": "yes"}],
        ProblemCode.WRONG_TYPE,
        "0",
        "submit",
    ),
    (
        "bool max",
        [{"repeat_until": "x", "do": [], "max": True}],
        ProblemCode.WRONG_TYPE,
        "0",
        "max",
    ),
    (
        "float timeout",
        [{"wait": "x", "timeout_ms": 1.5}],
        ProblemCode.WRONG_TYPE,
        "0",
        "timeout_ms",
    ),
    ("then not list", [{"if": "x", "then": {"click": "a"}}], ProblemCode.WRONG_TYPE, "0", "then"),
    ("step not object", ["click Search"], ProblemCode.WRONG_TYPE, "0", None),
    ("steps not list", {"steps": {"click": "a"}}, ProblemCode.WRONG_TYPE, "", "steps"),
    (
        "vars not object",
        {"vars": [], "steps": [{"click": "a"}]},
        ProblemCode.WRONG_TYPE,
        "",
        "vars",
    ),
    (
        "vars not json",
        {"vars": {"a": {1, 2}}, "steps": [{"click": "a"}]},
        ProblemCode.WRONG_TYPE,
        "",
        "vars",
    ),
    ("surface number", [{"click": "a", "surface": 1}], ProblemCode.WRONG_TYPE, "0", "surface"),
    ("unknown field", [{"click": "a", "into": "b"}], ProblemCode.UNKNOWN_FIELD, "0", "into"),
    (
        "unknown top key",
        {"steps": [{"click": "a"}], "var": {}},
        ProblemCode.UNKNOWN_FIELD,
        "",
        "var",
    ),
    ("blank click", [{"click": "  "}], ProblemCode.EMPTY_TARGET, "0", "click"),
    ("blank into", [{"enter": "x", "into": ""}], ProblemCode.EMPTY_TARGET, "0", "into"),
    ("blank in", [{"choose": "x", "in": " "}], ProblemCode.EMPTY_TARGET, "0", "in"),
    ("blank option", [{"choose": "", "in": "x"}], ProblemCode.EMPTY_TARGET, "0", "choose"),
    ("blank within", [{"click": "a", "within": ""}], ProblemCode.EMPTY_TARGET, "0", "within"),
    ("blank stop", [{"stop_before": "\t"}], ProblemCode.EMPTY_TARGET, "0", "stop_before"),
    ("blank read", [{"read": "", "as": "x"}], ProblemCode.EMPTY_TARGET, "0", "read"),
    ("blank open", [{"open": ""}], ProblemCode.EMPTY_TARGET, "0", "open"),
    ("blank do", [{"do": " "}], ProblemCode.EMPTY_TARGET, "0", "do"),
    ("condition number", [{"verify": 3}], ProblemCode.BAD_CONDITION, "0", "verify"),
    ("condition blank", [{"verify": " "}], ProblemCode.BAD_CONDITION, "0", "verify"),
    (
        "condition two forms",
        [{"wait": {"shows": "a", "not_shows": "b"}}],
        ProblemCode.BAD_CONDITION,
        "0",
        "wait",
    ),
    (
        "condition unknown",
        [{"if": {"visible": "a"}, "then": []}],
        ProblemCode.BAD_CONDITION,
        "0",
        "if",
    ),
    ("condition empty all", [{"verify": {"all": []}}], ProblemCode.BAD_CONDITION, "0", "verify"),
    (
        "condition all not list",
        [{"verify": {"any": "a"}}],
        ProblemCode.BAD_CONDITION,
        "0",
        "verify",
    ),
    (
        "condition equals number",
        [{"verify": {"var": "a", "equals": 1}}],
        ProblemCode.BAD_CONDITION,
        "0",
        "verify",
    ),
    (
        "condition shows blank",
        [{"verify": {"shows": ""}}],
        ProblemCode.BAD_CONDITION,
        "0",
        "verify",
    ),
    (
        "condition shows number",
        [{"verify": {"not_shows": 1}}],
        ProblemCode.BAD_CONDITION,
        "0",
        "verify",
    ),
    (
        "max zero",
        [{"repeat_until": "x", "do": [], "max": 0}],
        ProblemCode.REPEAT_MAX_RANGE,
        "0",
        "max",
    ),
    (
        "max 51",
        [{"repeat_until": "x", "do": [], "max": 51}],
        ProblemCode.REPEAT_MAX_RANGE,
        "0",
        "max",
    ),
    (
        "timeout zero",
        [{"wait": "x", "timeout_ms": 0}],
        ProblemCode.TIMEOUT_RANGE,
        "0",
        "timeout_ms",
    ),
    (
        "timeout big",
        [{"wait": "x", "timeout_ms": 120_001}],
        ProblemCode.TIMEOUT_RANGE,
        "0",
        "timeout_ms",
    ),
    (
        "too deep",
        [nest(MAX_DEPTH + 1)],
        ProblemCode.TOO_DEEP,
        ".".join(["0"] + ["then", "0"] * MAX_DEPTH),
        None,
    ),
    ("too many", [{"press": "Tab"}] * 201, ProblemCode.TOO_MANY_STEPS, "", "steps"),
    (
        "too many nested",
        [{"if": "x", "then": [{"press": "Tab"}] * 100, "else": [{"press": "Tab"}] * 100}],
        ProblemCode.TOO_MANY_STEPS,
        "",
        "steps",
    ),
    ("ftp address", [{"browse": "ftp://files.example/"}], ProblemCode.BAD_ADDRESS, "0", "browse"),
    ("no scheme", [{"browse": "shop.example"}], ProblemCode.BAD_ADDRESS, "0", "browse"),
    ("javascript", [{"browse": "javascript:alert(1)"}], ProblemCode.BAD_ADDRESS, "0", "browse"),
    ("blank address", [{"browse": ""}], ProblemCode.BAD_ADDRESS, "0", "browse"),
    ("bad ${}", [{"enter": "${a.b}", "into": "x"}], ProblemCode.BAD_VAR_NAME, "0", "enter"),
    ("empty ${}", [{"click": "${}"}], ProblemCode.BAD_VAR_NAME, "0", "click"),
    ("unclosed ${", [{"click": "Hi ${name"}], ProblemCode.BAD_VAR_NAME, "0", "click"),
    ("bad read as", [{"read": "x", "as": "a$b"}], ProblemCode.BAD_VAR_NAME, "0", "as"),
    ("blank read as", [{"read": "x", "as": ""}], ProblemCode.BAD_VAR_NAME, "0", "as"),
    (
        "bad var name",
        {"vars": {"a/b": 1}, "steps": [{"click": "a"}]},
        ProblemCode.BAD_VAR_NAME,
        "",
        "vars",
    ),
    (
        "bad condition var",
        [{"verify": {"var": " x", "empty": True}}],
        ProblemCode.BAD_VAR_NAME,
        "0",
        "verify",
    ),
    (
        "bad name in intent",
        [{"click": "a", "intent": "${!}"}],
        ProblemCode.BAD_VAR_NAME,
        "0",
        "intent",
    ),
    ("empty key", [{"press": ""}], ProblemCode.BAD_KEY, "0", "press"),
    ("bad surface", [{"click": "a", "surface": "phone"}], ProblemCode.BAD_SURFACE, "0", "surface"),
]


@pytest.mark.parametrize(
    ("data", "code", "path", "field"), [case[1:] for case in CASES], ids=[case[0] for case in CASES]
)
def test_each_problem_code(data: Any, code: str, path: str, field: str | None) -> None:
    problem = only(data)
    assert (problem["code"], problem["path"], problem["field"]) == (code, path, field)
    assert problem["message"]


def test_every_parse_code_is_covered() -> None:
    covered = {case[2] for case in CASES}
    semantic = {ProblemCode.SECRET_MISPLACED, ProblemCode.MISSING_VALUE}
    assert covered == set(ProblemCode) - semantic


def test_nested_paths_name_the_step() -> None:
    problems = problems_of(
        [
            {"click": "ok"},
            {
                "if": "x",
                "then": [{"click": "a"}, {"press": ""}],
                "else": [{"repeat_until": "y", "do": [{"click": "b"}, {"click": ""}]}],
            },
        ]
    )
    assert [(p["code"], p["path"]) for p in problems] == [
        (ProblemCode.BAD_KEY, "1.then.1"),
        (ProblemCode.EMPTY_TARGET, "1.else.0.do.1"),
    ]


def test_reports_every_problem_at_once() -> None:
    problems = problems_of(
        {
            "vars": {"ok": 1, "b@d": 2},
            "steps": [
                {"navigate": "x"},
                {"enter": 5},
                {"click": "a", "press": "b"},
                {"repeat_until": "x", "do": [{"wait": {"shows": ""}}], "max": 99},
                {"browse": "file:///etc/passwd", "surface": "tv"},
            ],
        }
    )
    codes = [(p["code"], p["path"], p["field"]) for p in problems]
    assert codes == [
        (ProblemCode.BAD_VAR_NAME, "", "vars"),
        (ProblemCode.UNKNOWN_KIND, "0", "navigate"),
        (ProblemCode.WRONG_TYPE, "1", "enter"),
        (ProblemCode.MISSING_FIELD, "1", "into"),
        (ProblemCode.MULTIPLE_KINDS, "2", "press"),
        (ProblemCode.BAD_CONDITION, "3.do.0", "wait"),
        (ProblemCode.REPEAT_MAX_RANGE, "3", "max"),
        (ProblemCode.BAD_ADDRESS, "4", "browse"),
        (ProblemCode.BAD_SURFACE, "4", "surface"),
    ]


def test_error_message_summarises_problems() -> None:
    with pytest.raises(InvalidFlow) as caught:
        parse_flow([{"click": ""}, {"press": ""}])
    assert "step 0" in caught.value.message
    assert "1 more" in caught.value.message


def test_suggests_the_kind_meant() -> None:
    problem = only([{"clik": "Search"}])
    assert "`click`" in problem["message"]
    problem = only([{"enter": "x", "into": "y", "submitt": True}])
    assert "`submit`" in problem["message"]


def test_addresses_that_are_fine() -> None:
    flow = parse_flow(
        [
            {"browse": "HTTPS://Shop.example/a?b=c"},
            {"browse": "${site}"},
            {"browse": "${site}/search?q=${query}"},
            {"browse": "https://${host}/"},
        ]
    )
    assert len(flow.steps) == 4


def test_nesting_at_the_limit_is_fine() -> None:
    flow = parse_flow([nest(MAX_DEPTH)])
    assert isinstance(flow.steps[0], If)


def test_two_hundred_steps_are_fine() -> None:
    assert len(parse_flow([{"press": "Tab"}] * 200).steps) == 200


def test_validate_flow_returns_none_and_problems_without_raising() -> None:
    flow, check = validate_flow([{"click": ""}])
    assert flow is None
    assert not check.ok
    assert [p.code for p in check.problems] == [ProblemCode.EMPTY_TARGET]


KEYS = st.sampled_from(
    [
        "click",
        "enter",
        "into",
        "if",
        "then",
        "else",
        "do",
        "repeat_until",
        "max",
        "wait",
        "timeout_ms",
        "shows",
        "var",
        "empty",
        "all",
        "any",
        "browse",
        "read",
        "as",
        "steps",
        "vars",
        "surface",
        "x",
    ]
)
JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 200)
    | st.text(max_size=8)
    | st.sampled_from(["${a}", "${", "https://a.example", " ", "${x y}"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(JSONISH)
def test_any_json_gives_a_flow_or_problems(data: Any) -> None:
    flow, check = validate_flow(data, ("a",), ("x y",))
    assert (flow is None) == bool([p for p in check.problems if p.code != "SECRET_MISPLACED"])
    if flow is not None:
        assert parse_flow(flow_to_json(flow)) == flow


def test_absurdly_nested_json_text() -> None:
    assert only("[" * 100_000)["code"] == ProblemCode.NOT_A_FLOW
    assert only([nest(5000)])["code"] == ProblemCode.TOO_DEEP
