"""Cartridge's cart as a shopper uses it: a table whose quantity fields and remove
boxes are named only by their columns' headers ("Qty", "Remove?"), and a discount
code. Judged by the cart Cartridge keeps for the browser's session (tasks.py)."""

from __future__ import annotations

import pytest

from ...conftest import Opener
from .conftest import Cartridge
from .tasks import LARGE_GREEN, SMALL_RED, Task, buy_steps, judge

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

TASKS: dict[str, Task] = {
    "change-a-quantity-named-by-its-column": Task(
        lambda url: [
            *buy_steps(url, "Small", "Red"),
            {"enter": "4", "into": "Qty"},
            {"click": "Update Cart"},
            {"wait": {"shows": "£20.00"}},
        ],
        lambda state: state["cart"],
        [[SMALL_RED, 4]],
    ),
    "remove-an-item-by-its-column-box": Task(
        lambda url: [
            *buy_steps(url, "Small", "Red"),
            *buy_steps(url, "Large", "Green"),
            {"choose": "Remove?", "in": "Remove?", "within": SMALL_RED},
            {"click": "Update Cart"},
            {"wait": {"not_shows": SMALL_RED}},
        ],
        lambda state: state["cart"],
        [[LARGE_GREEN, 1]],
    ),
    "apply-a-discount-code": Task(
        lambda url: [
            *buy_steps(url, "Medium", "Yellow"),
            {"enter": "3", "into": "Qty"},
            {"click": "Update Cart"},
            {"enter": "PONY10", "into": "Discount code"},
            {"click": "Apply"},
            {"wait": {"shows": "Discount"}},
        ],
        lambda state: (state["discount"], state["cart"]),
        ("PONY10", [["Django Pony Size: Medium, Colour: Yellow", 3]]),
    ),
}


@pytest.mark.parametrize("name", list(TASKS))
async def test_cart_task(name: str, run_open: Opener, cartridge: Cartridge) -> None:
    await judge(TASKS[name], run_open, cartridge)
