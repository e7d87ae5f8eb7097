"""Grounding hints: what the words resolved to last time is tried first."""

from __future__ import annotations

from screens.decide_build import load

from gofer.decide import HINT_FLOOR, Query, Want, ground, hint_for, learn_hint, site_of
from gofer.runtime.types import GroundingHint

RESULTS = "results"


def test_site_of() -> None:
    assert site_of("https://Shop.Example:8443/cart?x=1") == "https://shop.example:8443"
    assert site_of("http://127.0.0.1:8765/") == "http://127.0.0.1:8765"
    assert site_of("about:blank") == ""


def test_learn_then_find_the_hint() -> None:
    screen = load("checkout")
    query = Query("Pay", Want.ACTION, kind="stop_before")
    pay = next(e for e in screen.elements if e.name.startswith("Pay now"))
    hint = learn_hint(query, pay, site_of(screen.url))
    assert hint == GroundingHint(
        site_of(screen.url), "stop_before", "Pay", "button", "Pay now ₹4,599"
    )
    assert hint_for(query, screen, [hint]) == hint
    assert hint_for(Query("pay", Want.ACTION, kind="stop_before"), screen, [hint]) == hint
    assert hint_for(Query("Pay", Want.CLICK, kind="click"), screen, [hint]) is None
    other_site = GroundingHint(
        "https://elsewhere.example", "stop_before", "Pay", "button", "Pay now ₹4,599"
    )
    assert hint_for(query, screen, [other_site]) is None


def test_the_newest_hint_comes_first() -> None:
    screen = load("login")
    site = site_of(screen.url)
    new = GroundingHint(site, "click", "Go", "button", "Sign in")
    old = GroundingHint(site, "click", "Go", "link", "Help")
    assert hint_for(Query("Go", Want.CLICK, kind="click"), screen, [new, old]) == new


def test_a_hint_resolves_words_the_screen_does_not_use() -> None:
    screen = load("login")
    query = Query("Log me in", Want.CLICK, kind="click")
    without = ground(query, screen)
    assert without.low_confidence
    hint = GroundingHint(site_of(screen.url), "click", "Log me in", "button", "Sign in")
    g = ground(query, screen, [hint])
    assert g.element is not None and g.element.name == "Sign in"
    assert not g.low_confidence
    assert g.confidence >= HINT_FLOOR
    assert "remembered from an earlier run" in g.evidence


def test_a_hint_wins_over_a_closer_word_match() -> None:
    screen = load("login")
    hint = GroundingHint(site_of(screen.url), "click", "Sign in", "link", "Create an account")
    g = ground(Query("Sign in", Want.CLICK, kind="click"), screen, [hint])
    assert g.element is not None and g.element.name == "Create an account"
    assert g.candidates[1].element.name == "Sign in"


def test_a_hint_to_a_disabled_control_is_not_used() -> None:
    screen = load("passengers")
    hint = GroundingHint(site_of(screen.url), "click", "Continue", "button", "Continue to payment")
    g = ground(Query("Continue", Want.CLICK, kind="click"), screen, [hint])
    assert g.element is not None and g.element.name == "Continue"
    assert "remembered from an earlier run" not in g.evidence


def test_a_hint_for_duplicates_still_respects_within() -> None:
    screen = load(RESULTS)
    hint = GroundingHint(site_of(screen.url), "click", "Select", "button", "Select")
    g = ground(
        Query("Select", Want.CLICK, within="the fourth result", kind="click"), screen, [hint]
    )
    assert g.element is not None and g.element.record == (0, 3)
    assert not g.low_confidence
    g = ground(Query("Select", Want.CLICK, kind="click"), screen, [hint])
    assert g.low_confidence  # ten remembered "Select" buttons are still ten


def test_a_hint_whose_element_is_gone_is_ignored() -> None:
    screen = load("login")
    hint = GroundingHint(site_of(screen.url), "click", "Sign in", "button", "Log on")
    g = ground(Query("Sign in", Want.CLICK, kind="click"), screen, [hint])
    assert g.element is not None and g.element.name == "Sign in"
    assert "remembered from an earlier run" not in g.evidence
