"""One rule for names (gofer.naming): flow validation, the flow JSON Schema and the
caller's facts accept and refuse the same names. They used to disagree: facts took
names with a space at either end or longer than 100 characters, and the schema took
names with no letter or digit ("_", "--")."""

from __future__ import annotations

import re

import pytest

from gofer.errors import InvalidFlow, InvalidRequest
from gofer.facts import Facts
from gofer.flow import parse_flow
from gofer.flow.schema import flow_json_schema
from gofer.naming import MAX_NAME_LENGTH, is_valid_name

GOOD = [
    "first name",
    "card-number",
    "card_number",
    "x",
    "A1",
    "née",
    "2fa code",
    "a" * MAX_NAME_LENGTH,
]
BAD = [
    " name",
    "name ",
    "_",
    "-",
    "__",
    "- -",
    " ",
    "",
    "a" * (MAX_NAME_LENGTH + 1),
    "a.b",
    "name\n",
    "a}b",
    "e-mail?",
]


def _facts_take(name: str) -> bool:
    try:
        Facts({name: "value"})
    except InvalidRequest as exc:
        assert exc.code == "INVALID_FACTS"
        return False
    return True


def _flow_takes(name: str) -> bool:
    try:
        parse_flow({"vars": {name: "v"}, "steps": [{"enter": "${" + name + "}", "into": "Name"}]})
    except InvalidFlow as exc:
        assert any(p["code"] == "BAD_VAR_NAME" for p in exc.details["problems"])
        return False
    return True


def _schema_takes(name: str) -> bool:
    rule = flow_json_schema()["$defs"]["flow_object"]["properties"]["vars"]["propertyNames"]
    # JSON Schema patterns are ECMA-262, where a final "$" is the end of the text; in
    # Python's re it also matches before a final newline, so "\\Z" stands in for it.
    pattern = re.sub(r"\$$", r"\\Z", rule["pattern"])
    return len(name) <= rule["maxLength"] and re.search(pattern, name) is not None


@pytest.mark.parametrize("name", GOOD)
def test_a_good_name_is_taken_everywhere(name: str) -> None:
    assert is_valid_name(name)
    assert (_facts_take(name), _flow_takes(name), _schema_takes(name)) == (True, True, True)


@pytest.mark.parametrize("name", BAD)
def test_a_bad_name_is_refused_everywhere(name: str) -> None:
    assert not is_valid_name(name)
    assert (_facts_take(name), _flow_takes(name), _schema_takes(name)) == (False, False, False)


def test_a_condition_var_in_the_schema_follows_the_same_rule() -> None:
    forms = flow_json_schema()["$defs"]["condition"]
    found = re.findall(r"'var': (\{[^}]*\})", str(forms))
    assert found and all("maxLength" in f and "pattern" in f for f in found)
