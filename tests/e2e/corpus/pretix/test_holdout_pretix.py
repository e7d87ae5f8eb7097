"""Holdout tasks on pretix's ticket shop (run only before resolving), judged by its database."""

from __future__ import annotations

from decimal import Decimal

import pytest

from gofer.runtime import RunStatus

from ...conftest import Runner
from .conftest import Position, Pretix, i18n
from .test_shop import contact_and_payment, steps

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session"), pytest.mark.holdout]


async def test_holdout_weekend_pass_and_a_medium_shirt_up_to_payment(
    run: Runner, pretix: Pretix
) -> None:
    before = pretix.orders()
    result = await run(
        [
            {"browse": pretix.shop},
            {"enter": "1", "into": "Quantity", "within": "Weekend Pass"},
            {"click": "Show variants", "within": "Festival T-Shirt"},
            {"enter": "1", "into": "Quantity", "within": "Medium"},
            {"click": "Add to cart"},
            {"click": "Checkout"},
            {"enter": "Oskar Brandt", "into": "Attendee name"},
            {"choose": "Vegetarian", "in": "Meal preference"},
            *contact_and_payment("oskar.brandt@example.org"),
        ]
    )
    want = [
        Position(
            "Weekend Pass",
            None,
            Decimal("120.00"),
            "Oskar Brandt",
            None,
            {"Meal preference": "Vegetarian"},
        ),
        Position("Festival T-Shirt", "Medium", Decimal("20.00"), None, None, {}),
    ]
    assert pretix.orders() == before
    if result.status is RunStatus.GATED:
        assert pretix.cart() == want
    assert result.status is RunStatus.GATED, steps(result)
    assert pretix.cart() == want


@pytest.mark.xfail(
    strict=True,
    reason="table_cell reads 'the price of X' only from records with named fields or "
    "headers; a product row whose price is a bare line ('Student Day Pass · €25.00') has "
    "none, and no label 'price' shows, so read_value finds nothing",
)
async def test_holdout_read_the_student_pass_price(run: Runner, pretix: Pretix) -> None:
    result = await run(
        [
            {"browse": pretix.shop},
            {"read": "the price of the Student Day Pass", "as": "price"},
        ]
    )
    price = pretix.rows(
        "SELECT default_price, name FROM pretixbase_item WHERE name LIKE '%Student Day Pass%'"
    )
    assert [i18n(name) for _, name in price] == ["Student Day Pass"]
    want = f"{Decimal(str(price[0][0])):.2f}"
    if result.status is RunStatus.COMPLETED:
        assert want in str(result.variables["price"])
        assert "45.00" not in str(result.variables["price"])
    assert result.status is RunStatus.COMPLETED, steps(result)
    assert pretix.cart() == []


async def test_holdout_take_the_student_pass_out_of_the_cart(run: Runner, pretix: Pretix) -> None:
    result = await run(
        [
            {"browse": pretix.shop},
            {"enter": "1", "into": "Quantity", "within": "Day Pass"},
            {"enter": "1", "into": "Quantity", "within": "Student Day Pass"},
            {"click": "Add to cart"},
            {"click": "Remove", "within": "Student Day Pass"},
        ]
    )
    want = [Position("Day Pass", None, Decimal("45.00"), None, None, {})]
    if result.status is RunStatus.COMPLETED:
        assert pretix.cart() == want
    assert result.status is RunStatus.COMPLETED, steps(result)
    assert pretix.cart() == want


async def test_holdout_voucher_day_pass_up_to_payment(run: Runner, pretix: Pretix) -> None:
    before = pretix.orders()
    result = await run(
        [
            {"browse": pretix.shop},
            {"enter": "HARBOUR10", "into": "Voucher code"},
            {"click": "Redeem voucher"},
            {"enter": "1", "into": "Quantity", "within": "Day Pass"},
            {"click": "Add to cart"},
            {"click": "Checkout"},
            {"enter": "Lea Vogt", "into": "Attendee name"},
            {"choose": "Vegan", "in": "Meal preference"},
            *contact_and_payment("lea.vogt@example.org"),
        ]
    )
    want = [
        Position(
            "Day Pass",
            None,
            Decimal("35.00"),
            "Lea Vogt",
            "HARBOUR10",
            {"Meal preference": "Vegan"},
        )
    ]
    assert pretix.orders() == before
    if result.status is RunStatus.GATED:
        assert pretix.cart() == want
    assert result.status is RunStatus.GATED, steps(result)
    assert pretix.cart() == want
