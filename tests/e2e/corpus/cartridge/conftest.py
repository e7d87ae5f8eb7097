"""Cartridge, Mezzanine's shop, run for real: its own virtual environment and the
project Mezzanine's template makes (tools/corpus/cartridge.sh), with its demo product
and a discount code, on a SQLite file, served by Django's development server on a
free loopback port for the whole session.

Tasks are judged by the shop's own database (:meth:`Cartridge.query`): a shopper's
cart and the checkout details Cartridge keeps in the session are found from the
browser's own cookies (:meth:`Cartridge.shopper_state`)."""

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
            cwd=PROJECT,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
        line = next(x for x in reversed(out.splitlines()) if x.startswith("RESULT="))
        return json.loads(line[len("RESULT=") :])

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
    work = Path(tempfile.mkdtemp(prefix="gofer-cartridge-"))
    shutil.copyfile(
        HERE / "cartridge_local_settings.py", PROJECT / "corpusshop" / "local_settings.py"
    )
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(work),
        "PYTHONWARNINGS": "ignore",
        "PYTHONPATH": str(PROJECT),
        "DJANGO_SETTINGS_MODULE": "corpusshop.settings",
        "CARTRIDGE_WORK": str(work),
        "LOCPATH": str(HOME / "locale"),
    }
    proc: subprocess.Popen[bytes] | None = None
    try:
        manage = [str(python), str(PROJECT / "manage.py")]
        subprocess.run(
            [*manage, "createdb", "--noinput"],
            env=env,
            cwd=PROJECT,
            check=True,
            timeout=300,
            capture_output=True,
        )
        subprocess.run(
            [str(python), str(HERE / "seed.py")], env=env, cwd=PROJECT, check=True, timeout=120
        )
        port = free_port()
        log = work / "server.log"
        with log.open("wb") as sink:
            proc = subprocess.Popen(
                [*manage, "runserver", "--insecure", "--noreload", f"127.0.0.1:{port}"],
                env=env,
                cwd=PROJECT,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        url = f"http://127.0.0.1:{port}/"
        wait_until_up(url + "shop/", proc, log, 60)
        yield Cartridge(url=url, env=env)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


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
