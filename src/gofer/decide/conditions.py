"""Evaluating flow conditions against a screen and the run's variables."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from gofer.flow import (
    AllOf,
    AnyOf,
    Condition,
    JSONValue,
    Judged,
    NotShows,
    Shows,
    VarEmpty,
    VarEquals,
)
from gofer.surfaces.screen import Screen

_SPACE = re.compile(r"\s+")


class NeedsDecider(Exception):
    """A condition in plain words needs a model decider to judge it."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _fold(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()


def screen_shows(screen: Screen, text: str) -> bool:
    """Whether the screen shows ``text`` (case and spacing do not matter).

    Field values, button names and placeholders count as shown, as they do to a
    person looking at the page.
    """
    needle = _fold(text)
    if not needle:
        return True
    if needle in _fold(screen.text):
        return True
    for el in screen.elements:
        if el.visible and needle in _fold(" ".join((el.name, el.value, el.placeholder))):
            return True
    return False


def _is_empty(value: JSONValue) -> bool:
    return value is None or value == "" or value == [] or value == {}


def holds(
    condition: Condition,
    screen: Screen | None,
    variables: Mapping[str, JSONValue],
    substitute: Callable[[str], str],
) -> bool:
    """Evaluate a condition. Raises :class:`NeedsDecider` for a condition in words."""
    match condition:
        case Shows(text=text):
            return screen is not None and screen_shows(screen, substitute(text))
        case NotShows(text=text):
            return screen is None or not screen_shows(screen, substitute(text))
        case VarEquals(var=name, value=value):
            current = variables.get(name)
            return _fold(str(current if current is not None else "")) == _fold(substitute(value))
        case VarEmpty(var=name, empty=empty):
            return _is_empty(variables.get(name)) == empty
        case AllOf(items=items):
            return all(holds(c, screen, variables, substitute) for c in items)
        case AnyOf(items=items):
            return any(holds(c, screen, variables, substitute) for c in items)
        case Judged(text=text):
            raise NeedsDecider(text)
    raise TypeError(f"not a condition: {condition!r}")


def needs_screen(condition: Condition) -> bool:
    """Whether evaluating the condition needs a fresh screen."""
    match condition:
        case Shows() | NotShows() | Judged():
            return True
        case AllOf(items=items) | AnyOf(items=items):
            return any(needs_screen(c) for c in items)
    return False
