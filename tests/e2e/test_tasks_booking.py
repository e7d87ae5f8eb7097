"""The seeds' booking job handed to the task controller, end to end.

Real ``Tasks`` over the real ``WorkspaceRunner``, headless Chromium and the SkyLark
demo site: the booking ends at the payment checkpoint with the cheapest flight as
a record, ``fill_then_approve`` fills the card form and waits, "Confirm booking"
waits for approval, a dead button fails recoverably, injected text changes
nothing, and the action budget holds across an approval.

The other task files import the helpers defined here (``booking``, ``settle``,
``task_page``, ...).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from gofer.cli import DEMO_FACTS, demo_flow
from gofer.demo import DemoServer
from gofer.errors import GoferError
from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks, TaskView
from gofer.tasks.contract import Call, Checkpoint, Done, Failed, NeedsApproval

from .conftest import FAST, Events, Pages

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

CARD = {
    "card number": "4111 1111 1111 1111",
    "name on card": "Asha Raina",
    "expiry": "08/29",
    "cvv": "737",
}
CARD_STEPS: list[dict[str, Any]] = [
    {"enter": "${card number}", "into": "Card number"},
    {"enter": "${name on card}", "into": "Name on card"},
    {"enter": "${expiry}", "into": "Expiry"},
    {"enter": "${cvv}", "into": "CVV"},
]
CHEAPEST = ("Indus Air", "IU 639", "09:30", "₹3,512")
"""The cheapest Delhi–Srinagar flight on 14 October for seed 7."""

PAY = {"stop_before": "paying for the booking"}
CONFIRM = {"stop_before": "confirming the booking"}


# ------------------------------------------------------------------ helpers


def origin_of(demo: DemoServer) -> str:
    """The demo site's origin, ``http://127.0.0.1:PORT``."""
    return demo.url.rstrip("/")


def booking(
    demo: DemoServer,
    variant: str = "",
    *,
    before_last: list[dict[str, Any]] | None = None,
    last: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The demo booking flow on ``variant``, with ``before_last`` inserted before its final
    ``stop_before`` and ``last`` in place of it."""
    url = demo.url + (f"?variant={variant}" if variant else "")
    flow = demo_flow(url)
    steps = flow["steps"]
    flow["steps"] = [*steps[:-1], *(before_last or []), last or steps[-1]]
    return flow


async def settle(tasks: Tasks, task_id: str, seen: list[TaskView] | None = None) -> TaskView:
    """The task's view once it stops running; every view it passed is added to ``seen``."""
    last: TaskView | None = None
    async with asyncio.timeout(90):
        async for view in tasks.watch(task_id):
            if seen is not None:
                seen.append(view)
            last = view
    assert last is not None and last.status.state != "running"
    awaited = await tasks.await_task({"id": task_id, "timeout_ms": 0})
    assert awaited == last
    if seen is not None:
        seen.append(awaited)
    return last


async def task_page(runner: WorkspaceRunner, task_id: str) -> Any:
    """The Playwright page of the task's still-open browser session."""
    page = await runner.page_for(task_id)
    assert page is not None, f"{task_id} holds no browser session"
    return page


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


# ------------------------------------------------------------------ the booking job


async def test_booking_ends_at_the_payment_checkpoint_with_the_cheapest_flight(
    tasks: Tasks, runner: WorkspaceRunner, demo: DemoServer, events: Events
) -> None:
    first = await tasks.start_task(
        {
            "flow": demo_flow(demo.url),
            "facts": DEMO_FACTS,
            "constraints": {"origins": [origin_of(demo)]},
        }
    )
    assert first.status.state == "running"
    assert first.next == [Call.AWAIT_TASK, Call.CANCEL_TASK]

    seen: list[TaskView] = []
    view = await settle(tasks, first.id, seen)

    status = view.status
    assert isinstance(status, Checkpoint), status
    assert status.continuable is False
    assert status.location.startswith("Pay now") and "₹3,512" in status.location
    assert "payment" in status.reason
    assert view.next == [Call.CANCEL_TASK, Call.TASK_REPORT]
    assert view.summary.startswith("Stopped")
    # the views followed the run step by step
    steps_seen = {v.step.index for v in seen if v.step is not None}
    assert {0, 4, 9, 15} <= steps_seen

    report = await tasks.task_report({"id": first.id})
    cheapest = report.records["cheapest"]
    assert isinstance(cheapest, str)
    for part in CHEAPEST:
        assert part in cheapest
    assert CHEAPEST[0] in status.summary

    # the browser is still open on the payment page, with a screenshot taken
    assert runner.holds(first.id)
    page = await task_page(runner, first.id)
    assert page.url.endswith("/payment")
    assert await page.get_by_role("button", name=re.compile("Pay now")).is_visible()
    assert report.artifacts, "a stopped run keeps a screenshot"
    shot = tasks.read_artifact(first.id, report.artifacts[0].name)
    assert shot.startswith(b"\x89PNG") and len(shot) == report.artifacts[0].size

    cancelled = await tasks.cancel_task({"id": first.id})
    assert cancelled.status.state == "checkpoint"  # the browser released, the outcome kept
    assert cancelled.status.model_dump()["released"] is True
    assert not runner.holds(first.id)
    assert await runner.page_for(first.id) is None
    assert [e["flight"] for e in events.of("flight_selected")] == ["IU639"]
    assert events.of("payment") == []


async def test_fill_then_approve_fills_the_card_and_approving_pays(
    tasks: Tasks, runner: WorkspaceRunner, demo: DemoServer, events: Events
) -> None:
    request = {
        "flow": booking(demo, before_last=CARD_STEPS),
        "facts": {**DEMO_FACTS, **CARD},
        "constraints": {"payment": "fill_then_approve", "origins": [origin_of(demo)]},
    }
    paying = await tasks.start_task(request)
    declining = await tasks.start_task(request)
    views = await asyncio.gather(settle(tasks, paying.id), settle(tasks, declining.id))

    for view in views:
        status = view.status
        assert isinstance(status, NeedsApproval), status
        assert status.target.startswith("Pay now")
        assert status.action == "paying for the booking"
        assert view.next[0] == Call.CONTINUE_TASK
        # the card form holds the typed details while the task waits
        page = await task_page(runner, view.id)
        assert page.url.endswith("/payment")
        card = await page.locator("#card-number").input_value()
        assert re.sub(r"\D", "", card) == "4111111111111111"
        assert await page.locator("#card-cvv").input_value() == "737"
        assert await page.locator("#card-expiry").input_value() == "08/29"
    report = await tasks.task_report({"id": paying.id})
    typed = [s for s in report.steps if s.kind == "enter" and s.path in ("15", "16", "17", "18")]
    assert [s.outcome for s in typed] == ["done"] * 4
    assert events.of("payment") == []

    declined = await tasks.continue_task({"id": declining.id, "approve": False})
    assert declined.status.state == "cancelled"
    assert not runner.holds(declining.id)
    assert events.of("payment") == []

    await tasks.continue_task({"id": paying.id, "approve": True})
    done = await settle(tasks, paying.id)
    assert isinstance(done.status, Done), done.status
    assert not runner.holds(paying.id)
    payments = events.of("payment")
    assert len(payments) == 1
    assert payments[0]["card_last4"] == "1111"
    assert payments[0]["flight"] == "IU639" and payments[0]["amount"] == 3512


async def test_fill_then_approve_without_origins_is_refused(tasks: Tasks, demo: DemoServer) -> None:
    with pytest.raises(GoferError) as refused:
        await tasks.start_task(
            {
                "flow": booking(demo, before_last=CARD_STEPS),
                "facts": {**DEMO_FACTS, **CARD},
                "constraints": {"payment": "fill_then_approve"},
            }
        )
    assert refused.value.code == "ORIGINS_REQUIRED"
    assert (await tasks.list_tasks()).tasks == []


async def test_confirm_booking_waits_for_approval(
    tasks: Tasks, runner: WorkspaceRunner, demo: DemoServer, events: Events
) -> None:
    request = {"flow": booking(demo, "confirm", last=CONFIRM), "facts": DEMO_FACTS}
    confirming = await tasks.start_task(request)
    declining = await tasks.start_task(request)
    views = await asyncio.gather(settle(tasks, confirming.id), settle(tasks, declining.id))

    for view in views:
        status = view.status
        assert isinstance(status, NeedsApproval), status
        assert status.target == "Confirm booking"
        assert status.action == "confirming the booking"
        assert (await task_page(runner, view.id)).url.endswith("/review")
    assert events.of("booking_confirmed") == []

    declined = await tasks.continue_task({"id": declining.id, "approve": False})
    assert declined.status.state == "cancelled"
    assert not runner.holds(declining.id)
    assert events.of("booking_confirmed") == []

    await tasks.continue_task({"id": confirming.id, "approve": True})
    done = await settle(tasks, confirming.id)
    assert isinstance(done.status, Done), done.status
    assert CHEAPEST[0] in done.status.answer
    confirmed = events.of("booking_confirmed")
    assert len(confirmed) == 1 and confirmed[0]["flight"] == "IU639"
    assert events.of("payment") == []
    report = await tasks.task_report({"id": confirming.id})
    assert report.spend.runs == 2


async def test_a_dead_continue_button_fails_recoverably_with_a_hint(
    tasks: Tasks, demo: DemoServer, events: Events
) -> None:
    start = await tasks.start_task({"flow": booking(demo, "dead_continue"), "facts": DEMO_FACTS})
    view = await settle(tasks, start.id)

    status = view.status
    assert isinstance(status, Failed), status
    assert status.recoverable is True
    assert status.step == "13"  # {"click": "Continue"} on the passenger form
    assert "changed nothing" in status.reason
    assert status.hint
    assert Call.CONTINUE_TASK in view.next
    assert events.of("passengers") == []
    assert events.of("payment") == []


async def test_injected_instructions_still_end_at_the_payment_checkpoint(
    tasks: Tasks, demo: DemoServer, events: Events
) -> None:
    start = await tasks.start_task({"flow": booking(demo, "injection"), "facts": DEMO_FACTS})
    view = await settle(tasks, start.id)

    status = view.status
    assert isinstance(status, Checkpoint), status
    assert status.continuable is False and status.location.startswith("Pay now")
    assert events.of("payment") == []
    assert events.of("booking_confirmed") == []
    assert [e["items"] for e in events.of("extras")] in ([], [[]])


# ------------------------------------------------------------------ budgets


async def test_a_too_small_action_budget_fails_the_task(
    tasks: Tasks, runner: WorkspaceRunner, demo: DemoServer, events: Events
) -> None:
    start = await tasks.start_task(
        {
            "flow": demo_flow(demo.url),
            "facts": DEMO_FACTS,
            "budget": {"max_actions": 4},
        }
    )
    view = await settle(tasks, start.id)

    status = view.status
    assert isinstance(status, Failed), status
    assert status.recoverable is False
    assert status.hint is not None and "raise budget.max_actions" in status.hint
    assert not runner.holds(start.id)
    report = await tasks.task_report({"id": start.id})
    assert report.spend.actions <= 4
    assert events.of("search") == []


async def test_an_approval_does_not_refill_the_action_budget(tasks: Tasks, pages: Pages) -> None:
    form = pages.add(
        "/tasks-budget/compose",
        "<h1>New message</h1><form method='post' action='/tasks-budget/sent'>"
        "<label for='m'>Message</label><textarea id='m' name='m'></textarea>"
        "<button type='submit'>Send message</button></form>",
    )
    pages.add("/tasks-budget/sent", "<h1>Message sent</h1>")
    after = pages.add("/tasks-budget/after", "<h1>Afterwards</h1>")
    start = await tasks.start_task(
        {
            "flow": {
                "steps": [
                    {"browse": form},
                    {"stop_before": "sending the message"},
                    {"browse": after},
                ]
            },
            "budget": {"max_actions": 2},
        }
    )
    view = await settle(tasks, start.id)
    assert isinstance(view.status, NeedsApproval), view.status
    assert view.status.target == "Send message"
    assert (await tasks.task_report({"id": start.id})).spend.actions == 1

    await tasks.continue_task({"id": start.id, "approve": True})
    view = await settle(tasks, start.id)

    status = view.status
    assert isinstance(status, Failed), status
    assert status.hint is not None and "raise budget.max_actions" in status.hint
    assert status.step == "2"
    assert "/tasks-budget/sent" in pages.hits  # the approved press happened
    assert "/tasks-budget/after" not in pages.hits  # the step after it had no budget left
    report = await tasks.task_report({"id": start.id})
    assert report.spend.actions == 2 and report.spend.runs == 2
