"""The grounder on saved page snapshots: which element a step's words mean."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from screens import decide_build
from screens.decide_build import load, with_changes

from gofer.decide import CLOSE_MARGIN, WEAK, Grounding, Query, Want, ground
from gofer.surfaces.screen import Element


@dataclass(frozen=True)
class Case:
    screen: str
    words: str
    want: Want
    role: str | None  # None: nothing should be found
    name: str = ""
    within: str | None = None
    record: int | None = None  # the record index the element must be in
    section: str | None = None
    low: bool = False

    @property
    def id(self) -> str:
        where = f" within {self.within}" if self.within else ""
        return f"{self.screen}: {self.want} {self.words!r}{where}"


CASES = [
    # login form: labels above fields, icon button, checkbox
    Case("login", "Email", Want.FIELD, "textbox", "Email address"),
    Case("login", "Password", Want.FIELD, "textbox", "Password"),
    Case("login", "Sign in", Want.CLICK, "button", "Sign in"),
    Case("login", "Show password", Want.CLICK, "button", "Show password"),
    Case("login", "Remember me", Want.OPTION, "checkbox", "Remember me"),
    Case("login", "Forgot password", Want.CLICK, "link", "Forgot password?"),
    Case("login", "the Sign in button", Want.CLICK, "button", "Sign in"),
    # checkout: labels beside fields, placeholder-only card fields, disabled button
    Case("checkout", "First name", Want.FIELD, "textbox", "First name *"),
    Case("checkout", "Phone", Want.FIELD, "textbox", "Phone number"),
    Case("checkout", "Card number", Want.FIELD, "textbox", section="Payment"),
    Case("checkout", "CVC", Want.FIELD, "textbox", "CVC"),
    Case("checkout", "MM/YY", Want.FIELD, "textbox", "MM / YY"),
    Case("checkout", "Discount code", Want.FIELD, "textbox", "Discount code"),
    Case("checkout", "Pay now", Want.ACTION, "button", "Pay now ₹4,599"),
    Case("checkout", "Back to cart", Want.CLICK, "link", "Back to cart"),
    Case("checkout", "Fly me to the moon", Want.CLICK, None),
    Case("checkout", "Expiry date", Want.FIELD, "textbox", "MM / YY"),
    Case("checkout", "CVV", Want.FIELD, "textbox", "CVC"),
    Case("checkout", "Cardholder name", Want.FIELD, "textbox", "Name on card"),
    Case("login", "Log in", Want.CLICK, "button", "Sign in"),
    # search form with floating labels inside the fields
    Case("search_inside", "Search flights", Want.CLICK, "button", "Search flights"),
    Case("search_inside", "From", Want.CONTROL, "combobox", "From"),
    Case("search_inside", "To", Want.CONTROL, "combobox", "To"),
    Case("search_inside", "Departure date", Want.CONTROL, "textbox", "Departure date"),
    Case("search_inside", "Passengers", Want.CONTROL, "combobox", "Passengers"),
    Case("search_inside", "swap", Want.CLICK, "button", "Swap origin and destination"),
    # placeholder-only search box and icon buttons named by aria-label
    Case("placeholder_only", "Search products", Want.FIELD, "searchbox"),
    Case("placeholder_only", "Search", Want.CLICK, "button", "Search"),
    Case("placeholder_only", "Cart", Want.CLICK, "button", "Cart (2 items)"),
    Case("placeholder_only", "Menu", Want.CLICK, "button", "Menu"),
    Case("placeholder_only", "Redeem", Want.CLICK, "clickable", "Redeem"),
    Case("placeholder_only", "Coupon", Want.FIELD, "textbox"),
    # repeated sections: same labels twice
    Case(
        "passengers",
        "First name",
        Want.FIELD,
        "textbox",
        "First name",
        within="Passenger 2",
        section="Passenger 2",
    ),
    Case(
        "passengers",
        "Last name",
        Want.FIELD,
        "textbox",
        "Last name",
        within="Passenger 1",
        section="Passenger 1",
    ),
    Case(
        "passengers",
        "First name",
        Want.FIELD,
        "textbox",
        "First name",
        section="Passenger 1",
        low=True,
    ),
    Case("passengers", "Continue", Want.CLICK, "button", "Continue"),
    Case("passengers", "Mobile", Want.FIELD, "textbox", "Mobile number"),
    # cards with duplicate "Select" buttons
    Case("results", "Select", Want.CLICK, "button", "Select", within="the first result", record=0),
    Case("results", "Select", Want.CLICK, "button", "Select", within="third flight", record=2),
    Case("results", "Select", Want.CLICK, "button", "Select", within="the 5th result", record=4),
    Case("results", "Select", Want.CLICK, "button", "Select", within="last item", record=9),
    Case("results", "Select", Want.CLICK, "button", "Select", within="IndiGo 6E 5024", record=4),
    Case("results", "Select", Want.CLICK, "button", "Select", within="Vistara UK 707", record=8),
    Case("results", "Select", Want.CLICK, "button", "Select", record=0, low=True),
    Case(
        "results",
        "Flight details",
        Want.CLICK,
        "link",
        "Flight details",
        within="the second result",
        record=1,
    ),
    Case("results", "Sort by", Want.CONTROL, "combobox", "Sort by"),
    Case("results", "IndiGo", Want.OPTION, "checkbox", "IndiGo", within="Airlines"),
    Case("results", "Departure", Want.CONTROL, "radio", section="Departure"),
    Case("results", "Before 6 AM", Want.OPTION, "radio", "Before 6 AM"),
    Case("results", "Load more", Want.CLICK, "button", "Load more results"),
    # a table with row actions
    Case("table", "Edit", Want.CLICK, "button", "Edit", within="Ben Ortiz", record=1),
    Case(
        "table", "Delete", Want.CLICK, "button", "Delete Chen Li", within="the last row", record=2
    ),
    Case("table", "Delete Asha Rao", Want.CLICK, "button", "Delete Asha Rao", record=0),
    Case("table", "Next page", Want.CLICK, "button", "Next page"),
    Case("table", "Invite member", Want.CLICK, "button", "Invite member"),
    # tabs, radio groups, a custom combobox
    Case("tabs_radios", "Round trip", Want.CLICK, "tab", "Round trip"),
    Case("tabs_radios", "Trip type", Want.CONTROL, "tab"),
    Case("tabs_radios", "Cabin class", Want.CONTROL, "radio", section="Cabin class"),
    Case("tabs_radios", "Business", Want.OPTION, "radio", "Business"),
    Case("tabs_radios", "Student", Want.OPTION, "radio", "Student", within="Fare type"),
    Case("tabs_radios", "Travellers", Want.CONTROL, "combobox", "Travellers"),
    Case("tabs_radios", "Flexible dates", Want.OPTION, "checkbox", "Flexible dates"),
    # a date picker
    Case("datepicker", "Departure date", Want.CONTROL, "button", "Departure date"),
    Case("datepicker", "Next month", Want.CLICK, "button", "Next month"),
    Case("datepicker", "Previous month", Want.CLICK, "button", "Previous month"),
    Case("datepicker", "Done", Want.CLICK, "button", "Done"),
    # a modal over the form and a cookie banner
    Case("cookie_modal", "No thanks", Want.CLICK, "clickable", "No thanks"),
    Case("cookie_modal", "Close", Want.CLICK, "button", "Close"),
    Case("cookie_modal", "Add to booking", Want.CLICK, "button", "Add to booking"),
    Case("cookie_modal", "Accept all", Want.CLICK, "button", "Accept all"),
    Case("cookie_modal", "Reject all", Want.CLICK, "button", "Reject all"),
    Case("cookie_modal", "Email", Want.FIELD, "textbox", "Email"),
    Case("cookie_modal", "Pay now", Want.ACTION, None),
    # the demo site: search, results, fares, passengers
    Case("demo_home", "From", Want.CONTROL, "combobox", "From"),
    Case("demo_home", "To", Want.CONTROL, "combobox", "To"),
    Case("demo_home", "Departure date", Want.CONTROL, "textbox", "Departure date"),
    Case("demo_home", "Search flights", Want.CLICK, "button", "Search flights"),
    Case("demo_home", "Round trip", Want.OPTION, "radio", "Round trip"),
    Case("demo_home", "Trip type", Want.CONTROL, "radio", section="Trip type"),
    Case("demo_home", "Passengers", Want.CONTROL, "combobox", "Passengers"),
    Case("demo_results", "Sort by", Want.CONTROL, "combobox", "Sort by"),
    Case(
        "demo_results",
        "Select",
        Want.CLICK,
        "button",
        "Select",
        within="the first result: airline, departure time and price",
        record=0,
    ),
    Case(
        "demo_results",
        "Select",
        Want.CLICK,
        "button",
        "Select",
        within="Indus Air IU 639",
        record=1,
    ),
    Case("demo_results", "Select", Want.CLICK, "button", "Select", within="last flight", record=9),
    Case("demo_results", "Monsoon Jet", Want.OPTION, "checkbox", "Monsoon Jet", within="Airlines"),
    Case("demo_results", "Non-stop", Want.OPTION, "checkbox", "Non-stop"),
    Case("demo_results", "Modify search", Want.CLICK, "link", "Modify search"),
    Case(
        "demo_fares",
        "Select",
        Want.CLICK,
        "clickable",
        "Select",
        within="Economy",
        record=0,
        section="Economy",
    ),
    Case(
        "demo_fares",
        "Select",
        Want.CLICK,
        "clickable",
        "Select",
        within="Premium",
        record=0,
        section="Premium",
    ),
    Case(
        "demo_fares",
        "Select",
        Want.CLICK,
        "clickable",
        "Select",
        within="the first result",
        record=0,
        section="Economy",
        low=True,
    ),
    Case("demo_fares", "Hide fares", Want.CLICK, "button", "Hide fares", record=0),
    Case("demo_passengers", "First name", Want.FIELD, "textbox", "First name"),
    Case("demo_passengers", "Last name", Want.FIELD, "textbox", "Last name"),
    Case("demo_passengers", "Email", Want.FIELD, "textbox", section="Contact details"),
    Case("demo_passengers", "Mobile number", Want.FIELD, "textbox", "Mobile number +91"),
    Case("demo_passengers", "Gender", Want.CONTROL, "radio", section="Gender (optional)"),
    Case("demo_passengers", "Male", Want.OPTION, "radio", "Male"),
    Case("demo_passengers", "Continue", Want.CLICK, "button", "Continue"),
]


def check(case: Case, g: Grounding) -> None:
    if case.role is None:
        assert g.element is None, g
        assert g.low_confidence
        assert case.words in g.reason
        return
    el = g.element
    assert el is not None, g.reason
    assert el.role == case.role, (el, g.evidence)
    if case.name:
        assert el.name == case.name, (el, g.evidence)
    if case.record is not None:
        assert el.record is not None and el.record[1] == case.record, el
    if case.section is not None:
        assert el.section == case.section, el
    assert g.low_confidence == case.low, (g.reason, g.candidates[:2])
    if case.low:
        assert g.reason
    else:
        assert g.confidence >= WEAK
    assert g.evidence


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_grounds_the_element_a_person_would(case: Case) -> None:
    g = ground(Query(case.words, case.want, case.within), load(case.screen))
    check(case, g)


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 45
    assert len({c.screen for c in CASES}) >= 12


def test_a_submit_button_beats_a_longer_link_with_the_same_words() -> None:
    g = ground(Query("Search flights", Want.CLICK), load("search_inside"))
    assert g.element is not None and g.element.role == "button"
    assert not g.low_confidence
    link = next(c for c in g.candidates if c.element.role == "link")
    assert g.confidence - link.score > CLOSE_MARGIN


def test_a_field_beats_a_button_with_the_same_words() -> None:
    screen = load("placeholder_only")
    g = ground(Query("Search", Want.FIELD), screen)
    assert g.element is not None and g.element.role == "searchbox"
    g = ground(Query("Search", Want.CLICK), screen)
    assert g.element is not None and g.element.role == "button"


def test_duplicates_report_both_and_take_the_first_in_reading_order() -> None:
    g = ground(Query("Select", Want.CLICK), load("results"))
    assert g.low_confidence
    assert "two controls match 'Select' equally" in g.reason
    assert [c.element.record for c in g.candidates][:3] == [(0, 0), (0, 1), (0, 2)]
    assert len(g.candidates) == 5


def test_nothing_inside_the_region_is_not_found_elsewhere() -> None:
    g = ground(Query("Invite member", Want.CLICK, within="the first row"), load("table"))
    assert g.element is None
    assert "inside the first row" in g.reason


def test_a_region_that_is_not_on_the_screen_lowers_confidence() -> None:
    g = ground(Query("Continue", Want.CLICK, within="the seventh result"), load("passengers"))
    assert g.element is not None and g.element.name == "Continue"
    assert g.low_confidence
    assert "could not find 'the seventh result'" in g.reason


def test_a_disabled_control_is_found_but_reported() -> None:
    g = ground(Query("Apply", Want.CLICK), load("checkout"))
    assert g.element is not None and g.element.disabled
    assert "disabled" in g.evidence


def test_an_enabled_control_beats_a_disabled_one_with_the_same_name() -> None:
    screen = load("passengers")
    disabled = next(e for e in screen.elements if e.name == "Continue to payment")
    g = ground(Query("Continue to payment", Want.CLICK), screen)
    assert g.element == disabled
    twin = with_changes(
        screen,
        next(e.ref for e in screen.elements if e.name == "Continue"),
        name="Continue to payment",
        text="Continue to payment",
    )
    g = ground(Query("Continue to payment", Want.CLICK), twin)
    assert g.element is not None and not g.element.disabled
    assert not g.low_confidence


def test_a_covered_field_is_kept_with_the_popup_in_its_evidence() -> None:
    g = ground(Query("Email", Want.FIELD), load("cookie_modal"))
    assert g.element is not None and not g.element.on_top
    assert "covered by a popup" in g.evidence
    assert g.confidence < 1.0


def test_a_hidden_element_loses_to_a_visible_one() -> None:
    screen = load("login")
    sign_in = next(e for e in screen.elements if e.name == "Sign in")
    screen = with_changes(screen, sign_in.ref, visible=False)
    g = ground(Query("Sign in", Want.CLICK), screen)
    assert g.element is not None and g.element.ref == sign_in.ref
    assert "hidden" in g.evidence
    assert g.low_confidence and "weak" in g.reason


def test_excluded_refs_are_skipped() -> None:
    screen = load("results")
    first = ground(Query("Select", Want.CLICK), screen).element
    assert first is not None
    g = ground(Query("Select", Want.CLICK, exclude=frozenset({first.ref})), screen)
    assert g.element is not None and g.element.record == (0, 1)


def test_a_typo_is_matched_fuzzily_with_its_score_in_the_evidence() -> None:
    g = ground(Query("Serch flights", Want.CLICK), load("search_inside"))
    assert g.element is not None and g.element.name == "Search flights"
    assert any(e.startswith("fuzzy") for e in g.evidence)


def test_weak_words_are_reported_as_weak() -> None:
    g = ground(Query("Continue booking now please", Want.CLICK), load("passengers"))
    assert g.element is not None and g.element.name == "Continue"
    assert g.low_confidence
    assert g.confidence < WEAK
    assert "the best match for 'Continue booking now please' is weak" in g.reason


def test_unlinked_labels_beside_fields_name_them() -> None:
    """Hand-built: the snapshot gives no label, only text lines beside the fields."""
    screen = decide_build.placeholder_only()
    for words in ("Your email", "Coupon"):
        g = ground(Query(words, Want.FIELD), screen)
        assert g.element is not None and g.element.role == "textbox", words
        assert "exact text beside it" in g.evidence
    coupon = ground(Query("Coupon", Want.FIELD), screen).element
    email = ground(Query("Your email", Want.FIELD), screen).element
    assert coupon != email


def test_a_place_named_by_a_plain_line_ranks_nearer_elements_first() -> None:
    """Hand-built: 'Travel insurance from ₹199' is a text line, not a section or record."""
    screen = decide_build.cookie_modal()
    g = ground(Query("Add to booking", Want.CLICK, within="Travel insurance"), screen)
    assert g.element is not None and g.element.name == "Add to booking"
    assert any(e.startswith("near 'Travel insurance") for e in g.evidence)


def test_sections_come_from_headings_when_elements_have_none() -> None:
    """Hand-built: elements carry no section; the heading's band decides."""
    screen = decide_build.passengers()
    bare = type(screen)(
        screen.url, screen.title, screen.lines, tuple(_without_section(e) for e in screen.elements)
    )
    g = ground(Query("Last name", Want.FIELD, within="Passenger 2"), bare)
    assert g.element is not None
    assert g.element.ref == next(
        e.ref for e in screen.elements if e.section == "Passenger 2" and e.name == "Last name"
    )
    assert not g.low_confidence


def _without_section(e: Element) -> Element:
    from dataclasses import replace

    return replace(e, section="")


def test_grounding_on_the_same_screen_object_reuses_its_preparation() -> None:
    from gofer.decide.prepared import prepare

    screen = load("demo_results")
    assert prepare(screen) is prepare(screen)
    assert prepare(load("demo_results")) is not prepare(screen)
