"""Resolving ``within`` words to a region of the screen."""

from __future__ import annotations

import pytest
from screens import decide_build
from screens.decide_build import load

from gofer.decide import resolve_within


@pytest.mark.parametrize(
    ("within", "index"),
    [
        ("the first result", 0),
        ("first result", 0),
        ("second flight", 1),
        ("the 3rd row", 2),
        ("the third card", 2),
        ("result 4", 3),
        ("last item", 9),
        ("the last result", 9),
        ("the first result: airline, departure time and price", 0),
        ("IndiGo 6E 2031", 0),
        ("Air India AI 443", 5),
        ("6E 6178", 7),
        ("SpiceJet SG 160", 6),
    ],
)
def test_records(within: str, index: int) -> None:
    region = resolve_within(within, load("results"))
    assert region is not None and region.kind == "record"
    assert region.record == (0, index)


def test_an_ordinal_past_the_end_finds_nothing() -> None:
    assert resolve_within("the 11th result", load("results")) is None


def test_an_ordinal_on_a_screen_without_records_finds_nothing() -> None:
    assert resolve_within("the first result", load("login")) is None


def test_rows_prefer_the_table() -> None:
    region = resolve_within("the 2nd row", load("table"))
    assert region is not None and region.record == (0, 1)
    assert region.box is not None


@pytest.mark.parametrize(
    ("screen", "within", "kind"),
    [
        ("passengers", "Passenger 2", "section"),
        ("tabs_radios", "Cabin class", "section"),
        ("results", "Airlines", "section"),
        ("demo_passengers", "Contact details", "section"),
        ("demo_fares", "Economy", "section"),
        ("tabs_radios", "Trip type", "group"),
    ],
)
def test_named_sections_and_groups(screen: str, within: str, kind: str) -> None:
    region = resolve_within(within, load(screen))
    assert region is not None and region.kind == kind
    assert within in region.describe


def test_partial_section_name() -> None:
    region = resolve_within("Gender", load("demo_passengers"))
    assert region is not None and region.kind == "section"
    assert "Gender (optional)" in region.names


def test_heading_band_when_elements_carry_no_section() -> None:
    from dataclasses import replace

    screen = decide_build.passengers()
    bare = replace(screen, elements=tuple(replace(e, section="") for e in screen.elements))
    region = resolve_within("Passenger 1", bare)
    assert region is not None and region.kind == "band"
    inside = [e.ref for e in bare.elements if region.contains(e)]
    expected = [e.ref for e in screen.elements if e.section == "Passenger 1"]
    assert inside == expected


def test_a_plain_line_is_a_place_to_be_near() -> None:
    screen = decide_build.cookie_modal()
    region = resolve_within("We use cookies", screen)
    assert region is not None and region.kind == "near"
    accept = next(e for e in screen.elements if e.name == "Accept all")
    close = next(e for e in screen.elements if e.name == "Close")
    assert region.nearness(accept) > region.nearness(close)
    assert not region.contains(accept)


@pytest.mark.parametrize("within", ["", "   ", ": airline and price", "Kathmandu"])
def test_nothing_found(within: str) -> None:
    assert resolve_within(within, load("results")) is None


@pytest.mark.parametrize(
    ("screen", "within", "names"),
    [
        ("passengers", "the Passenger 2 form", "Passenger 2"),
        ("demo_passengers", "the contact details panel", "Contact details"),
        ("users", "the users section", "Users"),
    ],
)
def test_words_that_end_in_a_kind_of_place_name_the_place_before_it(
    screen: str, within: str, names: str
) -> None:
    # "the sign in dialog": the dialog is named "Sign in"; the last word says what kind
    # of place it is
    if screen == "users":
        found = resolve_within(within, load("app_misago_users"))
    else:
        found = resolve_within(within, load(screen))
    assert found is not None and found.names == frozenset({names})
