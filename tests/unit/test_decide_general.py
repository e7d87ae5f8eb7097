"""The grounder on page styles beyond the demo: shops, dashboards, hotel searches.

Each case is a small screen built by hand in the shape the browser surface reads
real pages into, and each guards one general rule the grounder follows.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from gofer.decide import (
    HINT_FLOOR,
    GroundingHint,
    Query,
    Want,
    ground,
    match_date_cell,
    resolve_regions,
    symbol_words,
)
from gofer.surfaces.screen import Box, Element, Record, RecordGroup, Screen, TextLine


def _el(ref: str, role: str, name: str, **kw: Any) -> Element:
    return Element(ref=ref, role=role, name=name, text=str(kw.pop("text", name)), **kw)


def _line(text: str, x: float, y: float, w: float = 120, heading: int = 0) -> TextLine:
    return TextLine(text, Box(x, y, w, 20), heading)


# ---------------------------------------------------------------- within: several places


def _shop_with_cart_drawer() -> Screen:
    """A product grid under a drawer: the product's name heads its card and a cart line."""
    cards = RecordGroup(
        Box(0, 100, 700, 300),
        tuple(
            Record(Box(x, 100, 220, 300), (name, price, "Add to cart"))
            for x, name, price in ((0, "Linen Shirt", "$38.00"), (240, "Canvas Tote", "$24.50"))
        ),
        name="New arrivals",
    )
    return Screen(
        url="http://shop.test/",
        title="Shop",
        lines=(
            _line("Linen Shirt", 10, 220, heading=3),
            _line("Canvas Tote", 250, 220, heading=3),
            _line("Your cart", 920, 20, heading=2),
            _line("Canvas Tote", 920, 80),
        ),
        elements=(
            _el(
                "e1",
                "button",
                "Add to cart",
                box=Box(10, 300, 100, 30),
                section="Linen Shirt",
                record=(0, 0),
                on_top=False,
            ),
            _el(
                "e2",
                "button",
                "Add to cart",
                box=Box(250, 300, 100, 30),
                section="Canvas Tote",
                record=(0, 1),
                on_top=False,
            ),
            _el(
                "e3",
                "button",
                "Decrease quantity",
                text="−",
                box=Box(920, 110, 32, 32),
                section="Your cart",
            ),
            _el(
                "e4",
                "button",
                "Increase quantity",
                text="+",
                box=Box(1000, 110, 32, 32),
                section="Your cart",
            ),
        ),
        records=(cards,),
        dialog_open=True,
    )


def test_within_words_that_name_two_places_take_the_one_holding_the_control() -> None:
    screen = _shop_with_cart_drawer()
    kinds = [r.kind for r in resolve_regions("Canvas Tote", screen)]
    assert kinds[0] == "section" and "near" in kinds
    g = ground(Query("Increase quantity", Want.CLICK, "Canvas Tote"), screen)
    assert g.element is not None and g.element.ref == "e4"
    assert not g.low_confidence


def test_within_still_prefers_the_first_reading_when_it_holds_the_control() -> None:
    g = ground(Query("Add to cart", Want.CLICK, "Canvas Tote"), _shop_with_cart_drawer())
    assert g.element is not None and g.element.ref == "e2"


# ---------------------------------------------------------------- steppers: icons, nesting


def _guests_popover() -> Screen:
    """Three steppers; each row is a record whose buttons sit in a nested record."""
    rows = RecordGroup(
        Box(600, 60, 320, 180),
        tuple(
            Record(Box(600, 60 + 60 * i, 320, 50), (name,))
            for i, name in enumerate(("Adults", "Children", "Rooms"))
        ),
    )
    inner = RecordGroup(
        Box(600, 120, 320, 50),
        (
            Record(Box(600, 120, 150, 50), ("Children",)),
            Record(Box(760, 120, 160, 50), ("0",)),
        ),
    )
    buttons = []
    for i, name in enumerate(("Adults", "Children", "Rooms")):
        record = (1, 1) if name == "Children" else (0, i)
        y = 70 + 60 * i
        buttons += [
            _el(
                f"d{i}",
                "button",
                f"Decrease number of {name}",
                text="",
                box=Box(780, y, 36, 36),
                record=record,
            ),
            _el(
                f"i{i}",
                "button",
                f"Increase number of {name}",
                text="",
                box=Box(860, y, 36, 36),
                record=record,
            ),
        ]
    return Screen(
        url="http://hotels.test/",
        title="Hotels",
        lines=(
            _line("2 adults · 0 children · 1 room", 600, 20, 260),
            _line("Adults", 610, 75),
            _line("Children", 610, 135),
            _line("Rooms", 610, 195),
            _line("‹", 20, 300, 10),
            _line("October 2026", 60, 300),
        ),
        elements=(
            _el(
                "g",
                "button",
                "2 adults · 0 children · 1 room",
                box=Box(600, 15, 260, 30),
                expanded=True,
            ),
            *buttons,
            _el("prev", "button", "‹", box=Box(20, 300, 30, 30)),
            _el("next", "button", "›", box=Box(400, 300, 30, 30)),
        ),
        records=(rows, inner),
    )


def test_an_icon_named_by_its_glyph_is_found_by_what_it_does() -> None:
    screen = _guests_popover()
    for words, within, ref in (
        ("+", "Children", "i1"),
        ("−", "Adults", "d0"),
        ("-", "Rooms", "d2"),
        ("+", "Rooms", "i2"),
    ):
        g = ground(Query(words, Want.CLICK, within), screen)
        assert g.element is not None and g.element.ref == ref, (words, within, g.candidates)
        assert not g.low_confidence


def test_a_button_showing_only_a_glyph_answers_to_words() -> None:
    screen = _guests_popover()
    g = ground(Query("Next month", Want.CLICK), screen)
    assert g.element is not None and g.element.ref == "next"
    g = ground(Query("previous", Want.CLICK), screen)
    assert g.element is not None and g.element.ref == "prev"


def test_symbol_words() -> None:
    assert "increase" in symbol_words("+")
    assert "close" in symbol_words(" × ")
    assert "next" in symbol_words("›")
    assert symbol_words("Add") == ()
    assert symbol_words("") == ()


def test_a_line_that_is_only_the_words_beats_lines_that_mention_them() -> None:
    near = [r for r in resolve_regions("Children", _guests_popover()) if r.kind == "near"]
    assert near and len(near[0].boxes) == 1 and near[0].boxes[0].y == 135


def test_a_record_holds_the_controls_of_a_record_nested_in_it() -> None:
    screen = _guests_popover()
    region = resolve_regions("Children", screen)[0]
    assert region.kind == "record" and region.record == (0, 1)
    inside = [e.ref for e in screen.elements if region.contains(e)]
    assert inside == ["d1", "i1"]


# ---------------------------------------------------------------- calendars of bare days


def _days(start: int, end: int, first_ref: int, y: float) -> list[Element]:
    return [
        _el(
            f"c{first_ref + n}",
            "clickable",
            str(d),
            box=Box(40 * (n % 7), y + 30 * (n // 7), 38, 28),
        )
        for n, d in enumerate(range(start, end + 1))
    ]


def test_bare_day_cells_of_two_months_pick_the_first_whole_month() -> None:
    september = _days(1, 30, 0, 0)
    october = _days(1, 31, 100, 300)
    cell = match_date_cell(date(2026, 10, 14), [*september, *october])
    assert cell is not None and cell.ref == "c13"


def test_days_of_the_month_before_are_not_the_month_shown() -> None:
    tail = _days(28, 30, 0, 0)  # the last days of September, greyed in October's grid
    october = _days(1, 31, 100, 30)
    november_head = _days(1, 8, 200, 300)
    cell = match_date_cell(date(2026, 10, 29), [*tail, *october, *november_head])
    assert cell is not None and cell.ref == "c128"
    cell = match_date_cell(date(2026, 10, 3), [*tail, *october, *november_head])
    assert cell is not None and cell.ref == "c102"


def test_numbers_that_do_not_make_a_month_are_not_a_calendar() -> None:
    pages = _days(1, 5, 0, 0)  # pagination: 1 2 3 4 5
    more = _days(1, 5, 10, 100)
    assert match_date_cell(date(2026, 10, 3), [*pages, *more]) is None


# ---------------------------------------------------------------- hints under a popup


def test_a_remembered_element_under_a_popup_is_not_lifted() -> None:
    screen = Screen(
        url="http://news.test/",
        title="News",
        lines=(),
        elements=(
            _el("a", "link", "Rivers run low", box=Box(0, 100, 200, 20), on_top=False),
            _el("r", "button", "Reject all", box=Box(0, 600, 100, 30)),
        ),
        dialog_open=True,
    )
    hint = GroundingHint("http://news.test", "click", "Rivers run low", "link", "Rivers run low")
    g = ground(Query("Rivers run low", Want.CLICK, kind="click"), screen, [hint])
    assert g.element is not None and g.element.ref == "a"
    assert g.confidence < HINT_FLOOR
    assert "remembered from an earlier run" not in g.evidence
