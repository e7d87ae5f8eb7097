"""Tryton's web client as a shop's staff use it: a new customer, a new product with its
price and unit, a sale quotation for a customer picked from the parties; each task signs
in first (the user name, then the password the client asks for), judged by the ERP's own
SQLite database. Added with its first run recorded before any engine change for it (the
closing note of the session that added it)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from ..app_process import SQLiteApp
from ..tasks import Task, expect_known, judge
from .conftest import ADMIN, ADMIN_PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def _decimal(stored: object) -> Decimal:
    """A numeric column as SQLite keeps Tryton's (bytes of its text)."""
    text = stored.decode() if isinstance(stored, bytes) else str(stored)
    return Decimal(text).quantize(Decimal("0.01"))


def signed_in(url: str, *steps: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"browse": url + "/"},
        {"enter": ADMIN, "into": "User name"},
        {"click": "Login"},
        {"enter": ADMIN_PASSWORD, "into": "Password"},
        {"click": "OK"},
        *steps,
    ]


TASKS: dict[str, Task[SQLiteApp]] = {
    "a-new-customer": Task(
        lambda url: signed_in(
            url,
            {"click": "Party"},
            {"click": "Parties"},
            {"click": "New"},
            {"enter": "Asha Rao", "into": "Name"},
            {"click": "Save"},
        ),
        got=lambda app, _r: app.rows("SELECT name FROM party_party WHERE name = 'Asha Rao'"),
        want=lambda app: [("Asha Rao",)],
    ),
    "a-new-product-with-its-price": Task(
        lambda url: signed_in(
            url,
            {"click": "Product"},
            {"click": "Products"},
            {"click": "New"},
            {"enter": "Trail Shoes", "into": "Name"},
            {"enter": "89.90", "into": "List Price"},
            {"choose": "Unit", "in": "Default UOM"},
            {"click": "Save"},
        ),
        got=lambda app, _r: [
            (name, _decimal(price))
            for name, price in app.rows(
                "SELECT t.name, p.list_price FROM product_template t "
                "JOIN product_list_price p ON p.template = t.id WHERE t.name = 'Trail Shoes'"
            )
        ],
        want=lambda app: [("Trail Shoes", Decimal("89.90"))],
    ),
    "a-quotation-for-a-customer": Task(
        lambda url: signed_in(
            url,
            {"click": "Sales"},
            {"click": "Sales", "within": "Sales"},
            {"click": "New"},
            {"choose": "Lena Novak", "in": "Party"},
            {"enter": "Spring camping order", "into": "Description"},
            {"click": "Save"},
        ),
        got=lambda app, _r: app.rows(
            "SELECT p.name, s.description, s.state FROM sale_sale s "
            "JOIN party_party p ON p.id = s.party"
        ),
        want=lambda app: [("Lena Novak", "Spring camping order", "draft")],
    ),
}

KNOWN: dict[str, str] = {
    "a-quotation-for-a-customer": "the menu is a tree of rows: 'Sales' within 'Sales' (the "
    "entry under the folder of that name) names both rows; nesting does not tell them apart",
}
"""Tasks that fail today, each with its cause (strict: one that passes must leave)."""

UNSTEADY: dict[str, str] = {
    "a-new-customer": "passes most runs; once in several 'New' was not drawn yet when looked "
    "for, and once, with the waits users get, the run said done with no party saved (the save "
    "not finished when the run ended): sao draws a tab and saves in several round trips",
    "a-new-product-with-its-price": "fails at varying steps ('Product' not drawn yet after the "
    "sign-in, the name or the price read from the display twin of the input sao types into, "
    "no suggestion for 'Unit' yet): sao draws in several round trips",
}
"""Tasks whose outcome varies from run to run, each with what was seen: not strict (a pass
does not fail the suite), listed until the engine waits for the client as a person does."""


@pytest.mark.parametrize("name", list(TASKS))
async def test_tryton_task(
    name: str, run_open: Any, tryton: SQLiteApp, request: pytest.FixtureRequest
) -> None:
    expect_known(request, KNOWN, name)
    if name in UNSTEADY:
        request.applymarker(pytest.mark.xfail(reason=UNSTEADY[name], strict=False))
    await judge(TASKS[name], run_open, tryton)
