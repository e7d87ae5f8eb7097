"""django-oscar, the shop, run for real: its own virtual environment
(tools/corpus/oscar.sh), a Django project of Oscar's default apps (``oscar_settings``)
on a SQLite file, seeded with books, stock, countries, a voucher and a customer
(``seed.py``), served by Django's development server on a free loopback port for the
whole session.

Tasks are judged by the shop's own database (:meth:`Oscar.query`): a guest's basket
and the checkout details Oscar keeps in the guest's session are found from the
browser's own cookies (:meth:`Oscar.guest_state`)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from ..app_process import django_env, django_query, runserver, serving

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
VENV = ROOT / ".corpus" / "oscar" / "venv"
CUSTOMER = ("mira@example.com", "Mira-pass-456")


_GUEST_STATE = """
from django.contrib.sessions.backends.db import SessionStore
from django.core import signing
from oscar.apps.basket.models import Basket
session = SessionStore(session_key=SESSION) if SESSION else None
data = dict(session.items()) if session is not None else {}
basket_id = None
if BASKET:
    try:
        basket_id = signing.Signer().unsign(BASKET).split(':')[0]
    except signing.BadSignature:
        basket_id = None
lines = []
status = None
vouchers = []
if basket_id:
    basket = Basket.objects.get(id=basket_id)
    status = basket.status
    lines = sorted([l.product.title, l.quantity] for l in basket.all_lines())
    vouchers = [v.code for v in basket.vouchers.all()]
result = {
    "basket": lines,
    "basket_status": status,
    "vouchers": vouchers,
    "checkout": data.get("checkout_data", {}),
}
"""


@dataclass(frozen=True)
class Oscar:
    url: str
    env: dict[str, str]

    def query(self, code: str, **values: Any) -> Any:
        """Run ``code`` in the shop's own Python with Django set up (``values`` its
        globals); it sets ``result``, returned as JSON."""
        return django_query(VENV / "bin" / "python", self.env, code, values)

    async def guest_state(self, page: Page) -> dict[str, Any]:
        """The basket (``[[title, quantity], ...]``), its status and vouchers, and the
        checkout details Oscar keeps in the session of the browser ``page`` is in."""
        cookies = {c["name"]: c["value"] for c in await page.context.cookies(self.url)}
        state: dict[str, Any] = self.query(
            _GUEST_STATE,
            SESSION=cookies.get("sessionid", ""),
            BASKET=cookies.get("oscar_open_basket", ""),
        )
        return state

    def orders(self) -> int:
        """How many orders the shop holds (the tasks must never place one)."""
        count: int = self.query(
            "from oscar.apps.order.models import Order\nresult = Order.objects.count()"
        )
        return count


@pytest.fixture(scope="session")
def oscar() -> Iterator[Oscar]:
    django_admin = VENV / "bin" / "django-admin"
    if not django_admin.exists():
        pytest.fail(f"django-oscar is not installed ({django_admin} is missing): run ./dev setup")
    with tempfile.TemporaryDirectory(prefix="gofer-oscar-", ignore_cleanup_errors=True) as tmp:
        work = Path(tmp)
        env = django_env(work, HERE, "oscar_settings", OSCAR_WORK=str(work))
        manage = [str(django_admin)]
        prepare = [
            [*manage, "migrate", "--noinput", "-v0"],
            [str(VENV / "bin" / "python"), str(HERE / "seed.py")],
            [*manage, "update_index", "-v0"],
        ]
        with serving(prepare, runserver(manage), work=work, env=env) as url:
            yield Oscar(url=url, env=env)


def guest_details() -> dict[str, str]:
    """The guest's details the headline job fills in."""
    return {
        "email": "asha.rao@example.com",
        "first name": "Asha",
        "last name": "Rao",
        "address": "14 Harbour Road",
        "city": "Bristol",
        "postcode": "BS1 4RN",
        "phone": "+44 117 496 0123",
    }


def sign_in_steps(url: str) -> list[dict[str, object]]:
    """The shop's own sign-in, as the customer does it."""
    return [
        {"browse": url},
        {"click": "Login or register"},
        {"enter": CUSTOMER[0], "into": "Email address", "within": "Log In"},
        {"enter": CUSTOMER[1], "into": "Password", "within": "Log In"},
        {"click": "Log In"},
        {"wait": {"shows": "Account"}},
    ]


def add_to_basket_steps(url: str, *titles: str) -> list[dict[str, object]]:
    """Find each book by the shop's search and put one in the basket."""
    steps: list[dict[str, object]] = [{"browse": url}]
    for title in titles:
        steps += [
            {"enter": title, "into": "Search", "submit": True},
            {"click": title},
            {"click": "Add to basket"},
        ]
    return steps
