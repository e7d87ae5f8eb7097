"""A real shop's pages (django-oscar's storefront, captured from the corpus with
``tools/capture_screens.py --live``): what the grounder and the gates make of them."""

from __future__ import annotations

from screens.decide_build import load

from gofer.decide import Query, Want, ground
from gofer.decide.prepared import prepare


def _column(name: str, ref: str) -> list[str]:
    info = next(i for i in prepare(load(name)).elements if i.element.ref == ref)
    return [s.norm for s in info.sources if s.field == "column"]


def test_a_basket_quantity_field_is_named_by_its_column_header() -> None:
    # Oscar's basket: "Items to buy now | Quantity | Price | Total" headings over a grid
    # of lines; each line's number field has no label of its own (the text beside it
    # is the product's title and stock).
    screen = load("oscar_basket")
    for title in ("The Lantern Keeper", "Quiet Orbits"):
        found = ground(Query("Quantity", Want.FIELD, within=title), screen)
        assert found.element is not None and found.element.role == "spinbutton"
        assert found.element.section == title
        assert not found.low_confidence
    # both lines have one: without saying which, it is a coin toss
    assert ground(Query("Quantity", Want.FIELD), screen).low_confidence


def test_only_the_header_row_above_heads_a_column() -> None:
    screen = load("oscar_basket")
    second = next(
        e for e in screen.elements if e.role == "spinbutton" and e.section == "Quiet Orbits"
    )
    # the first line's "Remove" sits in the same column, but it is no header
    assert _column("oscar_basket", second.ref) == ["quantity"]
    search = next(e for e in screen.elements if e.placeholder == "Search")
    assert _column("oscar_basket", search.ref) == []
