"""Cartridge's cart as a shopper uses it: a table whose quantity fields and remove
boxes are named only by their columns' headers ("Qty", "Remove?"), and a discount
code. Judged by the cart Cartridge keeps for the browser's session."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Cartridge

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SMALL_RED = "Django Pony Size: Small, Colour: Red"
LARGE_GREEN = "Django Pony Size: Large, Colour: Green"


def buy_steps(url: str, size: str, colour: str) -> list[dict[str, object]]:
    return [
        {"browse": url + "shop/product/django-pony/"},
        {"choose": size, "in": "Size"},
        {"choose": colour, "in": "Colour"},
        {"click": "Buy"},
    ]


async def test_change_a_quantity_named_by_its_column(
    run_open: Opener, cartridge: Cartridge
) -> None:
    flow = [
        *buy_steps(cartridge.url, "Small", "Red"),
        {"enter": "4", "into": "Qty"},
        {"click": "Update Cart"},
        {"wait": {"shows": "£20.00"}},
    ]
    async with run_open(flow) as done:
        result = done.result
        state = await cartridge.shopper_state(done.page)
    if result.status is RunStatus.COMPLETED:
        assert state["cart"] == [[SMALL_RED, 4]]
    assert result.status is RunStatus.COMPLETED, result.failure


async def test_remove_an_item_by_its_column_box(run_open: Opener, cartridge: Cartridge) -> None:
    flow = [
        *buy_steps(cartridge.url, "Small", "Red"),
        *buy_steps(cartridge.url, "Large", "Green"),
        {"choose": "Remove?", "in": "Remove?", "within": SMALL_RED},
        {"click": "Update Cart"},
        {"wait": {"not_shows": SMALL_RED}},
    ]
    async with run_open(flow) as done:
        result = done.result
        state = await cartridge.shopper_state(done.page)
    if result.status is RunStatus.COMPLETED:
        assert state["cart"] == [[LARGE_GREEN, 1]]
    assert result.status is RunStatus.COMPLETED, result.failure


async def test_apply_a_discount_code(run_open: Opener, cartridge: Cartridge) -> None:
    flow = [
        *buy_steps(cartridge.url, "Medium", "Yellow"),
        {"enter": "3", "into": "Qty"},
        {"click": "Update Cart"},
        {"enter": "PONY10", "into": "Discount code"},
        {"click": "Apply"},
        {"wait": {"shows": "Discount"}},
    ]
    async with run_open(flow) as done:
        result = done.result
        state = await cartridge.shopper_state(done.page)
    if result.status is RunStatus.COMPLETED:
        assert state["discount"] == "PONY10"
        assert state["cart"] == [["Django Pony Size: Medium, Colour: Yellow", 3]]
    assert result.status is RunStatus.COMPLETED, result.failure
