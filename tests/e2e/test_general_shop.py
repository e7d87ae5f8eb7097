"""A Shopify-style store: product cards, a cart drawer, floating labels, a portal
combobox and card fields in iframes, run as one flow up to the payment button."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from gofer.runtime import RunStatus, StepOutcome

from .conftest import Runner
from .sites import shop
from .sites.base import Site, serve

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@pytest_asyncio.fixture(loop_scope="session")
async def store() -> AsyncIterator[Site]:
    async with serve(shop.build()) as site:
        yield site


CARD = {"card number": "4242 4242 4242 4242", "expiry": "12 / 29", "cvc": "123"}


async def test_cart_drawer_steppers_and_checkout_gate(run: Runner, store: Site) -> None:
    """Duplicate "Add to cart" buttons told apart by the product, the drawer's +/−
    buttons named only by aria-label; "Checkout" leads on to the shipping form without
    asking, and "Continue to payment" stops the run as a payment."""
    result = await run(
        {
            "steps": [
                {"browse": store.url("/")},
                {"click": "Add to cart", "within": "Canvas Tote"},
                {"verify": {"shows": "Subtotal $24.50"}},
                {"click": "Increase quantity", "within": "Canvas Tote"},
                {"verify": {"shows": "Subtotal $49.00"}},
                {"click": "Checkout"},
                {"enter": "ada@example.com", "into": "Email"},
                {"click": "Continue to payment"},
            ],
        }
    )
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None
    assert (result.gate.label, result.gate.consequence) == ("Continue to payment", "payment")
    assert store.sent("/cart/add") == [{"item": "Canvas Tote", "quantity": 1}]
    assert store.sent("/cart") == [{"Canvas Tote": 2}]
    assert store.sent("/checkout") == []


async def test_shipping_form_with_floating_labels_and_portal_combobox(
    run: Runner, store: Site
) -> None:
    store.state["cart"] = {"Canvas Tote": 2}
    result = await run(
        {
            "steps": [
                {"browse": store.url("/checkout")},
                {"enter": "ada@example.com", "into": "Email"},
                {"enter": "Ada", "into": "First name"},
                {"enter": "Lovelace", "into": "Last name"},
                {"enter": "12 Analytical Way", "into": "Address"},
                {"enter": "Portland", "into": "City"},
                {"choose": "United States", "in": "Country"},
                {"choose": "Oregon", "in": "State"},
                {"enter": "97201", "into": "ZIP code"},
                {"click": "Continue to payment"},
                {"verify": {"shows": "Ship to Ada Lovelace, Portland, Oregon 97201"}},
            ],
        },
        allow_destructive=True,
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert store.sent("/checkout") == [
        {
            "email": "ada@example.com",
            "first_name": "Ada",
            "last_name": "Lovelace",
            "address1": "12 Analytical Way",
            "city": "Portland",
            "country": "US",
            "state": "Oregon",
            "zip": "97201",
        }
    ]


async def test_card_fields_in_iframes_then_stop_before_paying(run: Runner, store: Site) -> None:
    store.state["shipping"] = {"first_name": "Ada", "last_name": "Lovelace"}
    result = await run(
        {
            "steps": [
                {"browse": store.url("/checkout/payment")},
                {"enter": "${card number}", "into": "Card number"},
                {"enter": "${expiry}", "into": "MM / YY"},
                {"enter": "${cvc}", "into": "CVC"},
                {"stop_before": "paying for the order"},
            ],
        },
        facts=CARD,
        private=frozenset(CARD),
    )
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None
    assert (result.gate.label, result.gate.consequence) == ("Pay $49.00", "payment")
    assert [r.outcome for r in result.steps[1:4]] == [StepOutcome.DONE] * 3
    assert [r.element.role for r in result.steps[1:4] if r.element] == ["textbox"] * 3
    assert result.steps[-1].outcome is StepOutcome.GATED
    assert store.sent("/pay") == []
