"""Misago's administration: categories and users, as its administrator uses them."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Misago, admin_sign_in_steps

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_new_category_with_yes_no_fields(run_open: Opener, misago: Misago) -> None:
    # Five Yes/No pairs in two fieldsets, each pair named only by the caption above
    # it ("Replies:"); "Last reply" is a field, not a position
    steps = [
        *admin_sign_in_steps(misago.url),
        {"click": "Categories"},
        {"click": "New category"},
        {"enter": "Announcements", "into": "Name"},
        {"enter": "News from the team", "into": "Description"},
        {"choose": "Yes", "in": "Replies"},
        {"enter": "30", "into": "Last reply"},
        {"choose": "Yes", "in": "Closed category"},
        {"read": "Last reply", "as": "last reply"},
        {"click": "Save"},
        {"wait": {"shows": "has been saved"}},
    ]
    async with run_open({"vars": {"last reply": ""}, "steps": steps}) as done:
        status = done.result.status
        read = done.result.variables["last reply"]
    rows = misago.query(
        "from misago.categories.models import Category\n"
        "result = [[c.description, c.is_closed, c.require_threads_approval,"
        " c.require_replies_approval, c.require_edits_approval, c.prune_replied_after,"
        " c.prune_started_after] for c in Category.objects.filter(name='Announcements')]"
    )
    if status is RunStatus.COMPLETED:
        assert rows == [["News from the team", True, False, True, False, 30, 0]]
        assert read == "30"  # the field's value, not the help text under its label
    assert status is RunStatus.COMPLETED, done.result.failure


async def test_give_a_member_a_title(run_open: Opener, misago: Misago) -> None:
    flow = [
        *admin_sign_in_steps(misago.url),
        {"click": "Users"},
        {"click": "Edit", "within": "mira"},
        {"enter": "Bike expert", "into": "Custom title"},
        {"click": "Save"},
        {"wait": {"shows": "has been edited"}},
    ]
    async with run_open(flow) as done:
        status = done.result.status
    titles = misago.query(
        "from django.contrib.auth import get_user_model\n"
        "result = {u.username: u.title for u in get_user_model().objects.all()}"
    )
    if status is RunStatus.COMPLETED:
        assert titles == {"admin": None, "mira": "Bike expert", "otto": None}
    assert status is RunStatus.COMPLETED, done.result.failure
