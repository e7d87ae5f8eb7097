"""Which layer covers a target, and which of its controls closes it."""

from __future__ import annotations

from gofer.decide.overlays import covering, dismisser
from gofer.surfaces.screen import Box, Element, Screen, TextLine

TARGET = Element("e1", "link", "Top story", on_top=False, box=Box(100, 100, 200, 20))


def _button(ref: str, name: str, x: float, *, section: str = "Cookies") -> Element:
    return Element(ref, "button", name, section=section, box=Box(x, 700, 90, 30))


def _screen(*controls: Element, modal: bool = True, lines: tuple[TextLine, ...] = ()) -> Screen:
    return Screen("https://example.test/", "Example", lines, (TARGET, *controls), dialog_open=modal)


def test_the_least_consenting_control_is_chosen() -> None:
    cover = covering(
        _screen(
            _button("a", "Accept all", 100), _button("c", "×", 200), _button("r", "Reject all", 300)
        ),
        TARGET,
    )
    assert cover is not None and cover.name == "Cookies"
    chosen = dismisser(cover)
    assert chosen is not None and chosen.name == "Reject all"


def test_a_glyph_closes_when_nothing_better_is_there() -> None:
    cover = covering(_screen(_button("a", "Accept all", 100), _button("c", "×", 200)), TARGET)
    assert cover is not None
    chosen = dismisser(cover)
    assert chosen is not None and chosen.ref == "c"


def test_accepting_is_never_a_way_out() -> None:
    cover = covering(
        _screen(_button("a", "Accept all", 100), _button("s", "Settings", 200)), TARGET
    )
    assert cover is not None and dismisser(cover) is None


def test_a_control_that_cannot_be_undone_is_never_pressed() -> None:
    cover = covering(_screen(_button("d", "No, delete my account", 100)), TARGET)
    assert cover is not None and dismisser(cover) is None


def test_the_cover_reads_its_heading_and_words() -> None:
    lines = (
        TextLine("Sign in to continue", Box(100, 600, 300, 30), heading=2),
        TextLine("Members only", Box(100, 640, 200, 17)),
        TextLine("Top story", Box(100, 100, 200, 20)),
    )
    cover = covering(
        _screen(_button("x", "Close", 100, section="Sign in to continue"), lines=lines), TARGET
    )
    assert cover is not None
    assert "Sign in to continue" in cover.text and "Members only" in cover.text
    assert "Top story" not in cover.text


def test_without_a_modal_controls_near_the_target_are_no_cover_unless_they_close_one() -> None:
    beside = Element("e2", "link", "Sport", box=Box(320, 100, 60, 20))
    covered = Element("e3", "link", "Weather", on_top=False, box=Box(400, 100, 60, 20))
    news = Element("e4", "link", "News", box=Box(500, 100, 60, 20))
    plain = _screen(
        beside, covered, news, Element("e6", "link", "Home", box=Box(0, 0, 60, 20)), modal=False
    )
    assert covering(plain, TARGET) is None
    banner = _screen(
        beside, Element("e5", "button", "No thanks", box=Box(320, 140, 80, 30)), modal=False
    )
    cover = covering(banner, TARGET)
    assert cover is not None
    chosen = dismisser(cover)
    assert chosen is not None and chosen.name == "No thanks"
