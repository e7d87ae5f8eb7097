"""A real shop's pages (django-oscar's storefront, captured from the corpus with
``tools/capture_screens.py --live``): what the grounder, the runtime and the gates
make of them."""

from __future__ import annotations

from screens.decide_build import load

from gofer.decide import Query, Want, ground
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
