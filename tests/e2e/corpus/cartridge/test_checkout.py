"""The headline job on Cartridge's shop: choose the product's size and colour and a
quantity, put it in the cart, check out with billing details, up to the payment step,
and stop there. Judged by the shop's own database: no order, the cart's items, and the
details Cartridge keeps in the session."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Cartridge, shopper_details

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_checkout_up_to_payment(run_open: Opener, cartridge: Cartridge) -> None:
    before = cartridge.orders()
    flow = [
        {"browse": cartridge.url + "shop/"},
        {"click": "Django Pony"},
        {"enter": "2", "into": "Quantity"},
        {"choose": "Medium", "in": "Size"},
        {"choose": "Blue", "in": "Colour"},
        {"click": "Buy"},
        {"click": "Go to Checkout"},
        {"enter": "${first name}", "into": "First name", "within": "Billing Details"},
        {"enter": "${last name}", "into": "Last name", "within": "Billing Details"},
        {"enter": "${street}", "into": "Street", "within": "Billing Details"},
        {"enter": "${city}", "into": "City/Suburb", "within": "Billing Details"},
        {"enter": "${region}", "into": "State/Region", "within": "Billing Details"},
        {"enter": "${postcode}", "into": "Zip/Postcode", "within": "Billing Details"},
        {"enter": "${country}", "into": "Country", "within": "Billing Details"},
        {"enter": "${phone}", "into": "Phone", "within": "Billing Details"},
        {"enter": "${email}", "into": "Email", "within": "Billing Details"},
        {"click": "Next"},
        {"stop_before": "paying for the order"},
    ]
    async with run_open(flow, facts=shopper_details()) as done:
        result = done.result
        state = await cartridge.shopper_state(done.page)
    assert cartridge.orders() == before
    if result.status is RunStatus.GATED:
        assert state["cart"] == [["Django Pony Size: Medium, Colour: Blue", 2]]
        order = state["order"]
        assert [order.get(f"billing_detail_{k}") for k in ("first_name", "street", "email")] == [
            "Ravi",
            "22 Lake View Road",
            "ravi.menon@example.com",
        ]
        assert order.get("shipping_detail_city") == "Kochi"  # same as billing
    assert result.status is RunStatus.GATED, (
        result.failure,
        [(s.kind, s.outcome.value, s.reason) for s in result.steps],
    )
    assert result.gate is not None and result.gate.consequence == "payment"
