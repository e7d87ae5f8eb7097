"""Masking is for what leaves gofer, never for what the grounder sees.

A secret fact whose value occurs inside a label ("US" inside "Username") must not
stop a flow from typing into that field; and no view, report, trace, log line or
model request holds the secret or the label it hides in.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gofer.config import config_from_env
from gofer.facts import Facts
from gofer.models import ChatServer
from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks
from gofer.wiring import ModelPasses

from ..conftest import FAST
from ..test_decide_browser import picks
from .conftest import WidgetSite

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


async def test_a_secret_inside_a_label_still_lets_the_flow_type_into_that_field(
    engine: BrowserEngine,
    widgets: WidgetSite,
    chat_server: ChatServer,
    canary: Callable[[str], str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="gofer")
    email = canary("marten.canary@example.org")
    facts = {"user": "asha", "email": email, "region": "US"}
    secret = ["email", "region"]
    chat_server.default = picks("Continue to sign-up")
    posted = len(widgets.posted)
    flow = {
        "steps": [
            {"browse": widgets.url("signup-region")},
            {"enter": "${user}", "into": "Username"},
            {"enter": "${email}", "into": "Email"},
            {"enter": "${region}", "into": "Region code"},
            {"click": "Continue"},  # two buttons say it: the model decider is asked
        ]
    }
    config = config_from_env({"GOFER_MODEL_BASE_URL": chat_server.base_url})
    async with (
        ModelPasses(config.models) as passes,
        WorkspaceRunner(engine=engine, settings=FAST, decider=passes.decider) as runner,
        Tasks(runner, **passes.for_tasks()) as tasks,
    ):
        view = await tasks.start_task({"flow": flow, "facts": facts, "secret_facts": secret})
        views = [view]
        view = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        views.append(view)
        report = await tasks.task_report({"id": view.id})
        views += (await tasks.list_tasks()).tasks
        await tasks.cancel_task({"id": view.id})
    assert view.status.state == "done", view.status
    # judged by what the site received
    assert widgets.posted[posted:] == [{"user": "asha", "email": email, "region": "US"}]
    assert chat_server.requests, "the decider was never asked"

    shown = [s for v in views for s in _strings(json.loads(v.model_dump_json()))]
    shown += _strings(json.loads(report.model_dump_json()))
    shown += [r.getMessage() for r in caplog.records if r.name.startswith("gofer")]
    found = Facts(facts, secret=secret)
    # The label the secret hides in is never shown unmasked; the long secret nowhere.
    assert not [s for s in shown if "username" in s.casefold() or email in s]
    assert any("${region}ername" in s for s in shown)
    for request in chat_server.requests:
        user = request["messages"][-1]["content"]
        assert found.leaks(user) == [] and "${region}ername" in user
    assert not any("username" in body.casefold() for body in chat_server.bodies)
