"""decide.gates on captured screens: what pressing a control does, judged from what it is
and where it sits as well as its words; card forms from their fields; login walls from
what blocks the content."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from gofer.decide.gates import blocking_text, card_evidence, judge, wall_on
from gofer.safety import Consequence
from gofer.surfaces.screen import Box, Element, Screen, TextLine, screen_from_dict

SCREENS = Path(__file__).parent / "screens"
P, I, R = Consequence.PAYMENT, Consequence.IRREVERSIBLE, Consequence.REVERSIBLE  # noqa: E741


def _screen(name: str) -> Screen:
    return screen_from_dict(json.loads((SCREENS / f"{name}.json").read_text()))


def _named(screen: Screen, name: str, nth: int = 0) -> Element:
    return [e for e in screen.elements if e.display_name == name][nth]


CASES = [
    # A record's Delete is a link to the "Are you sure?" page: going there deletes nothing.
    ("gate_admin_record", "Delete", 0, R),
    # Links that delete by script (Rails' data-method, an onclick confirm, href="#").
    ("gate_admin_record", "Delete note", 0, I),
    ("gate_admin_record", "Delete note", 1, I),
    ("gate_admin_record", "Delete note", 2, I),
    ("gate_admin_record", "Save", 0, R),
    # The confirmation page's button is as grave as what it asks about.
    ("gate_confirm_delete", "Yes, I’m sure", 0, I),
    ("gate_confirm_delete", "No, take me back", 0, R),
    # A basket: Remove on a line, clearing the basket, a chip's ×, going to checkout.
    ("gate_basket", "Remove", 0, R),
    ("gate_basket", "Remove", 1, R),
    ("gate_basket", "Clear basket", 0, R),
    ("gate_basket", "Remove Red", 0, R),
    ("gate_basket", "Proceed to checkout", 0, R),
    # Filters and a selection are taken out; messages and accounts are deleted.
    ("gate_inbox", "Remove filter Unread", 0, R),
    ("gate_inbox", "Remove From Asha", 0, R),
    ("gate_inbox", "Clear all", 0, R),
    ("gate_inbox", "Remove selected", 0, R),
    ("gate_inbox", "Delete message", 0, I),
    ("gate_inbox", "Remove", 0, I),
    ("gate_inbox", "Delete account", 0, I),
    # A selection widget's chips.
    ("chips", "Remove item: 'German'", 0, R),
]


@pytest.mark.parametrize(
    ("page", "name", "nth", "expected"), CASES, ids=[f"{c[0]}:{c[1]}:{c[2]}" for c in CASES]
)
def test_judge_on_a_captured_screen(page: str, name: str, nth: int, expected: Consequence) -> None:
    screen = _screen(page)
    assert judge(_named(screen, name, nth), screen) is expected


def test_a_link_to_the_page_it_is_on_is_judged_by_its_words() -> None:
    screen = _screen("gate_admin_record")
    delete = _named(screen, "Delete")
    assert judge(replace(delete, href=screen.url), screen) is I
    assert judge(replace(delete, href=screen.url + "#confirm"), screen) is I
    assert judge(replace(delete, role="button"), screen) is I


def test_a_payment_link_stays_a_payment() -> None:
    screen = _screen("gate_basket")
    link = replace(_named(screen, "Sign in"), name="Place order")
    assert judge(link, screen) is P


def test_a_removal_of_something_grave_stays_irreversible_in_a_basket() -> None:
    screen = _screen("gate_basket")
    line = _named(screen, "Remove")
    assert judge(replace(line, name="Remove account"), screen) is I
    assert judge(replace(line, name="Delete all messages"), screen) is I


def test_delete_takes_out_only_where_the_page_says_basket() -> None:
    """Amazon's basket says "Delete" for a line; an admin's order lines (a quantity and
    a price too) delete for real."""
    basket = _screen("gate_basket")
    line = replace(_named(basket, "Remove"), name="Delete")
    assert judge(line, basket) is R
    admin = replace(
        basket,
        title="Order 1042 · Admin",
        lines=tuple(
            TextLine("Order 1042", t.box, t.heading) if t.heading else t for t in basket.lines
        ),
        records=tuple(replace(g, name="Order 1042") for g in basket.records),
    )
    order_line = replace(line, section="Order 1042")
    assert judge(order_line, admin) is I
    assert judge(replace(order_line, name="Remove"), admin) is R  # a basket-like line


def test_yes_on_a_page_that_asks_nothing_grave_is_reversible() -> None:
    screen = _screen("gate_confirm_delete")
    plain = replace(
        screen,
        lines=tuple(
            TextLine("Do you want to receive our newsletter?", line.box, line.heading)
            for line in screen.lines
        ),
    )
    assert judge(_named(plain, "Yes, I’m sure"), plain) is R


def test_continue_beside_a_note_that_cannot_be_undone_is_reversible_outside_a_dialog() -> None:
    """A booking page's small print ("changes cannot be undone") does not make its
    Continue grave; a dialog that says so over a "Yes" does."""
    line = TextLine("Name changes cannot be undone after booking.", Box(0, 0, 300, 20))
    go = Element("e1", "button", "Continue")
    yes = Element("e2", "button", "Yes")
    page = Screen("https://air.example/passengers", "Passengers", (line,), (go, yes))
    assert judge(go, page) is R
    assert judge(yes, page) is I
    assert judge(go, replace(page, dialog_open=True)) is I


def test_continue_below_a_pages_question_is_judged_by_its_words() -> None:
    """A help section asking "Do you want to cancel your booking?" does not make the
    page's Continue grave; the same question in a dialog does."""
    faq = TextLine("Do you want to cancel your booking? Call us.", Box(0, 0, 300, 20))
    go = Element("e1", "button", "Continue")
    page = Screen("https://air.example/seats", "Seats", (faq,), (go,))
    assert judge(go, page) is R
    assert judge(go, replace(page, dialog_open=True)) is I


def test_card_form_evidence_from_placeholders_and_autocomplete() -> None:
    screen = _screen("gate_card_placeholders")
    assert "card" not in screen.text.casefold()
    assert card_evidence(screen) == ("card number", "security code", "expiry date")
    by_autocomplete = replace(
        screen, elements=tuple(replace(e, placeholder="", name="") for e in screen.elements)
    )
    assert card_evidence(by_autocomplete) == ("card number", "security code", "expiry date")
    unmarked = replace(
        by_autocomplete,
        elements=tuple(replace(e, autocomplete="") for e in by_autocomplete.elements),
    )
    assert card_evidence(unmarked) == ()


def test_card_labels_on_fields_count() -> None:
    field = Element("e1", "textbox", "", label="Card number")
    screen = Screen("https://shop.example/pay", "Pay", (), (field,))
    assert card_evidence(screen) == ("card number",)
    hidden = replace(screen, elements=(replace(field, visible=False),))
    assert card_evidence(hidden) == ()


def test_header_sign_in_links_are_no_wall() -> None:
    screen = _screen("gate_signin_link")
    assert "Login or register" in screen.text
    assert wall_on(screen) is None
    assert "Login or register" not in blocking_text(screen)
    assert wall_on(_screen("gate_basket")) is None


def test_a_page_replaced_by_a_sign_in_form_is_a_login_wall() -> None:
    assert wall_on(_screen("gate_login_wall")) == "a login wall"


def test_a_layer_asking_to_log_in_over_the_page_is_a_login_wall() -> None:
    screen = _screen("gate_login_modal")
    assert wall_on(screen) == "a login wall"
    assert "Log in to keep reading" in blocking_text(screen)


def test_a_redirect_to_a_sign_in_form_is_a_login_wall() -> None:
    screen = _screen("gate_login_wall")
    quiet = replace(
        screen,
        lines=tuple(TextLine("Welcome back", line.box, line.heading) for line in screen.lines),
    )
    assert wall_on(quiet) is None
    moved = replace(quiet, url="https://shop.example/account/login?next=/orders")
    assert wall_on(moved) == "a login wall"
    for url in (
        "https://git.example/users/sign_in?return_to=%2Fsettings",
        "https://sso.example/auth/signin?redirect=/app",
        "https://x.example/logon?from=/",
    ):
        assert wall_on(replace(quiet, url=url)) == "a login wall", url
    assert wall_on(replace(quiet, url="https://shop.example/blog?from=/home")) is None


def test_a_captcha_anywhere_on_the_page_still_counts() -> None:
    screen = _screen("gate_signin_link")
    line = TextLine("Verify you are human", Box(0, 500, 300, 20))
    assert wall_on(replace(screen, lines=(*screen.lines, line))) == "a human check"


def test_an_email_first_sign_in_that_replaced_the_page_is_a_login_wall() -> None:
    lines = (
        TextLine("Sign in", Box(0, 0, 200, 30), heading=1),
        TextLine("to continue to Mail", Box(0, 40, 200, 20)),
    )
    email = Element("e1", "textbox", "Email or phone", input_type="email", autocomplete="username")
    page = Screen(
        "https://accounts.example/signin",
        "Sign in",
        lines,
        (email, Element("e2", "button", "Next")),
    )
    assert wall_on(page) == "a login wall"
    # The same words on a page without a sign-in form are a header's, not a wall.
    assert wall_on(replace(page, elements=(Element("e2", "button", "Next"),))) is None
