"""Cartridge, Mezzanine's shop, run for real: its own virtual environment and the
project Mezzanine's template makes (tools/corpus/cartridge.sh), with its demo product
and a discount code, on a SQLite file, served by Django's development server on a
free loopback port for the whole session.

Tasks are judged by the shop's own database (:meth:`Cartridge.query`): a shopper's
cart and the checkout details Cartridge keeps in the session are found from the
browser's own cookies (:meth:`Cartridge.shopper_state`)."""

from __future__ import annotations

import shutil
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
HOME = ROOT / ".corpus" / "cartridge"
VENV = HOME / "venv"
PROJECT = HOME / "proj"

_SHOPPER_STATE = """
from django.contrib.sessions.backends.db import SessionStore
from cartridge.shop.models import Cart
data = dict(SessionStore(session_key=SESSION).items()) if SESSION else {}
cart = Cart.objects.filter(id=data.get("cart")).first()
result = {
    "cart": sorted([i.description, i.quantity] for i in cart.items.all()) if cart else [],
    "discount": data.get("discount_code"),
    "order": {k: v for k, v in data.get("order", {}).items() if isinstance(v, (str, int, bool))},
}
"""


@dataclass(frozen=True)
class Cartridge:
    url: str
    env: dict[str, str]

    def query(self, code: str, **values: Any) -> Any:
        """Run ``code`` in the shop's own Python with Django set up (``values`` its
        globals); it sets ``result``, returned as JSON."""
        return django_query(VENV / "bin" / "python", self.env, code, values, cwd=PROJECT)

    async def shopper_state(self, page: Page) -> dict[str, Any]:
        """The cart (``[[description, quantity], ...]``), the discount code taken and the
        checkout details Cartridge keeps in the session of the browser ``page`` is in."""
        cookies = {c["name"]: c["value"] for c in await page.context.cookies(self.url)}
        state: dict[str, Any] = self.query(_SHOPPER_STATE, SESSION=cookies.get("sessionid", ""))
        return state

    def orders(self) -> int:
        """How many orders the shop holds (the tasks must never place one)."""
        count: int = self.query(
            "from cartridge.shop.models import Order\nresult = Order.objects.count()"
        )
        return count


@pytest.fixture(scope="session")
def cartridge() -> Iterator[Cartridge]:
    python = VENV / "bin" / "python"
    if not python.exists() or not (PROJECT / "manage.py").exists():
        pytest.fail(f"Cartridge is not installed ({PROJECT} is missing): run ./dev setup")
    shutil.copyfile(
        HERE / "cartridge_local_settings.py", PROJECT / "corpusshop" / "local_settings.py"
    )
    with tempfile.TemporaryDirectory(prefix="gofer-cartridge-", ignore_cleanup_errors=True) as tmp:
        work = Path(tmp)
        env = django_env(
            work,
            PROJECT,
            "corpusshop.settings",
            CARTRIDGE_WORK=str(work),
            LOCPATH=str(HOME / "locale"),
        )
        manage = [str(python), str(PROJECT / "manage.py")]
        prepare = [[*manage, "createdb", "--noinput"], [str(python), str(HERE / "seed.py")]]
        with serving(
            prepare, runserver(manage), work=work, env=env, cwd=PROJECT, path="/shop/"
        ) as shop:
            yield Cartridge(url=shop.removesuffix("shop/"), env=env)


def shopper_details() -> dict[str, str]:
    """The shopper's details the headline job fills in."""
    return {
        "email": "ravi.menon@example.com",
        "first name": "Ravi",
        "last name": "Menon",
        "street": "22 Lake View Road",
        "city": "Kochi",
        "region": "Kerala",
        "postcode": "682001",
        "country": "India",
        "phone": "+91 484 555 0199",
    }
