"""The MCP server (the official ``mcp`` package's ``MCPServer``): the agent calls as
tools, over stdio or streamable HTTP.

Every tool answers with the task's :class:`~gofer.api.agent.AgentView` (or the call's
own reply), whose ``id`` is the handle for the next call: the server keeps no session
state, so the HTTP transport runs stateless. Every error, a bad argument included,
comes back as a tool result with ``isError`` whose text is the HTTP API's error body,
``{"error": {"code", "message", "hint", "at", ...}}``, and nothing else.

A task that needs values the client can ask its user for (form elicitation, when the
client supports it) has ``await_task`` ask them that way and go on with the answers.
Secret values, approvals of payments and walls only a person can pass are never asked
in a form (the MCP spec forbids it for secrets): with a client that supports URL
elicitation, ``await_task`` sends its user to the task page that way and, once they
agree to go, waits (within its timeout) until the task moves on, then tells the
client the elicitation is complete; with any client, the view's ``page_url`` and
``guidance`` send the person there (:mod:`gofer.api.mcp_elicit`).

Each tool is a function of this module (or of :mod:`gofer.api.mcp_flows` and
:mod:`gofer.api.mcp_files`) over the server's one
:class:`~gofer.api.service.TaskService` (:mod:`gofer.api.mcp_face`);
:func:`build_mcp_server` puts them on a server.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import Field, JsonValue

from gofer.api import mcp_files, mcp_flows
from gofer.api.agent import AgentView
from gofer.api.mcp_elicit import answer_elicited, back_from_page, elicit, to_page
from gofer.api.mcp_face import (
    Budget,
    Constraints,
    Facts,
    GoferMcp,
    McpOwners,
    SecretFacts,
    TaskId,
    arguments,
    mcp_of,
    owner_of,
    view_of,
)
from gofer.api.service import TaskService
from gofer.tasks import (
    DEFAULT_LIST_LIMIT,
    MAX_AWAIT_MS,
    MAX_LIST_LIMIT,
    AwaitTaskRequest,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeDetail,
    DescribeReply,
    DescribeRequest,
    ListTasksReply,
    ListTasksRequest,
    NotifySpec,
    OutputSpec,
    PlanTaskReply,
    PlanTaskRequest,
    StartTaskRequest,
    TaskBudget,
    TaskConstraints,
    TaskReport,
    TaskReportRequest,
)

__all__ = ["INSTRUCTIONS", "TOOLS", "McpOwners", "build_mcp_server"]

INSTRUCTIONS = """\
gofer runs a whole job on the web in a real browser, in the background, and stops only \
when it needs you: a value it lacks, your approval before an action that cannot be \
undone, a person past a captcha or a login, or the checkpoint before money moves (it \
never pays).

How to use it:
1. describe: a brief (a few KB) with the calls, the step kinds with examples and the \
rules; describe with detail "flow" adds the full guide and the flow's JSON Schema.
2. start_task with `flow` (a JSON flow written with the guide) or, when describe says a \
planner is configured, `task` in plain words. Put the user's details in `facts` \
(name -> value) and list secret ones (passwords, card data) in `secret_facts`.
3. Follow `next` and `guidance` in every view: await_task while task_status is \
`working`; continue_task with `inputs` or `approve` when it is `input_required`; send a \
person to `page_url` when guidance says so. `completed`, `failed` and `cancelled` are \
final; so is a `checkpoint` once cancel_task released its browser (it stays a \
checkpoint, released true). Call task_report then.
Errors are results with isError whose text is JSON: {"error": {"code", "message", \
"hint", "at"}}.
Every view carries the task's `id`; pass it to the next call. Nothing else is remembered \
between calls."""

_READ_ONLY = ToolAnnotations(read_only_hint=True)


async def describe(
    ctx: Context[Any, Any],
    detail: Annotated[
        DescribeDetail,
        Field(
            description="brief (default, a few KB: enough to write a flow and make every "
            "call); full (the flow guide, every JSON Schema, worked examples); or one "
            "section: flow, calls or examples"
        ),
    ] = "brief",
) -> Annotated[CallToolResult, DescribeReply]:
    """Call this first. Returns what gofer can do here (surfaces, whether a planner is
    configured), each tool in a line, every step kind with an example, and the rules
    (secrets, payment, following `next`); detail "flow" or "full" adds the guide and
    JSON Schemas."""
    await owner_of(ctx)
    reply = await mcp_of(ctx).service.describe(arguments(DescribeRequest, detail=detail))
    data = reply.model_dump(mode="json", exclude_none=True)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


async def plan_task(
    ctx: Context[Any, Any],
    task: Annotated[str, Field(description="the job in plain words")],
    facts: Facts = None,
    secret_facts: SecretFacts = None,
    constraints: Constraints = None,
) -> PlanTaskReply:
    """Draft a flow for a plain-language job without running it (needs a planner;
    describe says whether one is configured). Returns the flow and the names it still
    needs values for; pass the flow to start_task."""
    owner = await owner_of(ctx)
    request = arguments(
        PlanTaskRequest,
        task=task,
        facts=facts or {},
        secret_facts=secret_facts or [],
        constraints=constraints or TaskConstraints(),
    )
    return await mcp_of(ctx).service.plan_task(owner, request)


async def start_task(
    ctx: Context[Any, Any],
    flow: Annotated[
        JsonValue,
        Field(
            description='the job as a flow: {"steps": [{"browse": URL}, {"click": '
            '"Search"}, ...]} written with describe\'s guide; end a purchase with '
            '{"stop_before": "paying"}'
        ),
    ] = None,
    task: Annotated[
        str | None,
        Field(description="the job in plain words, instead of flow (needs a planner)"),
    ] = None,
    facts: Facts = None,
    secret_facts: SecretFacts = None,
    constraints: Constraints = None,
    budget: Budget = None,
    output: Annotated[
        OutputSpec | None,
        Field(
            description="a fixed shape for the result: instructions and a JSON schema "
            "(needs an output model)"
        ),
    ] = None,
    idempotency_key: Annotated[
        str | None,
        Field(
            description="any unique string; a retried call with the same key and "
            "arguments opens no second task"
        ),
    ] = None,
    notify: Annotated[
        NotifySpec | None,
        Field(
            description="a webhook instead of polling: each change that needs you or "
            "ends the task is POSTed there, signed with secret"
        ),
    ] = None,
    files: Annotated[
        dict[str, str] | None,
        Field(
            description="files the flow uploads: the name it uses (${cv}) to the id "
            "upload_file returned"
        ),
    ] = None,
) -> AgentView:
    """Hand gofer a job: it starts in the background and this returns at once with the
    task's view. Give `flow` (or `task` in plain words when a planner is configured)
    and the user's details as `facts`. Then follow the view's `next` and `guidance`:
    usually await_task next."""
    owner = await owner_of(ctx)
    request = arguments(
        StartTaskRequest,
        flow=flow,
        task=task,
        facts=facts or {},
        secret_facts=secret_facts or [],
        constraints=constraints or TaskConstraints(),
        budget=budget or TaskBudget(),
        output=output,
        notify=notify,
        files=files or {},
    )
    service = mcp_of(ctx).service
    return view_of(ctx, await service.start_task(owner, request, idempotency_key=idempotency_key))


async def await_task(
    ctx: Context[Any, Any],
    id: TaskId,
    timeout_ms: Annotated[
        int,
        Field(
            ge=0,
            description=f"how long to wait for the task to stop running, in ms; a "
            f"larger value is capped at {MAX_AWAIT_MS} (as over HTTP)",
        ),
    ] = MAX_AWAIT_MS,
) -> AgentView | InputRequiredResult:
    """Call it while task_status is working. Returns the task's view as soon as it
    needs you or finishes, or when timeout_ms passes (still working: call it again).
    When the task needs plain values and your client can ask its user (elicitation),
    they are asked that way and the task goes on with the answers."""
    owner = await owner_of(ctx)
    deadline = asyncio.get_running_loop().time() + timeout_ms / 1000
    answered = await answer_elicited(ctx, owner, id)
    if answered is None:
        answered = await back_from_page(ctx, owner, id, deadline)
    if answered is not None:
        return view_of(ctx, answered)
    service = mcp_of(ctx).service
    current = await service.await_task(owner, AwaitTaskRequest(id=id, timeout_ms=timeout_ms))
    if ctx.input_responses:  # the user answered (or turned down) one ask: no more
        return view_of(ctx, current)
    asked = await elicit(ctx, owner, current)
    if asked is None:
        asked = await to_page(ctx, owner, current, deadline)
    if isinstance(asked, InputRequiredResult):
        return asked
    return view_of(ctx, asked or current)


async def continue_task(
    ctx: Context[Any, Any],
    id: TaskId,
    inputs: Annotated[
        dict[str, str] | None,
        Field(description="values the task asked for (needs_input), name -> value"),
    ] = None,
    secret_inputs: Annotated[
        list[str] | None, Field(description="names among inputs to keep secret")
    ] = None,
    approve: Annotated[
        bool | None,
        Field(
            description="for needs_approval: true presses the control, false cancels the "
            "task; ask the user first"
        ),
    ] = None,
    approval_id: Annotated[
        str | None,
        Field(
            description="the needs_approval's approval_id: only the control it names is "
            "pressed; a stale or used one is refused"
        ),
    ] = None,
    files: Annotated[
        dict[str, str] | None,
        Field(description="files the task asked for: name -> the id upload_file returned"),
    ] = None,
) -> AgentView:
    """Call it when the view's next lists it: `inputs` for needs_input, `approve` for
    needs_approval, or just the id once a person got past a wall (needs_human) or to
    retry a failed step. Returns the task's view (usually running: await_task next)."""
    owner = await owner_of(ctx)
    request = arguments(
        ContinueTaskRequest,
        id=id,
        inputs=inputs or {},
        secret_inputs=secret_inputs or [],
        approve=approve,
        approval_id=approval_id,
        files=files or {},
    )
    return view_of(ctx, await mcp_of(ctx).service.continue_task(owner, request))


async def cancel_task(ctx: Context[Any, Any], id: TaskId) -> AgentView:
    """Call it at a checkpoint once the person is done with the open page, or to stop a
    task you no longer want. Returns the view: at a checkpoint the browser is released
    and the status stays checkpoint (released true); otherwise it reads cancelled. A
    finished task is left as it is."""
    owner = await owner_of(ctx)
    return view_of(ctx, await mcp_of(ctx).service.cancel_task(owner, CancelTaskRequest(id=id)))


async def task_report(ctx: Context[Any, Any], id: TaskId) -> TaskReport:
    """Call it once the task stopped (done, a checkpoint, failed) to learn what it read.
    Returns each step's outcome, the records it read (the answer to the job), the
    trace and what it spent; secret values never appear."""
    owner = await owner_of(ctx)
    return await mcp_of(ctx).service.task_report(owner, TaskReportRequest(id=id))


async def list_tasks(
    ctx: Context[Any, Any],
    limit: Annotated[
        int | None,
        Field(
            strict=True,
            description=(
                f"how many tasks (default {DEFAULT_LIST_LIMIT}, at most {MAX_LIST_LIMIT})"
            ),
        ),
    ] = None,
    cursor: Annotated[
        str | None, Field(description="the next_cursor of the page before, for the next page")
    ] = None,
) -> ListTasksReply:
    """Your tasks, oldest first, a page at a time, each with its view (status, summary,
    next); the id in each is the handle for the other tools. A reply with a
    next_cursor has more: pass it as cursor."""
    owner = await owner_of(ctx)
    paging = {"limit": limit} if limit is not None else {}
    request = arguments(ListTasksRequest, cursor=cursor, **paging)
    return await mcp_of(ctx).service.list_tasks(owner, request)


TOOLS: tuple[tuple[Callable[..., Any], ToolAnnotations | None], ...] = (
    (describe, _READ_ONLY),
    (plan_task, _READ_ONLY),
    (start_task, None),
    (await_task, _READ_ONLY),
    (continue_task, None),
    (cancel_task, ToolAnnotations(destructive_hint=True, idempotent_hint=True)),
    (task_report, _READ_ONLY),
    (list_tasks, _READ_ONLY),
)
"""The agent calls as tools, each with what it promises a client."""


def build_mcp_server(
    service: TaskService,
    owners: McpOwners,
    *,
    page_url: Callable[[str], str] | None = None,
    name: str = "gofer",
) -> MCPServer:
    """The MCP server over ``service``; ``page_url`` gives a task's page for a person."""
    server = GoferMcp(
        service,
        owners,
        page_url,
        name,
        title="gofer: web jobs in a real browser",
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )
    for tool, promises in (*mcp_flows.TOOLS, *mcp_files.TOOLS, *TOOLS):
        server.add_tool(tool, annotations=promises)
    return server
