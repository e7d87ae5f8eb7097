"""The JSON Schema subset a caller may give for a task's output, and its validator.

An output schema may use only ``type``, ``properties``, ``required``,
``additionalProperties`` (true or false), ``items``, ``enum``, ``minItems``,
``maxItems``, ``description`` and ``title``, with an object at the top. Anything
else is refused up front, so every rule a caller writes is one gofer really checks.

:func:`check_output_schema` refuses a schema outside the subset with
:class:`gofer.errors.InvalidOutput`, listing every problem with the keyword and the
dotted path of the schema it sits in (``properties.flights.items``; ``""`` is the top).
:func:`schema_violations` checks a value against an accepted schema and lists every
violation with its JSON path (``$.flights[0].price``).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gofer.errors import InvalidOutput

__all__ = [
    "JSON_TYPES",
    "MAX_SCHEMA_DEPTH",
    "SUPPORTED_KEYWORDS",
    "Violation",
    "check_output_schema",
    "schema_violations",
]

SUPPORTED_KEYWORDS: frozenset[str] = frozenset(
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
"""The only keywords an output schema may use."""

JSON_TYPES: tuple[str, ...] = (
    "object",
    "array",
    "string",
    "number",
    "integer",
    "boolean",
    "null",
)
"""The names ``type`` accepts, alone or in a list."""

MAX_SCHEMA_DEPTH = 32
"""How deeply schemas may nest inside ``properties`` and ``items``."""

_PLAIN_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True, slots=True)
class Violation:
    """One way a value breaks a schema: where (a JSON path) and what is wrong."""

    path: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """The violation as a JSON-ready object."""
        return {"path": self.path, "message": self.message}

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def _member(path: str, name: str) -> str:
    if _PLAIN_NAME.match(name):
        return f"{path}.{name}" if path else name
    return f"{path}[{json.dumps(name, ensure_ascii=False)}]"


def _where(path: str) -> str:
    return f"at {path}" if path else "at the top"


# --- checking a schema ------------------------------------------------------------


class _Problems:
    def __init__(self) -> None:
        self.items: list[dict[str, str]] = []

    def add(self, keyword: str, path: str, message: str) -> None:
        self.items.append({"keyword": keyword, "path": path, "message": message})


def check_output_schema(schema: Any) -> None:
    """Refuse an output schema outside the supported subset.

    Raises :class:`~gofer.errors.InvalidOutput` whose ``details`` name the first
    problem's ``keyword`` and ``path`` and list every problem under ``problems``
    (each a ``{"keyword", "path", "message"}`` object).
    """
    problems = _Problems()
    if not isinstance(schema, Mapping):
        problems.add("type", "", 'an output schema must be a JSON object with type "object"')
    else:
        if schema.get("type") != "object":
            problems.add("type", "", 'the top of an output schema must have type "object"')
        _check_schema(schema, "", 0, problems)
    if problems.items:
        first = problems.items[0]
        more = len(problems.items) - 1
        message = first["message"] + (f" (and {more} more)" if more else "")
        raise InvalidOutput(
            message, keyword=first["keyword"], path=first["path"], problems=problems.items
        )


def _check_schema(schema: Mapping[Any, Any], path: str, depth: int, problems: _Problems) -> None:
    for key in schema:
        if key not in SUPPORTED_KEYWORDS:
            problems.add(
                str(key),
                path,
                f"unsupported keyword {json.dumps(str(key))} {_where(path)}; an output "
                f"schema may use only {', '.join(sorted(SUPPORTED_KEYWORDS))}",
            )
    if "type" in schema:
        _check_type(schema["type"], path, problems)
    if "properties" in schema:
        _check_properties(schema["properties"], path, depth, problems)
    if "required" in schema:
        _check_required(schema, path, problems)
    if "additionalProperties" in schema and not isinstance(schema["additionalProperties"], bool):
        problems.add(
            "additionalProperties",
            path,
            f"additionalProperties {_where(path)} must be true or false; "
            "a schema there is not supported",
        )
    if "items" in schema:
        items = schema["items"]
        if isinstance(items, Mapping):
            _check_subschema(items, _member(path, "items"), depth, "items", problems)
        else:
            problems.add(
                "items",
                path,
                f"items {_where(path)} must be one schema (a JSON object) for every item",
            )
    if "enum" in schema:
        _check_enum(schema["enum"], path, problems)
    _check_counts(schema, path, problems)
    for word in ("description", "title"):
        if word in schema and not isinstance(schema[word], str):
            problems.add(word, path, f"{word} {_where(path)} must be a string")


def _check_subschema(schema: Any, path: str, depth: int, keyword: str, problems: _Problems) -> None:
    if not isinstance(schema, Mapping):
        problems.add(keyword, path, f"the schema at {path} must be a JSON object")
    elif depth + 1 > MAX_SCHEMA_DEPTH:
        problems.add(
            keyword, path, f"schemas nest more than {MAX_SCHEMA_DEPTH} levels deep at {path}"
        )
    else:
        _check_schema(schema, path, depth + 1, problems)


def _check_type(value: Any, path: str, problems: _Problems) -> None:
    names = value if isinstance(value, list) else [value]
    known = ", ".join(JSON_TYPES)
    if not names:
        problems.add("type", path, f"type {_where(path)} is an empty list; name at least one")
        return
    for name in names:
        if not isinstance(name, str) or name not in JSON_TYPES:
            problems.add(
                "type",
                path,
                f"type {_where(path)} has {json.dumps(name, default=repr)}, "
                f"which is not one of {known}",
            )
    words = [n for n in names if isinstance(n, str)]
    if len(set(words)) < len(words):
        problems.add("type", path, f"type {_where(path)} names a type twice")


def _check_properties(value: Any, path: str, depth: int, problems: _Problems) -> None:
    if not isinstance(value, Mapping):
        problems.add(
            "properties",
            path,
            f"properties {_where(path)} must be a JSON object of property schemas",
        )
        return
    for name, sub in value.items():
        _check_subschema(
            sub, _member(_member(path, "properties"), str(name)), depth, "properties", problems
        )


def _check_required(schema: Mapping[Any, Any], path: str, problems: _Problems) -> None:
    value = schema["required"]
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        problems.add("required", path, f"required {_where(path)} must be a list of property names")
        return
    if len(set(value)) < len(value):
        problems.add("required", path, f"required {_where(path)} names a property twice")
    properties = schema.get("properties", {})
    if schema.get("additionalProperties") is False and isinstance(properties, Mapping):
        for name in value:
            if name not in properties:
                problems.add(
                    "required",
                    path,
                    f"required {_where(path)} names {json.dumps(name)}, which is not in "
                    "properties while additionalProperties is false, so nothing could match",
                )


def _check_enum(value: Any, path: str, problems: _Problems) -> None:
    if not isinstance(value, list) or not value:
        problems.add("enum", path, f"enum {_where(path)} must be a non-empty list of values")
    elif not all(_is_json(v) for v in value):
        problems.add("enum", path, f"enum {_where(path)} must hold only JSON values")


def _check_counts(schema: Mapping[Any, Any], path: str, problems: _Problems) -> None:
    counts: dict[str, int] = {}
    for word in ("minItems", "maxItems"):
        if word not in schema:
            continue
        value = schema[word]
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            problems.add(word, path, f"{word} {_where(path)} must be a whole number, 0 or more")
        else:
            counts[word] = value
    if counts.keys() == {"minItems", "maxItems"} and counts["minItems"] > counts["maxItems"]:
        problems.add(
            "minItems",
            path,
            f"minItems {_where(path)} ({counts['minItems']}) is more than "
            f"maxItems ({counts['maxItems']})",
        )


def _is_json(value: Any) -> bool:
    if value is None or isinstance(value, bool | int | str):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_is_json(v) for v in value)
    if isinstance(value, Mapping):
        return all(isinstance(k, str) and _is_json(v) for k, v in value.items())
    return False


# --- checking a value ---------------------------------------------------------------


def schema_violations(value: Any, schema: Mapping[str, Any]) -> list[Violation]:
    """Every way ``value`` breaks an accepted output ``schema``, with JSON paths.

    An empty list means the value fits. Where a value has the wrong type, the other
    rules for that spot are not checked (they would only repeat the point).
    """
    found: list[Violation] = []
    _validate(value, schema, "$", found)
    return found


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number" if math.isfinite(value) else f"{value}, which is not a JSON number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return f"a Python {type(value).__name__}, which is not JSON"


def _has_type(value: Any, name: str) -> bool:
    match name:
        case "null":
            return value is None
        case "boolean":
            return isinstance(value, bool)
        case "integer":
            if isinstance(value, float):
                return math.isfinite(value) and value.is_integer()
            return isinstance(value, int) and not isinstance(value, bool)
        case "number":
            if isinstance(value, float):
                return math.isfinite(value)
            return isinstance(value, int) and not isinstance(value, bool)
        case "string":
            return isinstance(value, str)
        case "array":
            return isinstance(value, list | tuple)
        case "object":
            return isinstance(value, Mapping)
    return False


def _json_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and bool(a == b)


def _validate(value: Any, schema: Mapping[str, Any], path: str, found: list[Violation]) -> None:
    wanted = schema.get("type")
    if wanted is not None:
        names = wanted if isinstance(wanted, list) else [wanted]
        if not any(_has_type(value, n) for n in names):
            expected = " or ".join(names)
            found.append(Violation(path, f"should be {expected}, but is {_type_name(value)}"))
            return
    enum = schema.get("enum")
    if isinstance(enum, list) and not any(_json_equal(value, option) for option in enum):
        allowed = json.dumps(enum, ensure_ascii=False)
        found.append(Violation(path, f"should be one of {allowed}"))
    if isinstance(value, Mapping):
        _validate_object(value, schema, path, found)
    elif isinstance(value, list | tuple):
        _validate_array(value, schema, path, found)


def _validate_object(
    value: Mapping[Any, Any], schema: Mapping[str, Any], path: str, found: list[Violation]
) -> None:
    properties = schema.get("properties")
    properties = properties if isinstance(properties, Mapping) else {}
    required = schema.get("required")
    for name in required if isinstance(required, list) else []:
        if name not in value:
            found.append(Violation(_member(path, str(name)), "is required but missing"))
    for key, item in value.items():
        where = _member(path, str(key))
        sub = properties.get(key)
        if isinstance(sub, Mapping):
            _validate(item, sub, where, found)
        elif sub is None and schema.get("additionalProperties") is False:
            allowed = ", ".join(sorted(map(str, properties))) or "none"
            found.append(Violation(where, f"is not an allowed property (allowed: {allowed})"))


def _validate_array(
    value: list[Any] | tuple[Any, ...],
    schema: Mapping[str, Any],
    path: str,
    found: list[Violation],
) -> None:
    count = len(value)
    low, high = schema.get("minItems"), schema.get("maxItems")
    if isinstance(low, int) and count < low:
        found.append(Violation(path, f"has {count} items, fewer than the {low} required"))
    if isinstance(high, int) and count > high:
        found.append(Violation(path, f"has {count} items, more than the {high} allowed"))
    items = schema.get("items")
    if isinstance(items, Mapping):
        for index, item in enumerate(value):
            _validate(item, items, f"{path}[{index}]", found)
