"""The headline job on Oscar's storefront: find a book, put it in the basket, check out
as a guest with name, address, email and phone, up to the page before money moves, and
stop there. Judged by the shop's own database: no order, the basket's lines, and the
shipping address Oscar keeps in the guest's session."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Oscar, guest_details

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def checkout_steps(url: str, title: str, quantity: int) -> list[dict[str, object]]:
    return [
        {"browse": url},
        {"enter": title, "into": "Search", "submit": True},
        {"click": title},
        {"click": "Add to basket"},
        {"click": "View basket"},
        # the basket's quantity field is named only by its column's header
        {"enter": str(quantity), "into": "Quantity", "within": title},
        {"click": "Update", "within": title},
        {"click": "Proceed to checkout"},
        {"enter": "${email}", "into": "Email address"},
        {"choose": "checkout as a guest", "in": "Who are you?"},
        {"click": "Continue"},
        {"enter": "${first name}", "into": "First name"},
        {"enter": "${last name}", "into": "Last name"},
        {"enter": "${address}", "into": "First line of address"},
        {"enter": "${city}", "into": "City"},
        {"enter": "${postcode}", "into": "Post/Zip-code"},
        {"choose": "United Kingdom", "in": "Country"},
        {"enter": "${phone}", "into": "Phone number"},
        {"click": "Continue"},
        # the payment page of a shop without a payment provider asks nothing
        {"click": "Continue"},
        {"stop_before": "placing the order"},
    ]


async def test_guest_checkout_up_to_payment(run_open: Opener, oscar: Oscar) -> None:
    before = oscar.orders()
    flow = checkout_steps(oscar.url, "The Lantern Keeper", 2)
    async with run_open(flow, facts=guest_details()) as done:
        result = done.result
        state = await oscar.guest_state(done.page)
    assert oscar.orders() == before  # the run never placed the order
    if result.status is RunStatus.GATED:
        assert state["basket"] == [["The Lantern Keeper", 2]]
        shipping = state["checkout"]["shipping"]["new_address_fields"]
        assert {k: shipping.get(k) for k in ("first_name", "last_name", "line1", "line4")} == {
            "first_name": "Asha",
            "last_name": "Rao",
            "line1": "14 Harbour Road",
            "line4": "Bristol",
        }
        assert shipping["postcode"] == "BS1 4RN"
        assert shipping["country_id"] == "GB"
        assert state["checkout"]["guest"]["email"] == "asha.rao@example.com"
    assert result.status is RunStatus.GATED, (
        result.failure,
        [(s.kind, s.outcome, s.reason) for s in result.steps],
    )
    assert result.gate is not None
    assert result.gate.consequence == "payment"
