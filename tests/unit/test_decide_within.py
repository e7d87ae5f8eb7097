"""`within` a record and ties between equal candidates, on captured screens."""

from __future__ import annotations

from pathlib import Path

from gofer.decide import Query, Want, ground
from gofer.surfaces.testing import FakeSurface

SCREENS = Path(__file__).parent / "screens"


def _load(name: str) -> FakeSurface:
    return FakeSurface.captured(SCREENS / f"{name}.json")


def test_within_a_record_a_control_of_the_next_record_is_never_taken() -> None:
    screen = _load("invoices").screen
    # Row 41 has no Edit link; rows 42 and 43 do.
    got = ground(Query("Edit", Want.CLICK, within="Asha Rao"), screen)
    assert got.element is None or got.element.record == (0, 0)
    got = ground(Query("Edit", Want.CLICK, within="Ben Ortiz"), screen)
    assert got.element is not None and got.element.ref == "e3" and not got.low_confidence


def test_exact_case_settles_two_controls_the_words_name_equally() -> None:
    got = ground(Query("Save", Want.CLICK), _load("contacts").screen)
    assert got.element is not None and got.element.ref == "e6"
    assert not got.low_confidence
    assert "shows the words in their exact case" in got.evidence
    got = ground(Query("SAVE", Want.CLICK), _load("contacts").screen)
    assert got.element is not None and got.element.ref == "e5"


def test_nearness_to_the_within_words_settles_equal_controls_of_one_record() -> None:
    screen = _load("contacts").screen
    got = ground(Query("Edit", Want.CLICK, within="asha.rao@work.example"), screen)
    assert got.element is not None and got.element.ref == "e2", got
    assert not got.low_confidence
    got = ground(Query("Edit", Want.CLICK, within="Ben Ortiz"), screen)
    assert got.element is not None and got.element.ref == "e3"
    assert not got.low_confidence


def test_equal_controls_nothing_tells_apart_stay_low_confidence() -> None:
    got = ground(Query("Edit", Want.CLICK), _load("contacts").screen)
    assert got.low_confidence and "equally" in got.reason


def test_a_chips_remove_button_goes_with_the_chip_it_sits_beside() -> None:
    """Chips in a row ("English ×  German ×  Italian ×"): each × is nearest its own
    chip's words, though every × lies close to the next chip too."""
    screen = _load("chips").screen
    for chip in ("France", "Portugal", "English", "German", "Italian"):
        got = ground(Query("Remove", Want.CLICK, within=chip), screen)
        assert got.element is not None and got.element.name == f"Remove item: '{chip}'", chip
        assert not got.low_confidence, chip
