"""``${name}`` references: finding them, checking them, and putting values in.

What may be a name is :mod:`gofer.naming`'s one rule: letters, digits, spaces, hyphens
and underscores (``${first name}``), at least one letter or digit, no space at either end.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from gofer.errors import InvalidFlow
from gofer.flow.problems import Problem, ProblemCode
from gofer.flow.steps import JSONValue
from gofer.naming import MAX_NAME_LENGTH, is_valid_name

__all__ = [
    "MAX_NAME_LENGTH",
    "Reference",
    "file_names",
    "is_valid_name",
    "names_in",
    "references",
    "substitute",
]

_OPEN = "${"


@dataclass(frozen=True, slots=True)
class Reference:
    """One ``${...}`` in a text: where it is, what it holds, whether it is a valid name."""

    start: int
    end: int
    name: str
    closed: bool

    @property
    def valid(self) -> bool:
        """A closed reference holding a valid name."""
        return self.closed and is_valid_name(self.name)


def references(text: str) -> list[Reference]:
    """Every ``${...}`` in ``text`` in order, valid or not (an unclosed one runs to the end)."""
    found: list[Reference] = []
    at = text.find(_OPEN)
    while at != -1:
        close = text.find("}", at + 2)
        if close == -1:
            found.append(Reference(at, len(text), text[at + 2 :], closed=False))
            break
        found.append(Reference(at, close + 1, text[at + 2 : close], closed=True))
        at = text.find(_OPEN, close + 1)
    return found


def names_in(text: str) -> list[str]:
    """The valid ``${name}`` names in ``text``, in order of first appearance, once each."""
    seen: dict[str, None] = {}
    for ref in references(text):
        if ref.valid:
            seen.setdefault(ref.name, None)
    return list(seen)


def file_names(text: str) -> list[str]:
    """The files an ``upload`` step names: its ``${name}`` references, or, with none, each
    name between commas as written (a file a ``download`` kept: ``march invoice``)."""
    named = names_in(text)
    if named or _OPEN in text:
        return named
    seen: dict[str, None] = {}
    for part in text.split(","):
        if part.strip():
            seen.setdefault(part.strip(), None)
    return list(seen)


def bad_reference_problems(text: str, path: str, field: str) -> list[Problem]:
    """A ``BAD_VAR_NAME`` problem for each malformed ``${...}`` in ``text``."""
    problems: list[Problem] = []
    for ref in references(text):
        if ref.valid:
            continue
        shown = text[ref.start : ref.end]
        if not ref.closed:
            why = f"{shown!r} is missing its closing brace"
        else:
            why = (
                f"{shown!r} is not a valid name: use letters, digits, spaces, hyphens and "
                "underscores, with at least one letter or digit"
            )
        problems.append(Problem(ProblemCode.BAD_VAR_NAME, path, f"`{field}`: {why}", field))
    return problems


def render_value(value: JSONValue) -> str:
    """A variable's value as it reads inside a text."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return json.dumps(value, ensure_ascii=False)


def substitute(text: str, values: Mapping[str, JSONValue]) -> str:
    """Replace each valid ``${name}`` in ``text`` with its value, in one pass.

    Values are not searched for names again. Malformed ``${...}`` are left as they
    are. Raises :class:`~gofer.errors.InvalidFlow` (problems with code
    ``MISSING_VALUE``, and ``missing``: the names) when a name has no value.
    """
    refs = [ref for ref in references(text) if ref.valid]
    missing = [name for name in dict.fromkeys(ref.name for ref in refs) if name not in values]
    if missing:
        problems = [
            Problem(ProblemCode.MISSING_VALUE, "", f"no value for ${{{name}}}").to_dict()
            for name in missing
        ]
        listed = ", ".join(missing)
        raise InvalidFlow(f"no value for {listed}", problems=problems, missing=missing)
    parts: list[str] = []
    at = 0
    for ref in refs:
        parts.append(text[at : ref.start])
        parts.append(render_value(values[ref.name]))
        at = ref.end
    parts.append(text[at:])
    return "".join(parts)
