"""Checking flows against facts and secrets, and checking flows built in code."""

from __future__ import annotations

from typing import Any

import pytest

from gofer.flow import (
    MAX_DEPTH,
    Browse,
    Click,
    Enter,
    Flow,
    FlowCheck,
    If,
    Press,
    Problem,
    ProblemCode,
    Read,
    RepeatUntil,
    Shows,
    Step,
    VarEmpty,
    Wait,
    check_flow,
    parse_flow,
    validate_flow,
)

FACTS = ("email", "password", "site", "card number")
SECRETS = ("password", "card number")


def check(
    data: Any, facts: tuple[str, ...] = FACTS, secrets: tuple[str, ...] = SECRETS
) -> FlowCheck:
    return check_flow(parse_flow(data), facts, secrets)


def test_secret_as_enter_value_is_fine() -> None:
    result = check(
        [
            {"enter": "${password}", "into": "Password"},
            {"enter": "pin-${card number}!", "into": "Card"},
        ]
    )
    assert result.ok and result.problems == () and result.questions == ()


@pytest.mark.parametrize(
    ("step", "path", "field"),
    [
        ({"browse": "https://bank.example/?p=${password}"}, "0", "browse"),
        ({"browse": "${password}"}, "0", "browse"),
        ({"open": "${password}"}, "0", "open"),
        ({"click": "${password}"}, "0", "click"),
        ({"click": "OK", "within": "${card number}"}, "0", "within"),
        ({"enter": "x", "into": "${password}"}, "0", "into"),
        ({"choose": "${password}", "in": "x"}, "0", "choose"),
        ({"press": "${password}"}, "0", "press"),
        ({"verify": {"shows": "${password}"}}, "0", "verify"),
        ({"wait": {"var": "password", "empty": False}}, "0", "wait"),
        ({"read": "the ${password}", "as": "x"}, "0", "read"),
        ({"read": "the code", "as": "password"}, "0", "as"),
        ({"stop_before": "${password}"}, "0", "stop_before"),
        ({"do": "type ${password} somewhere"}, "0", "do"),
        ({"click": "OK", "intent": "use ${password}"}, "0", "intent"),
        ({"if": "x", "then": [{"click": "${password}"}]}, "0.then.0", "click"),
        (
            {"repeat_until": {"all": [{"var": "card number", "equals": "1"}]}, "do": []},
            "0",
            "repeat_until",
        ),
    ],
)
def test_secret_anywhere_else_is_misplaced(step: dict[str, Any], path: str, field: str) -> None:
    result = check([step])
    assert not result.ok
    assert [(p.code, p.path, p.field) for p in result.problems] == [
        (ProblemCode.SECRET_MISPLACED, path, field)
    ]
    assert "secret" in result.problems[0].message


def test_questions_are_unsupplied_names_in_order_of_first_use() -> None:
    result = check(
        {
            "vars": {"total": ""},
            "steps": [
                {"browse": "${site}"},
                {"enter": "${city}", "into": "${field}"},
                {"if": {"var": "mode", "equals": "${city}"}, "then": [{"click": "${city}"}]},
                {"read": "x", "as": "later"},
                {"click": "${total} ${later} ${email}"},
            ],
        }
    )
    assert result.ok
    assert result.questions == ("city", "field", "mode")


def test_read_anywhere_supplies_its_name() -> None:
    result = check(
        [{"verify": {"var": "price", "empty": False}}, {"read": "the price", "as": "price"}],
        facts=(),
        secrets=(),
    )
    assert result.questions == ()


def test_secrets_are_names_even_without_facts() -> None:
    result = check([{"enter": "${pin}", "into": "PIN"}], facts=(), secrets=("pin",))
    assert result.ok and result.questions == ()


def test_validate_flow_reports_both_kinds_at_once() -> None:
    flow, result = validate_flow(
        [
            {"click": ""},
            {"browse": "https://x.example/${password}"},
            {"enter": "${who}", "into": "Name"},
        ],
        FACTS,
        SECRETS,
    )
    assert flow is None
    assert [(p.code, p.path) for p in result.problems] == [
        (ProblemCode.EMPTY_TARGET, "0"),
        (ProblemCode.SECRET_MISPLACED, "1"),
    ]
    assert result.questions == ("who",)


def test_validate_flow_on_a_good_flow() -> None:
    flow, result = validate_flow(
        '{"steps": [{"enter": "${password}", "into": "P"}]}', FACTS, SECRETS
    )
    assert flow == Flow(steps=(Enter(value="${password}", into="P"),))
    assert result == FlowCheck()


def test_flow_check_to_dict() -> None:
    result = check([{"click": "${password}"}, {"click": "${x}"}])
    assert result.to_dict() == {
        "ok": False,
        "problems": [
            {
                "code": "SECRET_MISPLACED",
                "path": "0",
                "field": "click",
                "message": result.problems[0].message,
            }
        ],
        "questions": ["x"],
    }
    problem = Problem("EMPTY_FLOW", "", "no steps")
    assert problem.to_dict() == {
        "code": "EMPTY_FLOW",
        "path": "",
        "field": None,
        "message": "no steps",
    }


# ---------------------------------------------------------------- flows built in code


def codes(flow: Flow) -> list[tuple[str, str]]:
    return [(p.code, p.path) for p in check_flow(flow).problems]


def test_built_flow_breaking_value_rules() -> None:
    flow = Flow(
        vars={"bad/name": 1},
        steps=(
            Click(target=" "),
            Browse(url="mailto:a@b.example"),
            Press(key=""),
            Wait(condition=Shows(""), timeout_ms=0),
            RepeatUntil(
                condition=VarEmpty("x"),
                do=(Click(target="a", surface="tv"),),  # type: ignore[arg-type]
                max=0,
            ),
            Read(what="x", as_="no!"),
        ),
    )
    assert codes(flow) == [
        (ProblemCode.BAD_VAR_NAME, ""),
        (ProblemCode.EMPTY_TARGET, "0"),
        (ProblemCode.BAD_ADDRESS, "1"),
        (ProblemCode.BAD_KEY, "2"),
        (ProblemCode.BAD_CONDITION, "3"),
        (ProblemCode.TIMEOUT_RANGE, "3"),
        (ProblemCode.REPEAT_MAX_RANGE, "4"),
        (ProblemCode.BAD_SURFACE, "4.do.0"),
        (ProblemCode.BAD_VAR_NAME, "5"),
    ]


def test_built_flow_limits() -> None:
    assert codes(Flow(steps=())) == [(ProblemCode.EMPTY_FLOW, "")]
    assert codes(Flow(steps=(Press(key="Tab"),) * 201)) == [(ProblemCode.TOO_MANY_STEPS, "")]
    step: Step = Click(target="deep")
    for _ in range(MAX_DEPTH):
        step = If(condition=Shows("x"), then=(step,))
    problems = codes(Flow(steps=(step,)))
    assert problems == [(ProblemCode.TOO_DEEP, ".".join(["0"] + ["then", "0"] * MAX_DEPTH))]


def test_built_flow_with_a_foreign_step() -> None:
    flow = Flow(steps=("click OK",))  # type: ignore[arg-type]
    assert codes(flow) == [(ProblemCode.UNKNOWN_KIND, "0")]


def test_parse_flow_accepts_a_built_flow() -> None:
    flow = Flow(steps=(Click(target="OK"),))
    assert parse_flow(flow) is flow
    built, result = validate_flow(Flow(steps=(Click(target="${password}"),)), FACTS, SECRETS)
    assert built is not None
    assert [p.code for p in result.problems] == [ProblemCode.SECRET_MISPLACED]
