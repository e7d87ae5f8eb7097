"""Walls only a person can pass: the task waits at ``needs_human``, a person clears the
wall in the task's own browser page, and ``continue_task`` reruns the failed step and
the rest, ending at the payment checkpoint.

Real ``Tasks`` over the real ``WorkspaceRunner``, headless Chromium and the SkyLark
demo site's ``captcha``, ``otp`` and ``login`` variants.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
import pytest_asyncio

from gofer.cli import DEMO_FACTS
from gofer.demo import DemoServer
from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks
from gofer.tasks.contract import Call, Checkpoint, NeedsHuman

from .conftest import FAST, Events
from .test_tasks_booking import CHEAPEST, booking, settle, task_page

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

Person = Callable[[Any, DemoServer], Awaitable[None]]


@pytest_asyncio.fixture(loop_scope="session")
async def runner(engine: BrowserEngine) -> AsyncIterator[WorkspaceRunner]:
    """A runner of this test's own on the session's Chromium."""
    async with WorkspaceRunner(engine=engine, settings=FAST) as made:
        yield made


@pytest_asyncio.fixture(loop_scope="session")
async def tasks(runner: WorkspaceRunner) -> AsyncIterator[Tasks]:
    """A task controller of this test's own."""
    async with Tasks(runner) as made:
        yield made


async def tick_the_captcha(page: Any, demo: DemoServer) -> None:
    """A person ticks "I'm not a robot" and presses Verify."""
    await page.get_by_label("I'm not a robot").check()
    async with page.expect_navigation():
        await page.get_by_role("button", name="Verify").click()
    assert "/flights" in page.url


async def type_the_code(page: Any, demo: DemoServer) -> None:
    """A person types the code the site sent them."""
    await page.get_by_label("6-digit code").fill(demo.otp_code)
    async with page.expect_navigation():
        await page.get_by_role("button", name="Verify and continue").click()
    assert page.url.endswith("/payment")


async def sign_in(page: Any, demo: DemoServer) -> None:
    """A person signs in to their account."""
    await page.get_by_label("Email").fill("asha@example.com")
    await page.get_by_label("Password").fill("a-person-typed-this")
    async with page.expect_navigation():
        await page.get_by_role("button", name="Sign in").click()
    assert page.url.endswith("/passengers")


WALLS: list[tuple[str, str, str, Person, str]] = [
    # variant, words of the wall on screen, the failed step, what the person does, event
    ("captcha", "Verify you are human", "5", tick_the_captcha, "captcha_solved"),
    ("otp", "one-time code", "15", type_the_code, "otp_verified"),
    ("login", "Sign in to continue", "9", sign_in, "login"),
]


@pytest.mark.parametrize(
    ("variant", "wall", "step", "person", "cleared"), WALLS, ids=[w[0] for w in WALLS]
)
async def test_a_wall_waits_for_a_person_then_the_task_goes_on_to_payment(
    tasks: Tasks,
    runner: WorkspaceRunner,
    demo: DemoServer,
    events: Events,
    variant: str,
    wall: str,
    step: str,
    person: Person,
    cleared: str,
) -> None:
    start = await tasks.start_task({"flow": booking(demo, variant), "facts": DEMO_FACTS})
    view = await settle(tasks, start.id)

    status = view.status
    assert isinstance(status, NeedsHuman), status
    assert f"step {int(step) + 1}" in status.reason, "a reason counts steps from 1"
    assert view.next[0] == Call.CONTINUE_TASK
    assert runner.holds(start.id), "the browser stays open for the person"
    page = await task_page(runner, start.id)
    assert wall in await page.inner_text("body")
    assert events.of(cleared) == []

    await person(page, demo)
    assert len(events.of(cleared)) == 1

    resumed = await tasks.continue_task({"id": start.id})
    assert resumed.status.state == "running"
    view = await settle(tasks, start.id)

    status = view.status
    assert isinstance(status, Checkpoint), status
    assert status.continuable is False and status.location.startswith("Pay now")
    report = await tasks.task_report({"id": start.id})
    assert report.spend.runs == 2
    cheapest = report.records["cheapest"]
    assert isinstance(cheapest, str) and all(part in cheapest for part in CHEAPEST)
    # the first run failed at the wall; the second began with the step that failed
    first = [s for s in report.steps if s.run == 1]
    assert (first[-1].path, first[-1].outcome) == (step, "failed")
    second = [s for s in report.steps if s.run == 2]
    assert second[0].path == step and second[0].outcome in ("done", "gated")
    assert events.of("payment") == []
    await tasks.cancel_task({"id": start.id})
    assert not runner.holds(start.id)
