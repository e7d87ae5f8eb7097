"""Two ``gofer run`` checkouts at once on one store (issue 29, item 7): each guest's
checkout runs in one browser, once. Judged by the shop's own database: exactly one new
basket per guest holding the book, exactly one checkout session per guest's email, no
order."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from gofer.cli import EXIT_CODES

from ...serve import gofer
from .conftest import Oscar, guest_details
from .test_checkout import checkout_steps

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

_BASKETS = """
from oscar.apps.basket.models import Basket
result = {
    "last": max([b.id for b in Basket.objects.all()] or [0]),
    "since": [
        sorted([l.product.title, l.quantity] for l in b.all_lines())
        for b in Basket.objects.filter(id__gt=SINCE).order_by("id")
    ],
}
"""

_CHECKOUTS = """
from django.contrib.sessions.models import Session
result = []
for s in Session.objects.all():
    guest = s.get_decoded().get("checkout_data", {}).get("guest", {})
    if guest.get("email") in EMAILS:
        result.append(guest["email"])
"""


async def test_two_guest_checkouts_at_once_each_fill_one_basket(
    oscar: Oscar, tmp_path: Path
) -> None:
    env = {
        "XDG_DATA_HOME": str(tmp_path),
        "GOFER_DB": str(tmp_path / "gofer.db"),
        "PYTHONUNBUFFERED": "1",
    }
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("GOFER_MODEL")}, **env}
    flow = tmp_path / "flow.json"
    flow.write_text(json.dumps({"steps": checkout_steps(oscar.url, "The Lantern Keeper", 2)}))
    emails = ["meera.two@example.com", "tashi.two@example.com"]
    before = oscar.query(_BASKETS, SINCE=0)["last"]
    orders = oscar.orders()
    origin = oscar.url.rstrip("/")
    runs = []
    for email in emails:
        facts = tmp_path / f"{email}.json"
        facts.write_text(json.dumps({**guest_details(), "email": email}))
        args = ("run", str(flow), "--facts", str(facts), "--json", "--origin", origin)
        runs.append(gofer(*args, env=env, timeout_s=240))
    ended = await asyncio.gather(*runs)
    for code, out, err in ended:
        assert code == EXIT_CODES["checkpoint"], (out, err[-3000:])
    filled = [lines for lines in oscar.query(_BASKETS, SINCE=before)["since"] if lines]
    assert filled == [[["The Lantern Keeper", 2]]] * 2
    assert sorted(oscar.query(_CHECKOUTS, EMAILS=emails)) == emails
    assert oscar.orders() == orders
