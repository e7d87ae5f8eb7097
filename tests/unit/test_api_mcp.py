"""The MCP server's tools, in process (the ``mcp`` package's own client), on a scripted
controller: the tools and their schemas, a task followed through its views, errors,
elicitation of plain values, and secrets that are never asked in a form."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from mcp import Client
from mcp_types import ElicitRequestParams, ElicitResult

from gofer.api import TaskService, mcp_status
from gofer.api.mcp_server import McpOwners, build_mcp_server
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.models import (
    Cancelled,
    Checkpoint,
    Done,
    Failed,
    NeedsApproval,
    NeedsHuman,
    NeedsInput,
    NeedsPlan,
    Running,
)
from gofer.tasks.runner import gate

CALLS = {"describe", "plan_task", "start_task", "await_task", "continue_task", "cancel_task",
         "task_report", "list_tasks"}


@pytest_asyncio.fixture
async def setup() -> AsyncIterator[tuple[ScriptedRunner, TaskService]]:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        yield runner, TaskService(tasks)


def server_of(service: TaskService) -> Any:
    return build_mcp_server(service, McpOwners(None, "local"),
                            page_url=lambda task_id: f"http://127.0.0.1:1/tasks/{task_id}")


async def test_every_call_is_a_tool_with_a_description_and_schemas(
    setup: tuple[ScriptedRunner, TaskService],
) -> None:
    _runner, service = setup
    async with Client(server_of(service)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == CALLS
        for tool in tools.values():
            assert tool.description and len(tool.description) > 60, tool.name
            assert tool.output_schema is not None, tool.name
        start = tools["start_task"].input_schema["properties"]
        assert {"flow", "task", "facts", "secret_facts", "constraints"} <= set(start)
        assert "${first name}" in start["facts"]["description"]
        view = tools["start_task"].output_schema
        assert view is not None
        assert view["properties"]["task_status"]["enum"] == [
            "working", "input_required", "completed", "failed", "cancelled"]
        assert "follow" in (client.instructions or "").lower()


async def test_an_agent_follows_next_from_start_to_done(
    setup: tuple[ScriptedRunner, TaskService],
) -> None:
    runner, service = setup
    runner.add(gate("1", "Confirm booking"))
    flow = [{"browse": "https://air.example.com/"}, {"stop_before": "confirming the booking"},
            {"click": "Done"}]
    async with Client(server_of(service)) as client:
        started = (await client.call_tool("start_task", {"flow": flow})).structured_content
        assert started is not None and started["task_status"] == "working"
        assert started["next"] == ["await_task", "cancel_task"]
        task_id = started["id"]
        waiting = (await client.call_tool("await_task", {"id": task_id})).structured_content
        assert waiting is not None
        assert waiting["status"]["state"] == "needs_approval"
        assert waiting["task_status"] == "input_required"
        assert "approve true" in waiting["guidance"]
        await client.call_tool("continue_task", {"id": task_id, "approve": True})
        done = (await client.call_tool("await_task", {"id": task_id})).structured_content
        assert done is not None and done["status"]["state"] == "done"
        assert done["task_status"] == "completed" and done["next"] == ["task_report"]
        report = (await client.call_tool("task_report", {"id": task_id})).structured_content
        assert report is not None and [s["outcome"] for s in report["steps"]][-1] == "done"
        listed = (await client.call_tool("list_tasks", {})).structured_content
        assert listed is not None and [t["id"] for t in listed["tasks"]] == [task_id]


async def test_errors_come_back_as_tool_errors_with_their_code(
    setup: tuple[ScriptedRunner, TaskService],
) -> None:
    _runner, service = setup
    async with Client(server_of(service)) as client:
        missing = await client.call_tool("await_task", {"id": "task-77"})
        assert missing.is_error
        text = missing.content[0].text  # type: ignore[union-attr]
        assert '"code": "UNKNOWN_TASK"' in text
        bad = await client.call_tool("start_task", {"flow": [{"fly": "away"}]})
        assert bad.is_error and '"code": "INVALID_FLOW"' in bad.content[0].text  # type: ignore[union-attr]


async def test_plain_values_are_elicited_and_the_task_goes_on(
    setup: tuple[ScriptedRunner, TaskService],
) -> None:
    runner, service = setup
    asked: list[ElicitRequestParams] = []

    async def answer(_context: object, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params)
        return ElicitResult(action="accept", content={"email": "asha@example.com"})

    flow = [{"browse": "https://air.example.com/"}, {"enter": "${email}", "into": "Email"}]
    async with Client(server_of(service), elicitation_callback=answer) as client:
        started = (await client.call_tool("start_task", {"flow": flow})).structured_content
        assert started is not None and started["status"]["state"] == "needs_input"
        task_id = started["id"]
        going = (await client.call_tool("await_task", {"id": task_id})).structured_content
        assert going is not None and going["status"]["state"] in ("running", "done")
        assert len(asked) == 1
        assert asked[0].requested_schema["required"] == ["email"]  # type: ignore[union-attr]
        done = (await client.call_tool("await_task", {"id": task_id})).structured_content
        assert done is not None and done["status"]["state"] == "done"
    assert [r.variables.get("email") for _t, r in runner.requests] == ["asha@example.com"]


async def test_secret_values_go_to_the_task_page_never_to_a_form(
    setup: tuple[ScriptedRunner, TaskService],
) -> None:
    _runner, service = setup
    asked: list[object] = []

    async def answer(_context: object, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params)
        return ElicitResult(action="decline")

    flow = [{"browse": "https://bank.example.com/"}, {"enter": "${password}", "into": "Password"}]
    async with Client(server_of(service), elicitation_callback=answer) as client:
        started = (await client.call_tool("start_task", {"flow": flow})).structured_content
        assert started is not None
        waiting = (await client.call_tool("await_task", {"id": started["id"]})).structured_content
    assert asked == []
    assert waiting is not None and waiting["status"] == {"state": "needs_input",
                                                         "fields": ["password"]}
    assert waiting["page_url"] == f"http://127.0.0.1:1/tasks/{started['id']}"
    assert waiting["page_url"] in waiting["guidance"] and "secret" in waiting["guidance"]


@pytest.mark.parametrize(("status", "word"), [
    (Running(), "working"),
    (NeedsInput(fields=["email"]), "input_required"),
    (NeedsApproval(action="sending", target="Send"), "input_required"),
    (NeedsHuman(reason="a captcha"), "input_required"),
    (Checkpoint(reason="payment", location="Pay", summary="", continuable=False), "completed"),
    (Checkpoint(reason="look", location="x", summary="", continuable=True), "input_required"),
    (NeedsPlan(guide=""), "failed"),
    (Done(answer="", records={}), "completed"),
    (Failed(step="1", reason="x", recoverable=True), "input_required"),
    (Failed(step="1", reason="x", recoverable=False), "failed"),
    (Cancelled(), "cancelled"),
])
def test_each_status_has_its_mcp_tasks_word(status: Any, word: str) -> None:
    assert mcp_status(status) == word
