from __future__ import annotations

from gofer.surfaces import Box, TextLine
from gofer.surfaces.reading import FrameReading, build_screen, reading_order


def line(text: str, x: float, y: float, h: float = 16) -> TextLine:
    return TextLine(text, Box(x, y, 50, h))


def test_reading_order_rows_then_left_to_right() -> None:
    lines = [line("right", 300, 101), line("left", 10, 100), line("below", 10, 140)]
    assert [ln.text for ln in reading_order(lines)] == ["left", "right", "below"]


def raw(**extra: object) -> dict[str, object]:
    base: dict[str, object] = {
        "url": "http://site/?code=1234",
        "title": "Pay 1234",
        "viewport": [0, 0, 800, 600],
        "lines": [{"t": "Card 1234", "b": [10, 10, 50, 16], "h": 0}],
        "elements": [],
        "records": [],
        "dialog": False,
    }
    base.update(extra)
    return base


def element(ref: str, **extra: object) -> dict[str, object]:
    e: dict[str, object] = {
        "ref": ref,
        "role": "textbox",
        "name": "Card",
        "value": "1234",
        "box": [5, 5, 10, 10],
        "visible": True,
        "on_top": True,
        "record": [0, 1],
        "options": ["1234"],
    }
    e.update(extra)
    return e


def test_frames_are_offset_masked_and_renumbered() -> None:
    group = {
        "box": [0, 0, 1, 1],
        "headers": [],
        "name": "",
        "records": [{"box": [0, 0, 1, 1], "lines": ["a 1234"], "fields": {"n": "1234"}}],
    }
    main = raw(elements=[element("e1")], records=[group])
    sub = raw(
        elements=[element("f1:e1")],
        records=[group],
        dialog=True,
        lines=[{"t": "Inside", "b": [0, 0, 40, 16], "h": 2}],
    )
    screen = build_screen(
        [FrameReading(main), FrameReading(sub, path="1", dx=100, dy=200, covered=[True])],
        mask=lambda t: t.replace("1234", "••••"),
    )
    assert screen.url == "http://site/?code=••••" and screen.title == "Pay ••••"
    assert [ln.text for ln in screen.lines] == ["Card ••••", "Inside"]
    assert screen.lines[1].heading == 2 and screen.lines[1].box.y == 200
    first, framed = screen.elements
    assert first.value == "••••" and first.options == ("••••",) and first.record == (0, 1)
    assert framed.frame == "1" and framed.box == Box(105, 205, 10, 10)
    assert framed.record == (1, 1) and not framed.on_top
    assert screen.records[1].records[0].fields == {"n": "••••"}
    assert not screen.dialog_open  # a dialog inside a frame does not cover the page
