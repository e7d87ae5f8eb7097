"""django-oscar, the shop, run for real: its own virtual environment
(tools/corpus/oscar.sh), a Django project of Oscar's default apps (``oscar_settings``)
on a SQLite file, seeded with books, stock, countries, a voucher and a customer
(``seed.py``), served by Django's development server on a free loopback port for the
whole session.

Tasks are judged by the shop's own database (:meth:`Oscar.query`): a guest's basket
and the checkout details Oscar keeps in the guest's session are found from the
browser's own cookies (:meth:`Oscar.guest_state`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from ..app_process import free_port, wait_until_up

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
        """Run ``code`` in the shop's own Python with Django set up, with ``values`` as
        its globals; it sets ``result``, returned as JSON."""
        script = (
            "import json, django\ndjango.setup()\nresult = None\n"
            + "".join(f"{name} = {value!r}\n" for name, value in values.items())
            + code
            + "\nprint('RESULT=' + json.dumps(result, default=str))\n"
        )
        out = subprocess.run(
            [str(VENV / "bin" / "python"), "-c", script],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
        line = next(x for x in reversed(out.splitlines()) if x.startswith("RESULT="))
        return json.loads(line[len("RESULT=") :])

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
    work = Path(tempfile.mkdtemp(prefix="gofer-oscar-"))
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(work),
        "PYTHONPATH": str(HERE),
        "PYTHONWARNINGS": "ignore",
        "DJANGO_SETTINGS_MODULE": "oscar_settings",
        "OSCAR_WORK": str(work),
    }
    proc: subprocess.Popen[bytes] | None = None
    try:
        subprocess.run(
            [str(django_admin), "migrate", "--noinput", "-v0"], env=env, check=True, timeout=300
        )
        subprocess.run(
            [str(VENV / "bin" / "python"), str(HERE / "seed.py")], env=env, check=True, timeout=120
        )
        subprocess.run(
            [str(django_admin), "update_index", "-v0"],
            env=env,
            check=True,
            timeout=120,
        )
        port = free_port()
        log = work / "server.log"
        with log.open("wb") as sink:
            proc = subprocess.Popen(
                [str(django_admin), "runserver", "--insecure", "--noreload", f"127.0.0.1:{port}"],
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        url = f"http://127.0.0.1:{port}/"
        wait_until_up(url, proc, log, 60)
        yield Oscar(url=url, env=env)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


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
