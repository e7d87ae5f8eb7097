"""Misago tasks kept out of sight while the engine changes (the holdout)."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Misago, admin_sign_in_steps, sign_in_steps

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session"), pytest.mark.holdout]


async def test_close_a_thread(run_open: Opener, misago: Misago) -> None:
    flow = [
        *sign_in_steps(misago.url),
        {"click": "Meetup in October"},
        {"click": "Close"},
        {"wait": {"shows": "closed"}},
    ]
    async with run_open(flow, allow_destructive=True) as done:
        status = done.result.status
    state = misago.query(
        "from misago.threads.models import Thread\n"
        "result = {t.title: t.is_closed for t in Thread.objects.all()}"
    )
    if status is RunStatus.COMPLETED:
        assert state["Meetup in October"] is True
        assert state["Welcome to the forum"] is False
    assert status is RunStatus.COMPLETED, done.result.failure


async def test_rename_the_forum(run_open: Opener, misago: Misago) -> None:
    flow = [
        *admin_sign_in_steps(misago.url),
        {"click": "Settings"},
        {"click": "General"},
        {"enter": "Riverside Cyclists", "into": "Forum name"},
        {"click": "Save changes"},
        {"wait": {"shows": "have been saved"}},
    ]
    async with run_open(flow) as done:
        status = done.result.status
    name = misago.query(
        "from misago.conf.models import Setting\n"
        "result = Setting.objects.get(setting='forum_name').value"
    )
    if status is RunStatus.COMPLETED:
        assert name == "Riverside Cyclists"
    assert status is RunStatus.COMPLETED, done.result.failure


async def test_give_a_member_a_rank(run_open: Opener, misago: Misago) -> None:
    flow = [
        *admin_sign_in_steps(misago.url),
        {"click": "Users"},
        {"click": "Edit", "within": "otto"},
        {"choose": "Forum team", "in": "Rank"},
        {"click": "Save"},
        {"wait": {"shows": "has been edited"}},
    ]
    async with run_open(flow) as done:
        status = done.result.status
    ranks = misago.query(
        "from django.contrib.auth import get_user_model\n"
        "result = {u.username: u.rank.name for u in get_user_model().objects.all()}"
    )
    if status is RunStatus.COMPLETED:
        assert ranks["otto"] == "Forum team"
        assert ranks["mira"] != "Forum team"
    assert status is RunStatus.COMPLETED, done.result.failure
