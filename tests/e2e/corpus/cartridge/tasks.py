"""The Cartridge tasks' one judge: a flow a shopper would write, and what the shop then
holds for the browser's session (its cart, discount code and checkout details). No
task may place an order; a run that says it reached its end (done, or stopped at the
payment gate) must have left exactly ``want``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Cartridge, shopper_details

SMALL_RED = "Django Pony Size: Small, Colour: Red"
LARGE_GREEN = "Django Pony Size: Large, Colour: Green"


@dataclass(frozen=True)
class Task:
    steps: Callable[[str], list[dict[str, Any]]]  # from the shop's address
    got: Callable[[dict[str, Any]], Any]  # what is judged of the session's state
    want: Any
    ends: RunStatus = RunStatus.COMPLETED  # GATED: stopped before paying


def buy_steps(url: str, size: str, colour: str) -> list[dict[str, Any]]:
    return [
        {"browse": url + "shop/product/django-pony/"},
        {"choose": size, "in": "Size"},
        {"choose": colour, "in": "Colour"},
        {"click": "Buy"},
    ]


BILLING = {
    "first name": "First name",
    "last name": "Last name",
    "street": "Street",
    "city": "City/Suburb",
    "region": "State/Region",
    "postcode": "Zip/Postcode",
    "country": "Country",
    "phone": "Phone",
    "email": "Email",
}


def checkout_steps(
    url: str, choices: list[dict[str, Any]], delivery: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """The product page's ``choices``, into the cart, to the checkout, the billing
    details from the facts (conftest.shopper_details), the ``delivery`` steps, then up
    to paying and no further."""
    return [
        {"browse": url + "shop/"},
        {"click": "Django Pony"},
        *choices,
        {"click": "Buy"},
        {"click": "Go to Checkout"},
        *(
            {"enter": f"${{{fact}}}", "into": label, "within": "Billing Details"}
            for fact, label in BILLING.items()
        ),
        *delivery,
        {"click": "Next"},
        {"stop_before": "paying for the order"},
    ]


def order_state(state: dict[str, Any], given: str, keys: tuple[str, ...], other: str) -> Any:
    """The cart, the ``given`` details' ``keys`` (``billing`` or ``shipping``) and the
    ``other`` details' city, as the checkout keeps them in the session."""
    order = state["order"]
    return (
        state["cart"],
        [order.get(f"{given}_detail_{k}") for k in keys],
        order.get(f"{other}_detail_city"),
    )


async def judge(task: Task, run_open: Opener, cartridge: Cartridge) -> None:
    before = cartridge.orders()
    async with run_open(task.steps(cartridge.url), facts=shopper_details()) as done:
        result = done.result
        state = await cartridge.shopper_state(done.page)
    assert cartridge.orders() == before
    if result.status is task.ends:
        assert task.got(state) == task.want, f"{result.status.value} with the wrong state: {state}"
    assert result.status is task.ends, (
        result.failure,
        [(s.kind, s.outcome.value, s.reason) for s in result.steps],
    )
    if task.ends is RunStatus.GATED:
        assert result.gate is not None and result.gate.consequence == "payment"
