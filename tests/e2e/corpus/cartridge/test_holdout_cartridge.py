"""Held-out tasks on Cartridge's shop (run only before the issue is resolved): the
headline job delivering to another address, and a cart changed in two columns at
once."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Cartridge, shopper_details

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session"), pytest.mark.holdout]


async def test_checkout_delivering_elsewhere_up_to_payment(
    run_open: Opener, cartridge: Cartridge
) -> None:
    before = cartridge.orders()
    billing = "Billing Details"
    delivery = "Delivery Details"
    flow = [
        {"browse": cartridge.url + "shop/"},
        {"click": "Django Pony"},
        {"choose": "Large", "in": "Size"},
        {"choose": "Green", "in": "Colour"},
        {"enter": "3", "into": "Quantity"},
        {"click": "Buy"},
        {"click": "Go to Checkout"},
        {"enter": "${first name}", "into": "First name", "within": billing},
        {"enter": "${last name}", "into": "Last name", "within": billing},
        {"enter": "${street}", "into": "Street", "within": billing},
        {"enter": "${city}", "into": "City/Suburb", "within": billing},
        {"enter": "${region}", "into": "State/Region", "within": billing},
        {"enter": "${postcode}", "into": "Zip/Postcode", "within": billing},
        {"enter": "${country}", "into": "Country", "within": billing},
        {"enter": "${phone}", "into": "Phone", "within": billing},
        {"enter": "${email}", "into": "Email", "within": billing},
        {"click": "My delivery details are the same as my billing details"},
        {"enter": "Anil", "into": "First name", "within": delivery},
        {"enter": "Menon", "into": "Last name", "within": delivery},
        {"enter": "5 Temple Road", "into": "Street", "within": delivery},
        {"enter": "Thrissur", "into": "City/Suburb", "within": delivery},
        {"enter": "Kerala", "into": "State/Region", "within": delivery},
        {"enter": "680001", "into": "Zip/Postcode", "within": delivery},
        {"enter": "India", "into": "Country", "within": delivery},
        {"enter": "+91 487 555 0100", "into": "Phone", "within": delivery},
        {"click": "Next"},
        {"stop_before": "paying for the order"},
    ]
    async with run_open(flow, facts=shopper_details()) as done:
        result = done.result
        state = await cartridge.shopper_state(done.page)
    assert cartridge.orders() == before
    if result.status is RunStatus.GATED:
        assert state["cart"] == [["Django Pony Size: Large, Colour: Green", 3]]
        order = state["order"]
        assert [order.get(f"shipping_detail_{k}") for k in ("first_name", "street", "city")] == [
            "Anil",
            "5 Temple Road",
            "Thrissur",
        ]
        assert order.get("billing_detail_city") == "Kochi"
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None and result.gate.consequence == "payment"


async def test_change_one_item_and_remove_another(run_open: Opener, cartridge: Cartridge) -> None:
    small_blue = "Django Pony Size: Small, Colour: Blue"
    medium_red = "Django Pony Size: Medium, Colour: Red"
    flow = []
    for size, colour in (("Small", "Blue"), ("Medium", "Red")):
        flow += [
            {"browse": cartridge.url + "shop/product/django-pony/"},
            {"choose": size, "in": "Size"},
            {"choose": colour, "in": "Colour"},
            {"click": "Buy"},
        ]
    flow += [
        {"enter": "5", "into": "Qty", "within": medium_red},
        {"choose": "Remove?", "in": "Remove?", "within": small_blue},
        {"click": "Update Cart"},
        {"wait": {"not_shows": small_blue}},
    ]
    async with run_open(flow) as done:
        result = done.result
        state = await cartridge.shopper_state(done.page)
    if result.status is RunStatus.COMPLETED:
        assert state["cart"] == [[medium_red, 5]]
    assert result.status is RunStatus.COMPLETED, result.failure
