"""Time panels that set each part with a pair of buttons around the number it shows
("Next Hour" above "06", "Previous Hour" below): where those pairs are and what they show."""

from __future__ import annotations

import re
from dataclasses import dataclass

from gofer.decide.prepared import label_of
from gofer.surfaces.screen import Box, Element, Screen, TextLine

__all__ = ["Stepper", "time_steppers"]

_UP = re.compile(r"\b(next|increment|increase|up|plus|add)\b", re.IGNORECASE)
_DOWN = re.compile(r"\b(previous|prev|decrement|decrease|down|minus|subtract)\b", re.IGNORECASE)
_NUMBER = re.compile(r"\s*(\d{1,2})\s*")
_UNITS = {"hour": ("hour", "hours"), "minute": ("minute", "minutes", "min")}


@dataclass(frozen=True)
class Stepper:
    """One part of a time panel: the buttons that step it and the number it shows."""

    unit: str  # "hour" or "minute"
    up: Element
    down: Element
    shown: int


def _names(el: Element, unit: str) -> bool:
    words = set(re.findall(r"[a-z]+", label_of(el).lower()))
    return bool(words & set(_UNITS[unit]))


def _between(line: TextLine, a: Box, b: Box) -> bool:
    """Whether ``line`` sits between the two buttons, across the line joining them."""
    left, right = min(a.x, b.x), max(a.x + a.width, b.x + b.width)
    top, bottom = min(a.y, b.y), max(a.y + a.height, b.y + b.height)
    return left - 4 <= line.box.cx <= right + 4 and top - 4 <= line.box.cy <= bottom + 4


def time_steppers(screen: Screen) -> dict[str, Stepper]:
    """The hour and minute steppers showing, each a pair of buttons its unit names (up
    and down) with the number between them; a unit without a whole pair is left out."""
    found: dict[str, Stepper] = {}
    buttons = [e for e in screen.elements if e.visible and not e.disabled and e.role == "button"]
    for unit in _UNITS:
        named = [b for b in buttons if _names(b, unit)]
        ups = [b for b in named if _UP.search(label_of(b))]
        downs = [b for b in named if _DOWN.search(label_of(b))]
        for up in ups:
            down = min(
                downs,
                key=lambda d: abs(d.box.cx - up.box.cx) + abs(d.box.cy - up.box.cy),
                default=None,
            )
            if down is None:
                continue
            shown = [
                int(m.group(1))
                for line in screen.lines
                if (m := _NUMBER.fullmatch(line.text)) and _between(line, up.box, down.box)
            ]
            if len(shown) == 1:
                found[unit] = Stepper(unit, up, down, shown[0])
                break
    return found
