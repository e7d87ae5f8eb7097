"""The headline job on Cartridge's shop: choose the product's size and colour and a
quantity, put it in the cart, check out with billing details, up to the payment step,
and stop there. Judged by the shop's own database (tasks.py): no order, the cart's
items, and the details Cartridge keeps in the session."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Cartridge
from .tasks import Task, checkout_steps, judge, order_state

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


TASKS: dict[str, Task] = {
    "checkout-up-to-payment": Task(
        lambda url: checkout_steps(
            url,
            [
                {"enter": "2", "into": "Quantity"},
                {"choose": "Medium", "in": "Size"},
                {"choose": "Blue", "in": "Colour"},
            ],
            [],
        ),
        lambda state: order_state(state, "billing", ("first_name", "street", "email"), "shipping"),
        (
            [["Django Pony Size: Medium, Colour: Blue", 2]],
            ["Ravi", "22 Lake View Road", "ravi.menon@example.com"],
            "Kochi",  # delivery is the same as billing
        ),
        ends=RunStatus.GATED,
    ),
}


@pytest.mark.parametrize("name", list(TASKS))
async def test_checkout_task(name: str, run_open: Opener, cartridge: Cartridge) -> None:
    await judge(TASKS[name], run_open, cartridge)
