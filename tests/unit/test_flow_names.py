"""Names in texts, substitution, step paths and the names each step uses."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gofer.errors import InvalidFlow, InvalidRequest
from gofer.flow import (
    Click,
    Enter,
    JSONValue,
    is_valid_name,
    iter_steps,
    names_in,
    names_in_step,
    parse_flow,
    step_at,
    substitute,
)

NESTED = parse_flow(
    [
        {"click": "a"},
        {"if": "x", "then": [{"click": "b"}, {"click": "c"}], "else": [{"click": "d"}]},
        {"repeat_until": "y", "do": [{"press": "Tab"}, {"if": "z", "then": [{"click": "e"}]}]},
    ]
)


def test_names_in_finds_valid_names_once_in_order() -> None:
    text = "${first name} ${e-mail_2} ${first name} ${bad.name} ${} ${ x} ${Ünïcode} ${open"
    assert names_in(text) == ["first name", "e-mail_2", "Ünïcode"]
    assert names_in("no names $ {here} $name {x}") == []


@pytest.mark.parametrize(
    ("name", "valid"),
    [
        ("a", True),
        ("first name", True),
        ("x-1_y", True),
        ("9", True),
        ("", False),
        (" a", False),
        ("a ", False),
        ("_", False),
        ("-", False),
        ("a.b", False),
        ("a$b", False),
        ("a}b", False),
        ("a" * 101, False),
        ("a" * 100, True),
    ],
)
def test_is_valid_name(name: str, valid: bool) -> None:
    assert is_valid_name(name) is valid


def test_substitute_puts_values_in_once() -> None:
    values: dict[str, JSONValue] = {
        "first name": "Ada",
        "n": 3,
        "flag": True,
        "none": None,
        "loop": "${n}",
        "list": ["a", 1],
    }
    text = "${first name}/${n}/${flag}/${none}/${loop}/${list}/${bad.name}"
    assert substitute(text, values) == 'Ada/3/true//${n}/["a", 1]/${bad.name}'


def test_substitute_missing_names() -> None:
    with pytest.raises(InvalidFlow) as caught:
        substitute("${a} ${b} ${a} ${c}", {"b": "x"})
    assert caught.value.details["missing"] == ["a", "c"]
    problems = caught.value.details["problems"]
    assert [p["code"] for p in problems] == ["MISSING_VALUE", "MISSING_VALUE"]


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
def test_substitute_without_names_leaves_text_alone(text: str) -> None:
    if not names_in(text):
        assert substitute(text, {}) == text


@given(
    st.dictionaries(
        st.from_regex(r"[a-z][a-z0-9 _-]{0,8}[a-z0-9]", fullmatch=True),
        st.text(max_size=10),
        min_size=1,
        max_size=4,
    )
)
def test_substitute_replaces_every_reference(values: dict[str, str]) -> None:
    text = "|".join(f"${{{name}}}" for name in values)
    assert substitute(text, values) == "|".join(values.values())


def test_iter_steps_paths() -> None:
    assert [path for path, _ in iter_steps(NESTED.steps)] == [
        "0",
        "1",
        "1.then.0",
        "1.then.1",
        "1.else.0",
        "2",
        "2.do.0",
        "2.do.1",
        "2.do.1.then.0",
    ]
    assert [p for p, _ in iter_steps(NESTED.steps[1:2], "9")] == [
        "9.0",
        "9.0.then.0",
        "9.0.then.1",
        "9.0.else.0",
    ]


def test_step_at() -> None:
    assert step_at(NESTED, "0") == Click(target="a")
    assert step_at(NESTED, "1.else.0") == Click(target="d")
    assert step_at(NESTED, "2.do.1.then.0") == Click(target="e")
    for path, step in iter_steps(NESTED.steps):
        assert step_at(NESTED, path) is step


@pytest.mark.parametrize("path", ["", "3", "0.then.0", "1.do.0", "1.then.2", "x", "1.then"])
def test_step_at_unknown_path(path: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        step_at(NESTED, path)
    assert caught.value.details["path"] == path


def test_names_in_step_says_where() -> None:
    step = Enter(
        value="${password}", into="${field}", within="${password}", intent="type ${password}"
    )
    assert names_in_step(step) == [
        ("password", "enter"),
        ("field", "into"),
        ("password", "within"),
        ("password", "intent"),
    ]
    cond = parse_flow(
        [
            {
                "if": {"all": [{"var": "a", "equals": "${b}"}, {"not_shows": "${c}"}]},
                "then": [{"click": "${inner}"}],
            }
        ]
    ).steps[0]
    assert names_in_step(cond) == [("a", "if"), ("b", "if"), ("c", "if")]
    read = parse_flow([{"read": "${what}", "as": "x"}]).steps[0]
    assert names_in_step(read) == [("what", "read")]
