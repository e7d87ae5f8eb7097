"""Choosing among options: select options, suggestions, and calendar day cells."""

from __future__ import annotations

from datetime import date

import pytest
from screens.decide_build import load

from gofer.decide import match_date_cell, match_option
from gofer.surfaces.screen import Element

AIRPORTS = [
    "New Delhi Railway Station",
    "Delhi (DEL) Indira Gandhi International",
    "Srinagar (SXR) Sheikh ul-Alam International",
]
SORTS = [
    "Recommended",
    "Price: low to high",
    "Price: high to low",
    "Departure: earliest",
    "Duration: shortest",
]


@pytest.mark.parametrize(
    ("words", "options", "index"),
    [
        ("Delhi", AIRPORTS, 1),
        ("DEL", AIRPORTS, 1),
        ("srinagar", AIRPORTS, 2),
        ("Lowest price", SORTS, 1),
        ("Cheapest", SORTS, 1),
        ("Highest price", SORTS, 2),
        ("Earliest departure", SORTS, 3),
        ("Fastest", SORTS, 4),
        ("Recommended", SORTS, 0),
        ("1 Adult", ["1 Adult", "2 Adults", "3 Adults"], 0),
        ("2 adults", ["1 Adult", "2 Adults", "3 Adults"], 1),
        ("2", ["1 Adult", "2 Adults", "3 Adults"], 1),
        ("Economy", ["Economy", "Premium economy", "Business"], 0),
        ("Premium", ["Economy", "Premium economy", "Business"], 1),
        ("Lowest price", ["Recommended", "Lowest price", "Earliest departure"], 1),
        ("Mumbay", ["Mumbai (BOM)", "Madurai (IXM)"], 0),
    ],
)
def test_match_option_picks(words: str, options: list[str], index: int) -> None:
    found = match_option(words, options)
    assert found is not None
    assert found[0] == index, (options[found[0]], found[1])
    assert 0.5 <= found[1] <= 1.0


def test_a_name_only_near_in_spelling_is_another_option() -> None:
    # Ant Design's country list: "Narnia" is 77% like "Armenia", and no country
    assert match_option("Narnia", ["Albania", "Andorra", "Armenia", "Austria"]) is None
    found = match_option("Berln", ["Bern", "Berlin", "Bratislava"])
    assert found is not None and found[0] == 1


def test_exact_option_scores_one() -> None:
    assert match_option("Business", ["Economy", "Business"]) == (1, 1.0)


@pytest.mark.parametrize("words", ["Tokyo", "", "Window seat"])
def test_match_option_refuses_unrelated_words(words: str) -> None:
    assert match_option(words, AIRPORTS + SORTS) is None


def test_date_cell_named_in_full() -> None:
    screen = load("datepicker")
    cell = match_date_cell(date(2026, 10, 14), screen.elements)
    assert cell is not None and cell.name == "Wednesday, 14 October 2026"


def test_date_cell_showing_only_the_day_is_placed_by_its_month_heading() -> None:
    screen = load("datepicker")
    cell = match_date_cell(date(2026, 11, 14), screen.elements)
    assert cell is not None
    assert cell.text == "14" and cell.section == "November 2026"


def test_date_cell_not_on_the_screen() -> None:
    screen = load("datepicker")
    assert match_date_cell(date(2026, 12, 14), screen.elements) is None
    assert match_date_cell(date(2027, 10, 14), screen.elements) is None


def test_a_disabled_cell_is_returned_only_when_it_is_the_one() -> None:
    screen = load("datepicker")
    cell = match_date_cell(date(2026, 10, 2), screen.elements)
    assert cell is not None and cell.disabled


def _cell(ref: str, text: str, **kw: object) -> Element:
    return Element(ref=ref, role="gridcell", name=text, text=text, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "label", ["14 Oct 2026", "2026-10-14", "Oct 14, 2026", "14/10/2026", "14th October 2026"]
)
def test_date_cell_label_forms(label: str) -> None:
    cells = [_cell("a", "13 Oct 2026"), _cell("b", label), _cell("c", "15 Oct 2026")]
    found = match_date_cell(date(2026, 10, 14), cells)
    assert found is not None and found.ref == "b"


def test_bare_day_with_no_month_anywhere() -> None:
    one = [_cell("a", "13"), _cell("b", "14")]
    found = match_date_cell(date(2026, 10, 14), one)
    assert found is not None and found.ref == "b"
    two_months = [*one, _cell("c", "14")]
    assert match_date_cell(date(2026, 10, 14), two_months) is None


def test_month_from_the_grid_name() -> None:
    cells = [_cell("a", "14", group="September 2026"), _cell("b", "14", group="October 2026")]
    found = match_date_cell(date(2026, 10, 14), cells)
    assert found is not None and found.ref == "b"
