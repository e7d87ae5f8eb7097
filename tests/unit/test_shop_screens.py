"""Real shops' pages (django-oscar's storefront and Cartridge's, captured from the corpus with
``tools/capture_screens.py --live``): what the grounder, the runtime and the gates
make of them."""

from __future__ import annotations

from dataclasses import replace

from screens.decide_build import load

from gofer.decide import Query, Want, ground
from gofer.decide.controls import pick_action
from gofer.decide.gates import judge
from gofer.decide.prepared import prepare
from gofer.flow import parse_flow
from gofer.runtime import (
    RunRequest,
    RunResult,
    RunStatus,
    RuntimeSettings,
    StepOutcome,
    Workspace,
    run_flow,
)
from gofer.safety import Consequence
from gofer.surfaces.screen import Element, Screen
from gofer.surfaces.testing import FakeSurface

FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


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


def _sort_select(screen: Screen) -> Element:
    return next(e for e in screen.elements if e.tag == "select" and e.display_name == "Sort by")


async def _run(page: FakeSurface, steps: list[dict[str, str]]) -> RunResult:
    return await run_flow(RunRequest(flow=parse_flow(steps)), Workspace.on(page), settings=FAST)


async def test_a_select_that_submits_its_page_is_done_when_the_new_page_shows_it() -> None:
    catalogue = load("oscar_catalogue")
    assert _sort_select(catalogue).value == "Relevancy"
    sorted_page = load("oscar_catalogue_sorted")
    page = FakeSurface(catalogue, after_select={_sort_select(catalogue).ref: sorted_page})
    result = await _run(page, [{"choose": "Price high to low", "in": "Sort by"}])
    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.steps[0].outcome is StepOutcome.DONE
    assert page.url.endswith("sort_by=price-desc")


async def test_a_select_whose_new_page_shows_another_option_is_not_done() -> None:
    catalogue = load("oscar_catalogue")
    # the page reloads but still sorts by relevancy
    page = FakeSurface(catalogue, after_select={_sort_select(catalogue).ref: catalogue})
    result = await _run(page, [{"choose": "Price high to low", "in": "Sort by"}])
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and "shows 'Relevancy'" in result.failure.reason


async def test_the_guest_radio_already_chosen_is_already_done() -> None:
    gateway = load("oscar_gateway")
    guest = next(e for e in gateway.elements if e.role == "radio" and "guest" in e.name)
    assert guest.checked
    for step in (
        {"choose": "checkout as a guest", "in": "Who are you?"},
        {"click": "I am a new customer and want to checkout as a guest"},
    ):
        page = FakeSurface(gateway)
        result = await _run(page, [step])
        assert result.status is RunStatus.COMPLETED, (step, result.failure)
        assert result.steps[0].outcome is StepOutcome.ALREADY_DONE, step
        assert page.clicked == []


def test_the_way_through_a_real_checkout_is_reversible() -> None:
    basket, gateway = load("oscar_basket"), load("oscar_gateway")
    for screen, words in ((basket, "Proceed to checkout"), (gateway, "Continue")):
        el = ground(Query(words, Want.CLICK), screen).element
        assert el is not None
        assert judge(el, screen) is Consequence.REVERSIBLE, words


# Cartridge (Mezzanine's shop), captured the same way: a product page whose "Buy"
# puts the product in the cart, a cart drawn as a table, a card form behind "Next".


def test_a_table_header_names_its_columns_fields_and_boxes() -> None:
    cart = load("cartridge_cart")
    qty = ground(Query("Qty", Want.FIELD), cart)
    assert qty.element is not None and qty.element.role == "spinbutton"
    assert not qty.low_confidence
    remove = ground(Query("Remove?", Want.CONTROL), cart)
    assert remove.element is not None and remove.element.role == "checkbox"
    # the side menu's "Home" shares the header row's line but heads nothing
    assert _column("cartridge_cart", qty.element.ref) == ["qty"]


def test_a_bare_buy_beside_a_quantity_puts_in_the_cart() -> None:
    product = load("cartridge_product")
    buy = next(e for e in product.elements if e.name == "Buy")
    assert judge(buy, product) is Consequence.REVERSIBLE
    # "Buy now" pays, here as anywhere
    now = replace(buy, name="Buy now", text="Buy now")
    assert judge(now, replace(product, elements=(now,))) is Consequence.PAYMENT
    # so does a "Buy" with no quantity beside it
    alone = tuple(e for e in product.elements if e.role != "spinbutton")
    assert judge(buy, replace(product, elements=alone)) is Consequence.PAYMENT


def test_a_bare_buy_on_a_card_form_pays() -> None:
    payment = load("cartridge_payment")
    product = load("cartridge_product")
    buy = next(e for e in product.elements if e.name == "Buy")
    qty = next(e for e in product.elements if e.role == "spinbutton")
    on_card = replace(payment, elements=(*payment.elements, buy, qty))
    assert judge(buy, on_card) is Consequence.PAYMENT


def test_stopping_before_paying_on_a_card_form_finds_the_button_that_sends_it() -> None:
    payment = load("cartridge_payment")
    found = pick_action("paying for the order", payment)
    assert found is not None
    assert found[0].name == "Next"  # not "Back" beside it, nor the search's "Go"
    # a job that asks to stop before something else is not stopped at the card form
    assert pick_action("deleting the account", payment) is None


async def test_clicking_the_card_forms_next_stops_at_payment() -> None:
    payment = load("cartridge_payment")
    page = FakeSurface(payment)
    result = await _run(page, [{"stop_before": "paying for the order"}])
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None
    assert (result.gate.label, result.gate.consequence) == ("Next", "payment")
    assert result.gate.payment_screen
    assert page.clicked == []


SMALL_BLUE = "Django Pony Size: Small, Colour: Blue"
MEDIUM_RED = "Django Pony Size: Medium, Colour: Red"


def test_a_cart_line_named_with_a_colon_is_that_line() -> None:
    # Cartridge names a cart line by its product and options, "Size: Medium, ...": the
    # whole phrase is on the screen, so the colon starts no description
    cart = load("cartridge_cart_two")
    for line in (SMALL_BLUE, MEDIUM_RED):
        row = next(r for g in cart.records for r in g.records if line in r.text)
        for words, want in (("Qty", Want.FIELD), ("Remove?", Want.CONTROL)):
            found = ground(Query(words, want, within=line), cart)
            assert found.element is not None and not found.low_confidence, (line, words)
            assert row.box.contains(found.element.box), (line, words)


async def test_a_within_that_names_both_lines_is_no_pick() -> None:
    cart = load("cartridge_cart_two")
    page = FakeSurface(cart)
    result = await _run(page, [{"enter": "5", "into": "Qty", "within": "Django Pony"}])
    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert "names 2 controls alike" in result.failure.reason
    for field in (e for e in cart.elements if e.role == "spinbutton"):
        assert await page.read_value(field.ref) == field.value  # nothing typed anywhere
