"""Oscar's customer accounts: register, keep an address, change the profile. Judged by
the shop's own users and address book."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Oscar, sign_in_steps

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_register_an_account(run_open: Opener, oscar: Oscar) -> None:
    flow = [
        {"browse": oscar.url},
        {"click": "Login or register"},
        {"enter": "noor@example.com", "into": "Email address", "within": "Register"},
        {"enter": "${password}", "into": "Password", "within": "Register"},
        {"enter": "${password}", "into": "Confirm password"},
        {"click": "Register"},
        {"wait": {"shows": "Thanks for registering!"}},
    ]
    async with run_open(flow, facts={"password": "Noor-pass-2026"}) as done:
        result = done.result
    users = oscar.query(
        "from django.contrib.auth import get_user_model\n"
        "result = [[u.email, u.check_password('Noor-pass-2026')] for u in "
        "get_user_model().objects.filter(email='noor@example.com')]"
    )
    if result.status is RunStatus.COMPLETED:
        assert users == [["noor@example.com", True]]
    assert result.status is RunStatus.COMPLETED, result.failure


async def test_add_an_address_to_the_address_book(run_open: Opener, oscar: Oscar) -> None:
    flow = [
        *sign_in_steps(oscar.url),
        {"click": "Account"},
        {"click": "Address Book"},
        {"click": "Add a new address"},
        {"enter": "Mira", "into": "First name"},
        {"enter": "Kaur", "into": "Last name"},
        {"enter": "7 Canal Street", "into": "First line of address"},
        {"enter": "Leeds", "into": "City"},
        {"enter": "LS1 4AB", "into": "Post/Zip-code"},
        {"choose": "United Kingdom", "in": "Country"},
        {"click": "Save"},
        {"wait": {"shows": "7 Canal Street"}},
    ]
    async with run_open(flow) as done:
        result = done.result
    rows = oscar.query(
        "from oscar.apps.address.models import UserAddress\n"
        "result = [[a.first_name, a.last_name, a.line1, a.line4, a.postcode, a.country_id] "
        "for a in UserAddress.objects.filter(user__email='mira@example.com')]"
    )
    if result.status is RunStatus.COMPLETED:
        assert rows == [["Mira", "Kaur", "7 Canal Street", "Leeds", "LS1 4AB", "GB"]]
    assert result.status is RunStatus.COMPLETED, result.failure
