"""Held-out tasks on Cartridge's shop (run only before the issue is resolved): the
headline job delivering to another address, and a cart changed in two columns at
once."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Cartridge
from .tasks import Task, buy_steps, checkout_steps, judge, order_state

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session"), pytest.mark.holdout]

DELIVERY = "Delivery Details"
SMALL_BLUE = "Django Pony Size: Small, Colour: Blue"
MEDIUM_RED = "Django Pony Size: Medium, Colour: Red"


TASKS: dict[str, Task] = {
    "checkout-delivering-elsewhere-up-to-payment": Task(
        lambda url: checkout_steps(
            url,
            [
                {"choose": "Large", "in": "Size"},
                {"choose": "Green", "in": "Colour"},
                {"enter": "3", "into": "Quantity"},
            ],
            [
                {"click": "My delivery details are the same as my billing details"},
                {"enter": "Anil", "into": "First name", "within": DELIVERY},
                {"enter": "Menon", "into": "Last name", "within": DELIVERY},
                {"enter": "5 Temple Road", "into": "Street", "within": DELIVERY},
                {"enter": "Thrissur", "into": "City/Suburb", "within": DELIVERY},
                {"enter": "Kerala", "into": "State/Region", "within": DELIVERY},
                {"enter": "680001", "into": "Zip/Postcode", "within": DELIVERY},
                {"enter": "India", "into": "Country", "within": DELIVERY},
                {"enter": "+91 487 555 0100", "into": "Phone", "within": DELIVERY},
            ],
        ),
        lambda state: order_state(state, "shipping", ("first_name", "street", "city"), "billing"),
        (
            [["Django Pony Size: Large, Colour: Green", 3]],
            ["Anil", "5 Temple Road", "Thrissur"],
            "Kochi",
        ),
        ends=RunStatus.GATED,
    ),
    "change-one-item-and-remove-another": Task(
        lambda url: [
            *buy_steps(url, "Small", "Blue"),
            *buy_steps(url, "Medium", "Red"),
            {"enter": "5", "into": "Qty", "within": MEDIUM_RED},
            {"choose": "Remove?", "in": "Remove?", "within": SMALL_BLUE},
            {"click": "Update Cart"},
            {"wait": {"not_shows": SMALL_BLUE}},
        ],
        lambda state: state["cart"],
        [[MEDIUM_RED, 5]],
    ),
}


@pytest.mark.parametrize("name", list(TASKS))
async def test_cartridge_holdout_task(name: str, run_open: Opener, cartridge: Cartridge) -> None:
    await judge(TASKS[name], run_open, cartridge)
