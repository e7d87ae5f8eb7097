"""While a task is planned, the page its text names loads in a real browser; the
plan's first browse there loads nothing again."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gofer.models import ChatServer, OpenAIChatModel
from gofer.planner import ModelPlanner
from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]

PAGE = "<html><body><h1>Fares</h1><p id='fare'>Cheapest fare: 7,346</p></body></html>"


async def test_the_named_page_is_loaded_once_while_the_plan_is_drafted(
    engine: BrowserEngine,
    site: Any,
    chat_server: ChatServer,
) -> None:
    url = site.add("/fares", PAGE)
    chat_server.add(
        json.dumps(
            {
                "vars": {"fare": ""},
                "steps": [{"browse": url}, {"read": "the cheapest fare", "as": "fare"}],
            }
        )
    )
    async with (
        OpenAIChatModel(model="p", base_url=chat_server.base_url) as model,
        WorkspaceRunner(engine=engine) as runner,
        Tasks(runner, planner=ModelPlanner(model)) as tasks,
    ):
        view = await tasks.start_task(
            {
                "task": f"Go to {url} and read the cheapest fare",
                "constraints": {"surfaces": ["browser"]},
            }
        )
        view = await tasks.await_task({"id": view.id, "timeout_ms": 30_000})
        report = await tasks.task_report({"id": view.id})
    assert view.status.state == "done", view.status
    assert "7,346" in json.dumps(report.records, ensure_ascii=False)
    assert site.hits.count("/fares") == 1
    assert report.spend.actions == 0  # the browse found the page loaded
    assert any(t.event == "preloaded" for t in report.trace)


async def test_a_page_that_was_not_named_is_loaded_by_the_flow(
    engine: BrowserEngine,
    site: Any,
    chat_server: ChatServer,
) -> None:
    url = site.add("/fares", PAGE)
    chat_server.add(
        json.dumps(
            {
                "vars": {"fare": ""},
                "steps": [{"browse": url}, {"read": "the cheapest fare", "as": "fare"}],
            }
        )
    )
    async with (
        OpenAIChatModel(model="p", base_url=chat_server.base_url) as model,
        WorkspaceRunner(engine=engine) as runner,
        Tasks(runner, planner=ModelPlanner(model)) as tasks,
    ):
        view = await tasks.start_task(
            {
                "task": "Read the cheapest fare on the fares page",
                "constraints": {"surfaces": ["browser"]},
            }
        )
        view = await tasks.await_task({"id": view.id, "timeout_ms": 30_000})
        report = await tasks.task_report({"id": view.id})
    assert view.status.state == "done", view.status
    assert site.hits.count("/fares") == 1
    assert report.spend.actions == 1
