"""Tasks on pretix's ticket shop: pick tickets and merchandise, answer the questions the
checkout asks for each ticket, redeem a voucher, change the cart, and go up to the page
where the order would be placed. Judged by pretix's own SQLite database: no order was
placed, and the carts hold exactly the tickets, prices, attendees and answers asked for."""

from __future__ import annotations

from decimal import Decimal

import pytest

from gofer.runtime import RunStatus

from ...conftest import Runner
from .conftest import Position, Pretix

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def steps(result: object) -> object:
    return (
        getattr(result, "failure", None),
        [(s.kind, s.outcome, s.reason) for s in getattr(result, "steps", [])],
    )


def contact_and_payment(email: str) -> list[dict[str, object]]:
    return [
        {"enter": email, "into": "Email"},
        {"click": "Continue"},
        {"choose": "Bank transfer", "in": "Payment"},
        {"click": "Continue"},
        {"stop_before": "placing the order"},
    ]


async def test_buy_a_day_pass_and_a_weekend_pass_up_to_payment(run: Runner, pretix: Pretix) -> None:
    before = pretix.orders()
    result = await run(
        [
            {"browse": pretix.shop},
            {"enter": "1", "into": "Quantity", "within": "Day Pass"},
            {"enter": "1", "into": "Quantity", "within": "Weekend Pass"},
            {"click": "Add to cart"},
            {"click": "Checkout"},
            {"enter": "Mara Lind", "into": "Attendee name", "within": "Day Pass"},
            {"choose": "Vegan", "in": "Meal preference", "within": "Day Pass"},
            {"enter": "Tomas Lind", "into": "Attendee name", "within": "Weekend Pass"},
            {"choose": "No preference", "in": "Meal preference", "within": "Weekend Pass"},
            *contact_and_payment("mara.lind@example.org"),
        ]
    )
    want = [
        Position(
            "Day Pass", None, Decimal("45.00"), "Mara Lind", None, {"Meal preference": "Vegan"}
        ),
        Position(
            "Weekend Pass",
            None,
            Decimal("120.00"),
            "Tomas Lind",
            None,
            {"Meal preference": "No preference"},
        ),
    ]
    assert pretix.orders() == before  # the run never placed the order
    if result.status is RunStatus.GATED:
        assert pretix.cart() == want
    assert result.status is RunStatus.GATED, steps(result)
    assert pretix.cart() == want
    assert result.gate is not None
    assert result.gate.consequence == "payment", result.gate


async def test_a_student_pass_answers_the_university_question(run: Runner, pretix: Pretix) -> None:
    before = pretix.orders()
    result = await run(
        [
            {"browse": pretix.shop},
            {"click": "Increase quantity", "within": "Student Day Pass"},
            {"click": "Add to cart"},
            {"click": "Checkout"},
            {"enter": "Ines Park", "into": "Attendee name"},
            {"choose": "Vegetarian", "in": "Meal preference"},
            {"enter": "University of Leeds", "into": "University"},
            *contact_and_payment("ines.park@example.org"),
        ]
    )
    want = [
        Position(
            "Student Day Pass",
            None,
            Decimal("25.00"),
            "Ines Park",
            None,
            {"Meal preference": "Vegetarian", "University": "University of Leeds"},
        )
    ]
    assert pretix.orders() == before
    if result.status is RunStatus.GATED:
        assert pretix.cart() == want
    assert result.status is RunStatus.GATED, steps(result)
    assert pretix.cart() == want


async def test_a_large_t_shirt_and_the_cart_total_read_back(run: Runner, pretix: Pretix) -> None:
    result = await run(
        [
            {"browse": pretix.shop},
            {"click": "Show variants", "within": "Festival T-Shirt"},
            {"enter": "1", "into": "Quantity", "within": "Large"},
            {"click": "Add to cart"},
            {"read": "the cart's total", "as": "total"},
        ]
    )
    cart = pretix.cart()
    total = sum((p.price for p in cart), Decimal(0))
    if result.status is RunStatus.COMPLETED:
        large = [Position("Festival T-Shirt", "Large", Decimal("22.00"), None, None, {})]
        assert cart == large, steps(result)
        assert f"{total:.2f}" in str(result.variables["total"])
    assert result.status is RunStatus.COMPLETED, steps(result)
    assert cart == [Position("Festival T-Shirt", "Large", Decimal("22.00"), None, None, {})]
    assert "22.00" in str(result.variables["total"])


async def test_a_voucher_code_takes_ten_euros_off_a_weekend_pass(
    run: Runner, pretix: Pretix
) -> None:
    result = await run(
        [
            {"browse": pretix.shop},
            {"enter": "HARBOUR10", "into": "Voucher code"},
            {"click": "Redeem voucher"},
            {"enter": "1", "into": "Quantity", "within": "Weekend Pass"},
            {"click": "Add to cart"},
        ]
    )
    want = [Position("Weekend Pass", None, Decimal("110.00"), None, "HARBOUR10", {})]
    if result.status is RunStatus.COMPLETED:
        assert pretix.cart() == want
    assert result.status is RunStatus.COMPLETED, steps(result)
    assert pretix.cart() == want


async def test_raise_the_day_passes_in_the_cart_to_three(run: Runner, pretix: Pretix) -> None:
    result = await run(
        [
            {"browse": pretix.shop},
            {"enter": "1", "into": "Quantity", "within": "Day Pass"},
            {"click": "Add to cart"},
            # the cart changes a line's count one ticket at a time
            {"click": "Add one more", "within": "Your cart"},
            {"click": "Add one more", "within": "Your cart"},
        ]
    )
    cart = pretix.cart()
    want = [Position("Day Pass", None, Decimal("45.00"), None, None, {})] * 3
    if result.status is RunStatus.COMPLETED:
        assert cart == want
    assert result.status is RunStatus.COMPLETED, steps(result)
    assert cart == want
