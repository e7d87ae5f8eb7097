"""Oscar's basket as a shopper uses it: a quantity named only by its column's header,
a line taken out, a voucher. Judged by the basket Oscar keeps for the browser."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Oscar, add_to_basket_steps

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_change_a_quantity_named_by_its_column(run_open: Opener, oscar: Oscar) -> None:
    flow = [
        *add_to_basket_steps(oscar.url, "Quiet Orbits", "Rivers of Salt"),
        {"click": "View basket"},
        {"enter": "3", "into": "Quantity", "within": "Quiet Orbits"},
        {"click": "Update", "within": "Quiet Orbits"},
        {"wait": {"shows": "£26.97"}},
    ]
    async with run_open(flow) as done:
        result = done.result
        state = await oscar.guest_state(done.page)
    if result.status is RunStatus.COMPLETED:
        assert state["basket"] == [["Quiet Orbits", 3], ["Rivers of Salt", 1]]
    assert result.status is RunStatus.COMPLETED, result.failure


async def test_remove_a_line(run_open: Opener, oscar: Oscar) -> None:
    flow = [
        *add_to_basket_steps(oscar.url, "Tide Tables for Beginners", "The Silent Harbour"),
        {"click": "View basket"},
        {"click": "Remove", "within": "Tide Tables for Beginners"},
        {"wait": {"not_shows": "Tide Tables for Beginners"}},
    ]
    async with run_open(flow) as done:
        result = done.result
        state = await oscar.guest_state(done.page)
    if result.status is RunStatus.COMPLETED:
        assert state["basket"] == [["The Silent Harbour", 1]]
    assert result.status is RunStatus.COMPLETED, result.failure


async def test_apply_a_voucher(run_open: Opener, oscar: Oscar) -> None:
    flow = [
        *add_to_basket_steps(oscar.url, "A Field Guide to Moths"),
        {"click": "View basket"},
        {"click": "I have a voucher code..."},
        {"enter": "TENOFF", "into": "Code"},
        {"click": "Add voucher"},
        {"wait": {"shows": "£21.60"}},
    ]
    async with run_open(flow) as done:
        result = done.result
        state = await oscar.guest_state(done.page)
    if result.status is RunStatus.COMPLETED:
        assert state["vouchers"] == ["TENOFF"]
        assert state["basket"] == [["A Field Guide to Moths", 1]]
    assert result.status is RunStatus.COMPLETED, result.failure
