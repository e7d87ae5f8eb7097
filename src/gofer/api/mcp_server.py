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
``guidance`` send the person there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.shared.exceptions import NoBackChannelError
from mcp_types import (
    CallToolResult,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestURLParams,
    ElicitResult,
    InputRequiredResult,
    TextContent,
    Tool,
    ToolAnnotations,
)
from mcp_types.version import is_version_at_least
from pydantic import Field, JsonValue, ValidationError

from gofer.api.agent import AgentView, agent_view, for_a_person, secret_fields
from gofer.api.errors import error_body
from gofer.api.mcp_files import add_file_tools
from gofer.api.mcp_flows import add_flow_tools
from gofer.api.service import TaskService
from gofer.api.tokens import TokenStore, bearer_owner
from gofer.errors import ApiError, GoferError, invalid_request
from gofer.flow import flow_json_schema
from gofer.tasks.contract import (
    AwaitTaskRequest,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeDetail,
    DescribeReply,
    DescribeRequest,
    ListTasksReply,
    ListTasksRequest,
    NeedsInput,
    NotifySpec,
    OutputSpec,
    PlanTaskReply,
    PlanTaskRequest,
    StartTaskRequest,
    TaskBudget,
    TaskConstraints,
    TaskReport,
    TaskReportRequest,
    TaskView,
)
from gofer.tasks.limits import DEFAULT_LIST_LIMIT, MAX_AWAIT_MS, MAX_LIST_LIMIT

__all__ = ["INSTRUCTIONS", "McpOwners", "build_mcp_server"]

log = logging.getLogger("gofer.api")

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

_ELICIT_KEY = "gofer_inputs"
_PAGE_KEY = "gofer_page"


class McpOwners:
    """Who an MCP request acts for: over HTTP, the owner of its bearer token; over
    stdio, ``local_owner`` (the person who started the process), if given. A server
    has one of them: one made with ``tokens`` never falls back to ``local_owner``
    for a request over HTTP, and one made for stdio takes no token."""

    def __init__(self, tokens: TokenStore | None, local_owner: str | None = None) -> None:
        self._tokens = tokens
        self._local = local_owner

    async def owner(self, ctx: Context[Any, Any]) -> str:
        """The owner of the request in ``ctx`` (UNAUTHORIZED otherwise)."""
        headers = ctx.headers
        if headers is None:
            if self._local is None or self._tokens is not None:
                raise ApiError("this MCP server needs a token", code="UNAUTHORIZED")
            return self._local
        value = headers.get("authorization") or headers.get("Authorization")
        found = await bearer_owner(self._tokens, value)
        if found is None:
            raise ApiError("the bearer token is not valid", code="UNAUTHORIZED")
        return found


def _error_result(exc: GoferError) -> CallToolResult:
    """A tool result with ``isError`` whose text is the HTTP API's body for ``exc``."""
    text = json.dumps(error_body(exc), ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def _as_gofer_error(tool: str, exc: ToolError) -> GoferError:
    """What the SDK's wrapper of a tool's failure stands for, as gofer's error: the tool's
    own error, arguments that do not fit the tool's schema (INVALID_REQUEST, each
    problem with the argument it is ``at``), no such tool, or a bug."""
    cause = exc.__cause__
    if isinstance(cause, GoferError):
        return cause
    if isinstance(exc, UnexpectedToolError):
        log.error("tool %s failed: %s", tool, type(cause).__name__ if cause else "unknown")
        return GoferError("the server failed; this is a bug", code="INTERNAL_ERROR")
    if isinstance(cause, ValidationError):
        return invalid_request(cause, "the arguments do not fit", most=5)
    return ApiError(f"there is no tool {tool!r}; describe lists the calls", code="NOT_FOUND")


class _Server(MCPServer):
    """The SDK's server with gofer's errors on the wire, and the flow's full JSON Schema
    (``$defs`` included) in the tools that take one."""

    flow_tools: tuple[str, ...] = ("start_task", "save_flow")

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            return _error_result(_as_gofer_error(name, exc))

    async def list_tools(self) -> list[Tool]:
        tools = await super().list_tools()
        return [_with_flow_schema(t) if t.name in self.flow_tools else t for t in tools]


def _with_flow_schema(tool: Tool) -> Tool:
    """``tool`` whose ``flow`` argument carries the flow's JSON Schema, its ``$defs``
    beside the tool's own at the schema's root."""
    flow = flow_json_schema()
    schema = dict(tool.input_schema)
    properties = dict(schema.get("properties", {}))
    if "flow" not in properties:
        return tool
    described = properties["flow"].get("description", "")
    properties["flow"] = {
        "description": described,
        "anyOf": [*flow["oneOf"], {"type": "null"}],
    }
    schema["properties"] = properties
    schema["$defs"] = {**schema.get("$defs", {}), **flow["$defs"]}
    return tool.model_copy(update={"input_schema": schema})


def _build(model: type[Any], **fields: Any) -> Any:
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        raise invalid_request(exc, "the arguments do not fit", most=5) from None


TaskId = Annotated[str, Field(description="the task's id, from the view start_task returned")]
Facts = Annotated[
    dict[str, str] | None,
    Field(
        description='the user\'s details the job needs, name -> value, e.g. {"first name": '
        '"Asha", "email": "asha@example.com"}; a flow refers to them as ${first name}'
    ),
]
SecretFacts = Annotated[
    list[str] | None,
    Field(
        description="names among facts that are secret (passwords, card data, codes): only "
        "ever typed into a field, never shown"
    ),
]
Constraints = Annotated[
    TaskConstraints | None,
    Field(
        description="what the task may touch: surfaces, origins (sites it may load), payment, "
        "allow_destructive, headed"
    ),
]
Budget = Annotated[
    TaskBudget | None,
    Field(description="limits over the whole task: max_actions, max_model_calls, max_elapsed_ms"),
]


def build_mcp_server(
    service: TaskService,
    owners: McpOwners,
    *,
    page_url: Callable[[str], str] | None = None,
    name: str = "gofer",
) -> MCPServer:
    """The MCP server over ``service``; ``page_url`` gives a task's page for a person."""
    server: MCPServer = _Server(
        name,
        title="gofer: web jobs in a real browser",
        instructions=INSTRUCTIONS,
        log_level="WARNING",
    )

    def view(task: TaskView) -> AgentView:
        return agent_view(task, page_url)

    async def call(ctx: Context[Any, Any], work: Callable[[str], Any]) -> Any:
        return await work(await owners.owner(ctx))

    add_flow_tools(server, service, call, view)
    add_file_tools(server, service, call)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
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

        async def work(_owner: str) -> CallToolResult:
            reply = await service.describe(_build(DescribeRequest, detail=detail))
            data = reply.model_dump(mode="json", exclude_none=True)
            text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
            return CallToolResult(
                content=[TextContent(type="text", text=text)], structured_content=data
            )

        result: CallToolResult = await call(ctx, work)
        return result

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
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

        async def work(owner: str) -> PlanTaskReply:
            request = _build(
                PlanTaskRequest,
                task=task,
                facts=facts or {},
                secret_facts=secret_facts or [],
                constraints=constraints or TaskConstraints(),
            )
            return await service.plan_task(owner, request)

        result: PlanTaskReply = await call(ctx, work)
        return result

    @server.tool()
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

        async def work(owner: str) -> AgentView:
            request = _build(
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
            return view(await service.start_task(owner, request, idempotency_key=idempotency_key))

        result: AgentView = await call(ctx, work)
        return result

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
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

        async def work(owner: str) -> AgentView | InputRequiredResult:
            deadline = asyncio.get_running_loop().time() + timeout_ms / 1000
            answered = await _answer_elicited(ctx, owner, id)
            if answered is None:
                answered = await _back_from_page(ctx, owner, id, deadline)
            if answered is not None:
                return view(answered)
            current = await service.await_task(
                owner, AwaitTaskRequest(id=id, timeout_ms=timeout_ms)
            )
            if ctx.input_responses:  # the user answered (or turned down) one ask: no more
                return view(current)
            asked = await _elicit(ctx, owner, current)
            if asked is None:
                asked = await _to_page(ctx, owner, current, deadline)
            if isinstance(asked, InputRequiredResult):
                return asked
            return view(asked or current)

        result: AgentView | InputRequiredResult = await call(ctx, work)
        return result

    @server.tool()
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

        async def work(owner: str) -> AgentView:
            request = _build(
                ContinueTaskRequest,
                id=id,
                inputs=inputs or {},
                secret_inputs=secret_inputs or [],
                approve=approve,
                approval_id=approval_id,
                files=files or {},
            )
            return view(await service.continue_task(owner, request))

        result: AgentView = await call(ctx, work)
        return result

    @server.tool(annotations=ToolAnnotations(destructive_hint=True, idempotent_hint=True))
    async def cancel_task(ctx: Context[Any, Any], id: TaskId) -> AgentView:
        """Call it at a checkpoint once the person is done with the open page, or to stop a
        task you no longer want. Returns the view: at a checkpoint the browser is released
        and the status stays checkpoint (released true); otherwise it reads cancelled. A
        finished task is left as it is."""

        async def work(owner: str) -> AgentView:
            return view(await service.cancel_task(owner, CancelTaskRequest(id=id)))

        result: AgentView = await call(ctx, work)
        return result

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def task_report(ctx: Context[Any, Any], id: TaskId) -> TaskReport:
        """Call it once the task stopped (done, a checkpoint, failed) to learn what it read.
        Returns each step's outcome, the records it read (the answer to the job), the
        trace and what it spent; secret values never appear."""

        async def work(owner: str) -> TaskReport:
            return await service.task_report(owner, TaskReportRequest(id=id))

        result: TaskReport = await call(ctx, work)
        return result

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
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

        async def work(owner: str) -> ListTasksReply:
            paging = {"limit": limit} if limit is not None else {}
            request = _build(ListTasksRequest, cursor=cursor, **paging)
            return await service.list_tasks(owner, request)

        result: ListTasksReply = await call(ctx, work)
        return result

    async def _elicit(
        ctx: Context[Any, Any],
        owner: str,
        current: TaskView,
    ) -> TaskView | InputRequiredResult | None:
        """Ask the client's user for the plain values ``current`` waits for; None when
        it waits for none, some are secret, or the client cannot ask."""
        status = current.status
        if not isinstance(status, NeedsInput) or secret_fields(status.fields):
            return None
        capabilities = ctx.client_capabilities
        if (
            capabilities is None
            or capabilities.elicitation is None
            or (capabilities.elicitation.form is None and capabilities.elicitation.url is not None)
        ):
            return None
        params = ElicitRequestFormParams(
            message=f"gofer's task “{current.summary}” needs: {', '.join(status.fields)}",
            requested_schema={
                "type": "object",
                "properties": {name: {"type": "string", "title": name} for name in status.fields},
                "required": list(status.fields),
            },
        )
        version = ctx.protocol_version
        if version is not None and is_version_at_least(version, "2026-07-28"):
            return InputRequiredResult(
                input_requests={_ELICIT_KEY: ElicitRequest(params=params)},
                request_state=json.dumps({"id": current.id, "fields": status.fields}),
            )
        try:
            reply = await ctx.session.elicit_form(
                message=params.message,
                requested_schema=params.requested_schema,
                related_request_id=ctx.request_id,
            )
        except NoBackChannelError:
            return None
        return await _continue_with(owner, current.id, list(status.fields), reply)

    async def _to_page(
        ctx: Context[Any, Any],
        owner: str,
        current: TaskView,
        deadline: float,
    ) -> TaskView | InputRequiredResult | None:
        """Send the client's user to the task page (URL elicitation) for what only a
        person does; once they agree, the view after they did it (None when the client
        cannot, they decline, or it does not move in time)."""
        why = for_a_person(current)
        capabilities = ctx.client_capabilities
        can = (
            capabilities is not None
            and capabilities.elicitation is not None
            and capabilities.elicitation.url is not None
        )
        if why is None or page_url is None or not can:
            return None
        url = page_url(current.id)
        was = current.status.model_dump(mode="json")
        version = ctx.protocol_version
        if version is not None and is_version_at_least(version, "2026-07-28"):
            # a round trip of its own: no elicitation id, no completion notice
            return InputRequiredResult(
                input_requests={
                    _PAGE_KEY: ElicitRequest(params=ElicitRequestURLParams(message=why, url=url))
                },
                request_state=json.dumps({"id": current.id, "status": was}),
            )
        elicitation = f"{current.id}.{uuid.uuid4().hex[:12]}"
        try:
            reply = await ctx.session.elicit_url(
                message=why, url=url, elicitation_id=elicitation, related_request_id=ctx.request_id
            )
        except NoBackChannelError:
            return None
        if reply.action != "accept":
            return None
        return await _moved(ctx, owner, current.id, was, elicitation, deadline)

    async def _back_from_page(
        ctx: Context[Any, Any], owner: str, task_id: str, deadline: float
    ) -> TaskView | None:
        """On the round after a URL elicitation: the view once the person moved it."""
        responses = ctx.input_responses
        if not responses or _PAGE_KEY not in responses:
            return None
        reply = responses[_PAGE_KEY]
        try:
            state = json.loads(ctx.request_state or "{}")
        except json.JSONDecodeError:
            state = {}
        if (
            not isinstance(reply, ElicitResult)
            or reply.action != "accept"
            or state.get("id") != task_id
        ):
            return None
        return await _moved(ctx, owner, task_id, state.get("status"), None, deadline)

    async def _moved(
        ctx: Context[Any, Any],
        owner: str,
        task_id: str,
        was: Any,
        elicitation: str | None,
        deadline: float,
    ) -> TaskView | None:
        """The task's first view whose status is not ``was`` (the person acted on the
        page), telling the client ``elicitation`` is complete; None when ``deadline``
        passes first."""
        views = await service.watch(owner, task_id)
        left = deadline - asyncio.get_running_loop().time()
        try:
            async with asyncio.timeout(max(left, 0)):
                async for current in views:
                    if current.status.model_dump(mode="json") != was:
                        break
                else:
                    return None
        except TimeoutError:
            return None
        if elicitation is not None:
            with contextlib.suppress(NoBackChannelError):
                await ctx.session.send_elicit_complete(
                    elicitation, related_request_id=ctx.request_id
                )
        return current

    async def _answer_elicited(ctx: Context[Any, Any], owner: str, task_id: str) -> TaskView | None:
        """On the round after an elicitation: go on with the user's answers."""
        responses = ctx.input_responses
        if not responses or _ELICIT_KEY not in responses:
            return None
        reply = responses[_ELICIT_KEY]
        try:
            state = json.loads(ctx.request_state or "{}")
        except json.JSONDecodeError:
            state = {}
        fields = state.get("fields") if state.get("id") == task_id else None
        if not isinstance(reply, ElicitResult) or not isinstance(fields, list):
            return None
        return await _continue_with(owner, task_id, [str(f) for f in fields], reply)

    async def _continue_with(
        owner: str, task_id: str, fields: list[str], reply: ElicitResult
    ) -> TaskView | None:
        if reply.action != "accept" or not reply.content:
            return None
        inputs = {
            name: str(reply.content[name])
            for name in fields
            if reply.content.get(name) not in (None, "")
        }
        if not inputs:
            return None
        return await service.continue_task(owner, ContinueTaskRequest(id=task_id, inputs=inputs))

    return server
