"""The output JSON Schema subset: which schemas are refused, and what a value breaks."""

from __future__ import annotations

from typing import Any

import pytest

from gofer.errors import GoferError, InvalidOutput
from gofer.shape import SUPPORTED_KEYWORDS, Violation, check_output_schema, schema_violations

FLIGHTS: dict[str, Any] = {
    "title": "Cheapest flights",
    "description": "The three cheapest non-stop flights",
    "type": "object",
    "properties": {
        "route": {"type": "string"},
        "flights": {
            "type": "array",
            "minItems": 1,
            "maxItems": 3,
            "items": {
                "type": "object",
                "properties": {
                    "airline": {"type": "string", "enum": ["IndiGo", "Air India", "Vistara"]},
                    "departure": {"type": "string", "description": "24-hour time"},
                    "price": {"type": "integer"},
                    "refundable": {"type": ["boolean", "null"]},
                },
                "required": ["airline", "price"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["flights"],
    "additionalProperties": True,
}


def refusal(schema: Any) -> InvalidOutput:
    with pytest.raises(InvalidOutput) as caught:
        check_output_schema(schema)
    return caught.value


# --- accepted schemas ------------------------------------------------------------------


def test_supported_keywords_are_exactly_the_subset() -> None:
    assert (
        frozenset(
            {
                "type",
                "properties",
                "required",
                "additionalProperties",
                "items",
                "enum",
                "minItems",
                "maxItems",
                "description",
                "title",
            }
        )
        == SUPPORTED_KEYWORDS
    )


@pytest.mark.parametrize(
    "schema",
    [
        FLIGHTS,
        {"type": "object"},
        {"type": "object", "properties": {}},
        {"type": "object", "properties": {"n": {}}},
        {"type": "object", "properties": {"tags": {"type": "array", "maxItems": 0}}},
        {"type": "object", "properties": {"x": {"enum": [1, "a", None, [1], {"k": True}]}}},
        {
            "type": "object",
            "properties": {"first name": {"type": "string"}},
            "required": ["first name"],
            "additionalProperties": False,
        },
    ],
    ids=[
        "flights",
        "bare object",
        "no properties",
        "empty property schema",
        "max 0",
        "mixed enum",
        "spaced name",
    ],
)
def test_schemas_inside_the_subset_are_accepted(schema: Any) -> None:
    assert check_output_schema(schema) is None


# --- refusals --------------------------------------------------------------------------

REFUSALS: list[tuple[str, Any, str, str]] = [
    # (id, schema, keyword, path)
    ("not an object", ["type", "object"], "type", ""),
    ("top not object", {"type": "array", "items": {}}, "type", ""),
    ("top without type", {"properties": {}}, "type", ""),
    ("unsupported at top", {"type": "object", "$ref": "#/defs/x"}, "$ref", ""),
    (
        "pattern nested",
        {
            "type": "object",
            "properties": {
                "flights": {"type": "array", "items": {"type": "string", "pattern": "^6E"}}
            },
        },
        "pattern",
        "properties.flights.items",
    ),
    ("oneOf", {"type": "object", "properties": {"a": {"oneOf": []}}}, "oneOf", "properties.a"),
    (
        "format",
        {"type": "object", "properties": {"d": {"type": "string", "format": "date"}}},
        "format",
        "properties.d",
    ),
    (
        "minimum",
        {"type": "object", "properties": {"p": {"type": "number", "minimum": 0}}},
        "minimum",
        "properties.p",
    ),
    (
        "unknown type",
        {"type": "object", "properties": {"p": {"type": "float"}}},
        "type",
        "properties.p",
    ),
    (
        "type not a string",
        {"type": "object", "properties": {"p": {"type": 3}}},
        "type",
        "properties.p",
    ),
    (
        "empty type list",
        {"type": "object", "properties": {"p": {"type": []}}},
        "type",
        "properties.p",
    ),
    (
        "type twice",
        {"type": "object", "properties": {"p": {"type": ["string", "string"]}}},
        "type",
        "properties.p",
    ),
    ("properties not object", {"type": "object", "properties": ["a"]}, "properties", ""),
    (
        "property not a schema",
        {"type": "object", "properties": {"a": "string"}},
        "properties",
        "properties.a",
    ),
    ("required not a list", {"type": "object", "required": "a"}, "required", ""),
    ("required non-strings", {"type": "object", "required": ["a", 1]}, "required", ""),
    ("required twice", {"type": "object", "required": ["a", "a"]}, "required", ""),
    (
        "required unreachable",
        {
            "type": "object",
            "properties": {"a": {}},
            "required": ["b"],
            "additionalProperties": False,
        },
        "required",
        "",
    ),
    (
        "additionalProperties schema",
        {"type": "object", "additionalProperties": {"type": "string"}},
        "additionalProperties",
        "",
    ),
    (
        "additionalProperties string",
        {"type": "object", "additionalProperties": "no"},
        "additionalProperties",
        "",
    ),
    (
        "items tuple form",
        {"type": "object", "properties": {"pair": {"type": "array", "items": [{}, {}]}}},
        "items",
        "properties.pair",
    ),
    (
        "items not a schema",
        {"type": "object", "properties": {"l": {"items": True}}},
        "items",
        "properties.l",
    ),
    (
        "enum not a list",
        {"type": "object", "properties": {"e": {"enum": "a"}}},
        "enum",
        "properties.e",
    ),
    ("enum empty", {"type": "object", "properties": {"e": {"enum": []}}}, "enum", "properties.e"),
    (
        "enum non-json",
        {"type": "object", "properties": {"e": {"enum": [float("nan")]}}},
        "enum",
        "properties.e",
    ),
    (
        "minItems negative",
        {"type": "object", "properties": {"l": {"minItems": -1}}},
        "minItems",
        "properties.l",
    ),
    (
        "maxItems fraction",
        {"type": "object", "properties": {"l": {"maxItems": 2.5}}},
        "maxItems",
        "properties.l",
    ),
    (
        "maxItems bool",
        {"type": "object", "properties": {"l": {"maxItems": True}}},
        "maxItems",
        "properties.l",
    ),
    (
        "min above max",
        {"type": "object", "properties": {"l": {"minItems": 3, "maxItems": 1}}},
        "minItems",
        "properties.l",
    ),
    ("title not string", {"type": "object", "title": 5}, "title", ""),
    (
        "description not string",
        {"type": "object", "properties": {"a": {"description": []}}},
        "description",
        "properties.a",
    ),
    (
        "odd property name",
        {"type": "object", "properties": {"first name": {"const": "x"}}},
        "const",
        'properties["first name"]',
    ),
]


@pytest.mark.parametrize(
    ("schema", "keyword", "path"),
    [case[1:] for case in REFUSALS],
    ids=[case[0] for case in REFUSALS],
)
def test_refusal_names_the_keyword_and_its_path(schema: Any, keyword: str, path: str) -> None:
    error = refusal(schema)
    assert error.code == "INVALID_OUTPUT"
    assert isinstance(error, GoferError)
    assert error.details["keyword"] == keyword
    assert error.details["path"] == path
    assert error.details["problems"][0] == {
        "keyword": keyword,
        "path": path,
        "message": error.details["problems"][0]["message"],
    }
    assert keyword in error.message


def test_unsupported_keyword_message_reads_plainly() -> None:
    error = refusal(FLIGHTS | {"properties": {"flights": {"items": {"pattern": "x"}}}})
    assert error.message.startswith('unsupported keyword "pattern" at properties.flights.items')
    assert "additionalProperties" in error.message  # lists what is allowed
    assert error.to_dict()["code"] == "INVALID_OUTPUT"
    assert error.to_dict()["path"] == "properties.flights.items"


def test_every_problem_is_listed_not_just_the_first() -> None:
    error = refusal(
        {
            "type": "object",
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "properties": {
                "a": {"type": "text"},
                "b": {"type": "array", "items": {"type": "object", "additionalProperties": {}}},
            },
            "required": "a",
            "patternProperties": {},
        }
    )
    found = {(p["keyword"], p["path"]) for p in error.details["problems"]}
    assert found == {
        ("$schema", ""),
        ("patternProperties", ""),
        ("type", "properties.a"),
        ("additionalProperties", "properties.b.items"),
        ("required", ""),
    }
    assert "(and 4 more)" in error.message


def test_schemas_nested_too_deep_are_refused() -> None:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(40):
        schema = {"type": "array", "items": schema}
    error = refusal({"type": "object", "properties": {"deep": schema}})
    assert error.details["keyword"] == "items"
    assert error.details["path"] == "properties.deep" + ".items" * 32
    assert len(error.details["problems"]) == 1


# --- violations ------------------------------------------------------------------------

GOOD = {
    "route": "DEL-SXR",
    "flights": [
        {"airline": "IndiGo", "departure": "08:00", "price": 7346, "refundable": None},
        {"airline": "Air India", "price": 8102.0, "refundable": True},
    ],
    "note": "extra properties are allowed at the top",
}


def test_a_fitting_value_has_no_violations() -> None:
    assert schema_violations(GOOD, FLIGHTS) == []


def paths(value: Any, schema: dict[str, Any] = FLIGHTS) -> dict[str, str]:
    return {v.path: v.message for v in schema_violations(value, schema)}


def test_wrong_type_at_a_nested_path() -> None:
    value = {"flights": [{"airline": "IndiGo", "price": "₹7,346"}]}
    assert paths(value) == {"$.flights[0].price": "should be integer, but is string"}


@pytest.mark.parametrize(
    ("value", "kind", "expected"),
    [
        (True, "integer", "should be integer, but is boolean"),
        (False, "number", "should be number, but is boolean"),
        (1.5, "integer", "should be integer, but is number"),
        (1, "string", "should be string, but is integer"),
        (None, "object", "should be object, but is null"),
        ([], "object", "should be object, but is array"),
        ({}, "array", "should be array, but is object"),
        ("true", "boolean", "should be boolean, but is string"),
        (0, "null", "should be null, but is integer"),
        (float("inf"), "number", "should be number, but is inf, which is not a JSON number"),
        ({1, 2}, "array", "should be array, but is a Python set, which is not JSON"),
    ],
)
def test_type_violations(value: Any, kind: str, expected: str) -> None:
    schema = {"type": "object", "properties": {"v": {"type": kind}}}
    assert paths({"v": value}, schema) == {"$.v": expected}


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (3, "integer"),
        (3.0, "integer"),
        (3, "number"),
        (2.5, "number"),
        ("", "string"),
        (None, "null"),
        (False, "boolean"),
        ([], "array"),
        ({}, "object"),
        (None, ["string", "null"]),
    ],
)
def test_values_of_the_right_type_pass(value: Any, kind: Any) -> None:
    schema = {"type": "object", "properties": {"v": {"type": kind}}}
    assert schema_violations({"v": value}, schema) == []


def test_a_type_list_names_every_allowed_type() -> None:
    value = {"flights": [{"airline": "IndiGo", "price": 1, "refundable": "yes"}]}
    assert paths(value) == {
        "$.flights[0].refundable": "should be boolean or null, but is string",
    }


def test_the_top_must_be_an_object() -> None:
    assert paths([GOOD]) == {"$": "should be object, but is array"}


def test_missing_required_property_points_at_where_it_belongs() -> None:
    value = {"flights": [{"airline": "IndiGo"}]}
    assert paths(value) == {"$.flights[0].price": "is required but missing"}
    assert paths({}) == {"$.flights": "is required but missing"}


def test_extra_property_when_additional_properties_is_false() -> None:
    value = {"flights": [{"airline": "IndiGo", "price": 1, "seat": "12A"}]}
    assert paths(value) == {
        "$.flights[0].seat": (
            "is not an allowed property (allowed: airline, departure, price, refundable)"
        ),
    }


def test_enum_violation() -> None:
    value = {"flights": [{"airline": "SpiceJet", "price": 1}]}
    assert paths(value) == {
        "$.flights[0].airline": 'should be one of ["IndiGo", "Air India", "Vistara"]',
    }


def test_enum_compares_as_json_does() -> None:
    schema = {"type": "object", "properties": {"v": {"enum": [1, [True], {"a": None}]}}}
    assert schema_violations({"v": 1.0}, schema) == []
    assert schema_violations({"v": [True]}, schema) == []
    assert schema_violations({"v": {"a": None}}, schema) == []
    assert paths({"v": True}, schema) == {"$.v": 'should be one of [1, [true], {"a": null}]'}
    assert list(paths({"v": [1]}, schema)) == ["$.v"]
    assert list(paths({"v": {"a": 0}}, schema)) == ["$.v"]
    assert list(paths({"v": "1"}, schema)) == ["$.v"]


def test_too_few_and_too_many_items() -> None:
    assert paths({"flights": []}) == {"$.flights": "has 0 items, fewer than the 1 required"}
    four = [{"airline": "IndiGo", "price": n} for n in range(4)]
    assert paths({"flights": four}) == {"$.flights": "has 4 items, more than the 3 allowed"}


def test_every_violation_is_listed_in_document_order() -> None:
    value = {
        "route": 42,
        "flights": [
            {"airline": "IndiGo", "price": 1},
            {"airline": "Go", "price": 2.5, "gate": "B"},
            "IndiGo 08:00",
        ],
    }
    found = schema_violations(value, FLIGHTS)
    assert [v.path for v in found] == [
        "$.route",
        "$.flights[1].airline",
        "$.flights[1].price",
        "$.flights[1].gate",
        "$.flights[2]",
    ]


def test_paths_quote_names_that_are_not_plain() -> None:
    schema = {
        "type": "object",
        "properties": {"first name": {"type": "string"}},
        "required": ["last name"],
    }
    assert paths({"first name": 1}, schema) == {
        '$["last name"]': "is required but missing",
        '$["first name"]': "should be string, but is integer",
    }


def test_violation_is_a_frozen_plain_record() -> None:
    violation = Violation("$.flights[0].price", "should be integer, but is string")
    assert violation.to_dict() == {
        "path": "$.flights[0].price",
        "message": "should be integer, but is string",
    }
    assert str(violation) == "$.flights[0].price: should be integer, but is string"
    with pytest.raises(AttributeError):
        violation.path = "$"  # type: ignore[misc]
