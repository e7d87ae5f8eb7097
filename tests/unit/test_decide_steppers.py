"""Time panels that step each part with buttons around the number it shows."""

from __future__ import annotations

from gofer.decide.steppers import time_steppers
from gofer.surfaces.screen import Box, Element, Screen, TextLine


def _button(ref: str, name: str, x: float, y: float) -> Element:
    return Element(ref=ref, role="button", name=name, box=Box(x, y, 24, 24))


def _panel(hour: str, minute: str, *, minute_down: bool = True) -> Screen:
    elements = [
        _button("e1", "Next Hour", 100, 100),
        _button("e2", "Previous Hour", 100, 160),
        _button("e3", "Next Minute", 160, 100),
        _button("e4", "Previous Minute", 160, 160),
        _button("e5", "Next month", 400, 100),
    ]
    if not minute_down:
        elements = [e for e in elements if e.ref != "e4"]
    lines = (
        TextLine("Trip request", Box(0, 0, 200, 20)),
        TextLine(hour, Box(104, 130, 16, 20)),
        TextLine(":", Box(140, 130, 4, 20)),
        TextLine(minute, Box(164, 130, 16, 20)),
        TextLine("14", Box(400, 130, 16, 20)),
    )
    return Screen(url="https://x.test/", title="t", lines=lines, elements=tuple(elements))


def test_each_part_is_its_pair_of_buttons_and_the_number_between_them() -> None:
    parts = time_steppers(_panel("06", "30"))
    assert {u: (p.up.ref, p.down.ref, p.shown) for u, p in parts.items()} == {
        "hour": ("e1", "e2", 6),
        "minute": ("e3", "e4", 30),
    }


def test_a_part_without_both_buttons_is_no_stepper() -> None:
    assert set(time_steppers(_panel("06", "30", minute_down=False))) == {"hour"}
