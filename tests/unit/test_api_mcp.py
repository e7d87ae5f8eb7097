"""The MCP server's tools, in process (the ``mcp`` package's own client), on a scripted
controller: the tools and their schemas, a task followed through its views, errors,
elicitation of plain values, and secrets that are never asked in a form."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from mcp import Client
from mcp_types import (
    ElicitCompleteNotification,
    ElicitRequestParams,
    ElicitRequestURLParams,
    ElicitResult,
)

from gofer.api import TaskService, mcp_status
from gofer.api.mcp_server import McpOwners, build_mcp_server
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.contract import (
    AwaitTaskRequest,
    Cancelled,
    Checkpoint,
    ContinueTaskRequest,
    Done,
    Failed,
    NeedsApproval,
    NeedsHuman,
    NeedsInput,
    NeedsPlan,
    Running,
)
from gofer.tasks.testing import fail, gate

CALLS = {
    "describe",
    "plan_task",
    "start_task",
    "await_task",
    "continue_task",
    "cancel_task",
    "task_report",
    "list_tasks",
}
FLOW_TOOLS = {"list_flows", "show_flow", "save_flow", "start_saved_flow"}
FILE_TOOLS = {"upload_file", "list_task_files", "read_task_file"}


@pytest_asyncio.fixture
async def setup() -> AsyncIterator[tuple[ScriptedRunner, TaskService]]:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        yield runner, TaskService(tasks)


def server_of(service: TaskService) -> Any:
    return build_mcp_server(
        service,
        McpOwners(None, "local"),
        page_url=lambda task_id: f"http://127.0.0.1:1/tasks/{task_id}",
    )


async def test_every_call_is_a_tool_with_a_description_and_schemas(
    setup: tuple[ScriptedRunner, TaskService],
) -> None:
    _runner, service = setup
    async with Client(server_of(service)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert set(tools) == CALLS | FLOW_TOOLS | FILE_TOOLS
        for tool in tools.values():
            assert tool.description and len(tool.description) > 60, tool.name
            assert tool.output_schema is not None, tool.name
        start = tools["start_task"].input_schema["properties"]
        assert {"flow", "task", "facts", "secret_facts", "constraints"} <= set(start)
        assert "${first name}" in start["facts"]["description"]
        view = tools["start_task"].output_schema
        assert view is not None
        assert view["properties"]["task_status"]["enum"] == [
            "working",
            "input_required",
            "completed",
            "failed",
            "cancelled",
        ]
        assert "follow" in (client.instructions or "").lower()


async def test_an_agent_follows_next_from_start_to_done(
    setup: tuple[ScriptedRunner, TaskService],
) -> None:
    runner, service = setup
    runner.add(gate("1", "Confirm booking"))
    flow = [
        {"browse": "https://air.example.com/"},
        {"stop_before": "confirming the booking"},
        {"click": "Done"},
    ]
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
        bare = await client.call_tool("continue_task", {"id": task_id, "approve": True})
        assert bare.is_error and "approval_id" in str(bare.content)
        approval_id = waiting["status"]["approval_id"]
        await client.call_tool(
            "continue_task", {"id": task_id, "approve": True, "approval_id": approval_id}
        )
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


async def test_a_webhook_is_taken_on_mcp_as_on_http(
    setup: tuple[ScriptedRunner, TaskService],
) -> None:
    _runner, service = setup
    async with Client(server_of(service)) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        for name in ("start_task", "start_saved_flow"):
            assert "notify" in tools[name].input_schema["properties"], name
        hook = {"url": "http://127.0.0.1:9/hook", "secret": "hook-secret"}
        refused = await client.call_tool(
            "start_task", {"flow": [{"browse": "https://shop.example.com/"}], "notify": hook}
        )
        assert refused.is_error
        text = refused.content[0].text  # type: ignore[union-attr]
        assert '"code": "INVALID_REQUEST"' in text and "hook-secret" not in text
        listed = await client.call_tool("list_tasks", {})
        assert listed.structured_content is not None
        assert listed.structured_content["tasks"] == []


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
    asked: list[ElicitRequestParams] = []

    async def answer(_context: object, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params)
        return ElicitResult(action="decline")

    flow = [{"browse": "https://bank.example.com/"}, {"enter": "${password}", "into": "Password"}]
    async with Client(server_of(service), elicitation_callback=answer) as client:
        started = (await client.call_tool("start_task", {"flow": flow})).structured_content
        assert started is not None
        waiting = (await client.call_tool("await_task", {"id": started["id"]})).structured_content
    page = f"http://127.0.0.1:1/tasks/{started['id']}"
    assert [type(p) for p in asked] == [ElicitRequestURLParams]
    assert isinstance(asked[0], ElicitRequestURLParams) and asked[0].url == page
    assert "password" in asked[0].message
    assert waiting is not None and waiting["status"] == {
        "state": "needs_input",
        "fields": ["password"],
    }
    assert waiting["page_url"] == page
    assert waiting["page_url"] in waiting["guidance"] and "secret" in waiting["guidance"]


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_user_sent_to_the_page_comes_back_to_a_task_that_moved_on(
    setup: tuple[ScriptedRunner, TaskService],
    mode: str,
) -> None:
    """URL elicitation: the user agrees to open the task page and does there what only
    they do (the page's form posts the same continue); await_task answers with the view
    after it. On the current protocol it is a round trip of the tool call; on the
    2025 one an elicitation request, with its completion notified."""
    runner, service = setup
    runner.add(gate("1", "Pay now"))
    asked: list[ElicitRequestURLParams] = []
    person: list[asyncio.Task[object]] = []

    async def on_the_page(task_id: str, state: str) -> object:
        if state == "needs_input":
            return await service.continue_task(
                "local",
                ContinueTaskRequest(
                    id=task_id,
                    inputs={"card number": "4111 1111 1111 1111"},
                    secret_inputs=["card number"],
                ),
            )
        shown = await service.await_task("local", AwaitTaskRequest(id=task_id, timeout_ms=0))
        assert isinstance(shown.status, NeedsApproval)
        approve = ContinueTaskRequest(
            id=task_id, approve=True, approval_id=shown.status.approval_id
        )
        return await service.continue_task("local", approve)

    async def answer(_context: object, params: ElicitRequestParams) -> ElicitResult:
        assert isinstance(params, ElicitRequestURLParams)
        asked.append(params)
        task_id = params.url.rsplit("/", 1)[1]
        state = "needs_input" if "card number" in params.message else "needs_approval"
        person.append(asyncio.create_task(on_the_page(task_id, state)))
        return ElicitResult(action="accept")

    flow = [
        {"browse": "https://shop.example.com/"},
        {"enter": "${card number}", "into": "Card number"},
        {"stop_before": "paying for the order"},
        {"click": "Done"},
    ]
    constraints = {"payment": "fill_then_approve", "origins": ["https://shop.example.com"]}
    completed: list[str] = []

    async def notices(message: object) -> None:
        root = getattr(message, "root", message)
        if isinstance(root, ElicitCompleteNotification):
            completed.append(root.params.elicitation_id)

    async with Client(
        server_of(service), elicitation_callback=answer, mode=mode, message_handler=notices
    ) as client:
        started = (
            await client.call_tool("start_task", {"flow": flow, "constraints": constraints})
        ).structured_content
        assert started is not None and started["status"]["state"] == "needs_input"
        task_id = started["id"]
        states = []
        for _ in range(6):
            got = (await client.call_tool("await_task", {"id": task_id})).structured_content
            assert got is not None
            states.append(got["status"]["state"])
            if got["status"]["state"] == "done":
                break
    await asyncio.gather(*person)
    assert [p.url for p in asked] == [f"http://127.0.0.1:1/tasks/{task_id}"] * 2
    assert "needs_input" not in states and states[-1] == "done"
    assert "Pay now" in asked[1].message and "4111" not in " ".join(p.message for p in asked)
    if mode == "legacy":
        ids = [p.elicitation_id for p in asked]
        assert None not in ids and len(set(ids)) == 2 and completed == ids
    else:
        assert [p.elicitation_id for p in asked] == [None, None] and completed == []


async def test_a_wall_for_a_person_goes_to_the_page_and_an_agent_may_still_approve(
    setup: tuple[ScriptedRunner, TaskService],
) -> None:
    runner, service = setup
    runner.add(
        fail(
            "1",
            "the search did not load",
            screen_text="Please complete the CAPTCHA to prove you are human.",
        )
    )
    asked: list[ElicitRequestParams] = []

    async def answer(_context: object, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params)
        return ElicitResult(action="cancel")

    flow = [{"browse": "https://air.example.com/"}, {"click": "Search"}]
    async with Client(server_of(service), elicitation_callback=answer) as client:
        started = (await client.call_tool("start_task", {"flow": flow})).structured_content
        assert started is not None
        wall = (await client.call_tool("await_task", {"id": started["id"]})).structured_content
        assert wall is not None and wall["status"]["state"] == "needs_human"
        assert len(asked) == 1 and isinstance(asked[0], ElicitRequestURLParams)
        assert "captcha" in asked[0].message.casefold()
        await client.call_tool("continue_task", {"id": started["id"]})
        done = (await client.call_tool("await_task", {"id": started["id"]})).structured_content
        assert done is not None and done["status"]["state"] == "done"
        runner.add(gate("1", "Confirm booking"))
        booking = (
            await client.call_tool(
                "start_task",
                {
                    "flow": [
                        {"browse": "https://air.example.com/"},
                        {"stop_before": "confirming the booking"},
                    ]
                },
            )
        ).structured_content
        assert booking is not None
        gated = (await client.call_tool("await_task", {"id": booking["id"]})).structured_content
        assert gated is not None and gated["status"]["state"] == "needs_approval"
    assert len(asked) == 1  # an approval that does not pay is the agent's to ask


@pytest.mark.parametrize(
    ("status", "word"),
    [
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
    ],
)
def test_each_status_has_its_mcp_tasks_word(status: Any, word: str) -> None:
    assert mcp_status(status) == word
