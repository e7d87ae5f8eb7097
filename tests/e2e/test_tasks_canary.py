"""A canary: tasks holding secret facts go through every status on the real browser and
the demo site, and no view, report, trace or log line ever holds a secret value.

The secrets are really used: the card is typed into the payment form and paid with
(after approval), the password signs in at the login wall, the CVV arrives later
through ``continue_task``. Everything a caller or an operator can see is collected
(every view from ``watch``, ``await_task`` and ``list_tasks``, every ``task_report``
as JSON, every ``gofer`` log record at DEBUG) and searched with ``Facts.leaks``,
which finds a value in any common spacing (``4111-1111-1111-1111``,
``4111111111111111``, ``7 3 7``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import pytest_asyncio

from gofer.cli import DEMO_FACTS
from gofer.demo import DemoServer
from gofer.facts import Facts
from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks, TaskView

from .conftest import FAST, Events
from .test_tasks_booking import CARD, CARD_STEPS, PAY, booking, origin_of, settle, task_page

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

PASSWORD = "Kestrel-Skye-2291"
SECRETS = {**CARD, "password": PASSWORD}
SIGN_IN: dict[str, Any] = {
    "if": {"shows": "Sign in to continue"},
    "then": [
        {"enter": "${email}", "into": "Email"},
        {"enter": "${password}", "into": "Password"},
        {"click": "Sign in"},
    ],
}


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


def _strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included (numbers such as timings are not text
    a secret could hide in, and would only make chance matches of a short CVV)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


class Seen:
    """Everything the canary collected, by where it came from."""

    def __init__(self, demo: DemoServer) -> None:
        self.texts: list[tuple[str, str]] = []
        self.port = str(demo.port)
        self.states: set[str] = set()
        self.traced: set[str] = set()

    def add_json(self, where: str, dumped: str) -> None:
        for text in _strings(json.loads(dumped)):
            # The site's random port could hold the CVV's digits by chance.
            self.texts.append((where, text.replace(self.port, "PORT")))

    def add_views(self, where: str, views: list[TaskView]) -> None:
        for view in views:
            self.states.add(view.status.state)
            self.add_json(where, view.model_dump_json())

    async def add_all(self, tasks: Tasks, *ids: str) -> None:
        """Every list view and every report of ``ids``, as they are now."""
        self.add_views("list_tasks", (await tasks.list_tasks()).tasks)
        for task_id in ids:
            self.add_views("await_task", [await tasks.await_task({"id": task_id, "timeout_ms": 0})])
            report = await tasks.task_report({"id": task_id})
            self.add_json(f"task_report {task_id}", report.model_dump_json())
            if report.trace:
                self.traced.add(task_id)


async def paid_after_input_and_approval(
    tasks: Tasks, runner: WorkspaceRunner, demo: DemoServer, seen: Seen
) -> str:
    """needs_input (the CVV comes later) -> needs_approval -> done: the task signs in with
    the password, types the card and pays once approved."""
    flow = booking(demo, "login", before_last=CARD_STEPS, last=PAY)
    flow["steps"].insert(9, SIGN_IN)
    without_cvv = {k: v for k, v in {**DEMO_FACTS, **SECRETS}.items() if k != "cvv"}
    a = await tasks.start_task(
        {
            "flow": flow,
            "facts": without_cvv,
            "constraints": {"payment": "fill_then_approve", "origins": [origin_of(demo)]},
        }
    )
    seen.add_views("start_task", [a])
    assert a.status.state == "needs_input"
    await seen.add_all(tasks, a.id)
    views: list[TaskView] = [
        await tasks.continue_task({"id": a.id, "inputs": {"cvv": CARD["cvv"]}})
    ]
    await settle(tasks, a.id, views)
    assert views[-1].status.state == "needs_approval", views[-1].status
    page = await task_page(runner, a.id)
    assert await page.locator("#card-cvv").input_value() == CARD["cvv"]
    await seen.add_all(tasks, a.id)
    views.append(await tasks.continue_task({"id": a.id, "approve": True}))
    await settle(tasks, a.id, views)
    assert views[-1].status.state == "done", views[-1].status
    seen.add_views(f"watch {a.id}", views)
    await seen.add_all(tasks, a.id)
    return a.id


async def signed_in_by_a_person_then_cancelled(
    tasks: Tasks, runner: WorkspaceRunner, demo: DemoServer, seen: Seen
) -> str:
    """needs_human at the login wall (a person signs in) -> checkpoint -> released (the
    browser let go, the status still the checkpoint)."""
    b = await tasks.start_task(
        {
            "flow": booking(demo, "login"),
            "facts": {**DEMO_FACTS, **SECRETS},
            "constraints": {"origins": [origin_of(demo)]},
        }
    )
    views = [b]
    await settle(tasks, b.id, views)
    assert views[-1].status.state == "needs_human", views[-1].status
    await seen.add_all(tasks, b.id)
    page = await task_page(runner, b.id)
    await page.get_by_label("Email").fill(DEMO_FACTS["email"])
    await page.get_by_label("Password").fill(PASSWORD)
    async with page.expect_navigation():
        await page.get_by_role("button", name="Sign in").click()
    views.append(await tasks.continue_task({"id": b.id}))
    await settle(tasks, b.id, views)
    assert views[-1].status.state == "checkpoint", views[-1].status
    await seen.add_all(tasks, b.id)
    views.append(await tasks.cancel_task({"id": b.id}))
    assert views[-1].status.model_dump()["released"] is True
    seen.add_views(f"watch {b.id}", views)
    await seen.add_all(tasks, b.id)
    return b.id


async def failed_typing_the_card(tasks: Tasks, demo: DemoServer, seen: Seen) -> str:
    """failed, at a step that types the card number where there is no card form."""
    c = await tasks.start_task(
        {
            "flow": {
                "steps": [{"browse": demo.url}, {"enter": "${card number}", "into": "Card number"}]
            },
            "facts": {**DEMO_FACTS, **SECRETS},
            "constraints": {"payment": "fill_then_approve", "origins": [origin_of(demo)]},
        }
    )
    views = [c]
    await settle(tasks, c.id, views)
    assert views[-1].status.state == "failed", views[-1].status
    seen.add_views(f"watch {c.id}", views)
    await seen.add_all(tasks, c.id)
    return c.id


async def test_no_secret_leaves_a_task_in_any_status(
    tasks: Tasks,
    runner: WorkspaceRunner,
    demo: DemoServer,
    events: Events,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="gofer")
    facts = Facts({**DEMO_FACTS, **SECRETS})
    assert set(SECRETS) <= facts.secret_names
    seen = Seen(demo)

    ran = await asyncio.gather(
        paid_after_input_and_approval(tasks, runner, demo, seen),
        signed_in_by_a_person_then_cancelled(tasks, runner, demo, seen),
        failed_typing_the_card(tasks, demo, seen),
    )
    assert [e["wall"] for e in events.of("login")] == [True, True]
    assert [e["card_last4"] for e in events.of("payment")] == ["1111"]

    # needs_plan: a plain-language task with no planner configured.
    plain = await tasks.start_task(
        {
            "task": "Book the cheapest flight from Delhi to Srinagar and pay with my card",
            "facts": {**DEMO_FACTS, **SECRETS},
        }
    )
    seen.add_views("start_task", [plain])
    await seen.add_all(tasks, plain.id)

    logged = [r.getMessage() for r in caplog.records if r.name.startswith("gofer")]
    assert logged, "the tasks logged nothing to search"
    for line in logged:
        seen.texts.append(("log", line.replace(seen.port, "PORT")))

    assert seen.states >= {
        "running",
        "needs_input",
        "needs_approval",
        "done",
        "needs_human",
        "checkpoint",
        "failed",
        "needs_plan",
    }
    assert seen.traced == set(ran)
    reported = "\n".join(text for where, text in seen.texts if where.startswith("task_report"))
    for name in ("card number", "cvv", "password"):
        assert "${" + name + "}" in reported, f"the report never mentions {name} (masked)"
    leaks = [(where, facts.leaks(text), text) for where, text in seen.texts if facts.leaks(text)]
    assert leaks == []
