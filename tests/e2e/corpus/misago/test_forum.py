"""Misago's forum as a member uses it: start a thread, reply to one."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from .conftest import Misago, sign_in_steps

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_start_a_thread(run_open: Opener, misago: Misago) -> None:
    title = "Lost keys near the library"
    body = "Found a set of three keys on a blue ring by the library steps."
    flow = [
        *sign_in_steps(misago.url),
        {"click": "Start thread"},
        {"enter": title, "into": "Thread title"},
        {"enter": body, "into": "the message box"},
        # the composer's own button, not the page's "Start thread" that opened it
        {"click": "Start thread", "within": "Start new thread"},
        {"wait": {"shows": title}},
    ]
    async with run_open(flow) as done:
        status = done.result.status
    rows = misago.query(
        "from misago.threads.models import Thread\n"
        f"result = [[t.title, t.category.name, t.first_post.original] "
        f"for t in Thread.objects.filter(title={title!r})]"
    )
    if status is RunStatus.COMPLETED:
        assert rows == [[title, "First category", body]]
    assert status is RunStatus.COMPLETED, done.result.failure


async def test_reply_to_a_thread(run_open: Opener, misago: Misago) -> None:
    text = "Thanks for the welcome, glad to be here!"
    flow = [
        *sign_in_steps(misago.url),
        {"click": "Welcome to the forum"},
        {"click": "Reply"},
        {"enter": text, "into": "the message box"},
        {"click": "Post reply"},
        {"wait": {"shows": text}},
    ]
    async with run_open(flow, allow_destructive=True) as done:
        status = done.result.status
    posts = misago.query(
        "from misago.threads.models import Post\n"
        "result = [p.original for p in Post.objects.filter("
        "thread__title='Welcome to the forum').order_by('id')]"
    )
    if status is RunStatus.COMPLETED:
        assert posts[1:] == [text]
    assert status is RunStatus.COMPLETED, done.result.failure


async def test_stop_before_approving_a_thread(run_open: Opener, misago: Misago) -> None:
    # The verb form names the menu's "Approve"; the run stops in front of it
    flow = [
        *sign_in_steps(misago.url),
        {"click": "Selling my old bike"},
        {"stop_before": "approving the thread"},
    ]
    async with run_open(flow) as done:
        result = done.result
    unapproved = misago.query(
        "from misago.threads.models import Thread\n"
        "result = Thread.objects.get(title='Selling my old bike').is_unapproved"
    )
    assert unapproved is True
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None and result.gate.label.endswith("Approve")


async def test_approve_a_thread_from_its_moderation_menu(run_open: Opener, misago: Misago) -> None:
    # "Approve" is one of the actions of the thread's own options menu, beside the
    # Watch, Shortcuts and Posts menus and the site's main menu
    flow = [
        *sign_in_steps(misago.url),
        {"click": "Selling my old bike"},
        {"click": "Approve"},
        {"wait": {"shows": "Thread has been approved"}},
    ]
    async with run_open(flow, allow_destructive=True) as done:
        status = done.result.status
    state = misago.query(
        "from misago.threads.models import Thread\n"
        "t = Thread.objects.get(title='Selling my old bike')\n"
        "result = [t.is_unapproved, t.is_closed, t.weight, t.is_hidden]"
    )
    if status is RunStatus.COMPLETED:
        assert state == [False, False, 0, False]
    assert status is RunStatus.COMPLETED, done.result.failure
