"""What every MCP tool of gofer stands on: the server (the official ``mcp`` package's
``MCPServer``, with gofer's errors on the wire) holding the one
:class:`~gofer.api.service.TaskService` the tools serve, who a request acts for, and
the arguments the tools share.

The tools are module-level functions (:mod:`gofer.api.mcp_server`,
:mod:`gofer.api.mcp_flows`, :mod:`gofer.api.mcp_files`) that reach the service and
the caller's owner through their request's ``Context``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, InputRequiredResult, TextContent, Tool
from pydantic import Field, ValidationError

from gofer.api.agent import AgentView, agent_view
from gofer.api.errors import error_body
from gofer.api.service import TaskService
from gofer.api.tokens import TokenStore, bearer_owner
from gofer.errors import ApiError, GoferError, invalid_request
from gofer.flow import flow_json_schema
from gofer.tasks import TaskBudget, TaskConstraints, TaskView

__all__ = [
    "Budget",
    "Constraints",
    "Facts",
    "GoferMcp",
    "McpOwners",
    "SecretFacts",
    "TaskId",
    "arguments",
    "mcp_of",
    "owner_of",
    "view_of",
]

log = logging.getLogger("gofer.api")


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


class GoferMcp(MCPServer):
    """The SDK's server over ``service`` with gofer's errors on the wire, and the flow's
    full JSON Schema (``$defs`` included) in the tools that take one; ``owners`` says
    who a request acts for, ``page_url`` gives a task's page for a person."""

    flow_tools: tuple[str, ...] = ("start_task", "save_flow")

    def __init__(
        self,
        service: TaskService,
        owners: McpOwners,
        page_url: Callable[[str], str] | None,
        name: str,
        **options: Any,
    ) -> None:
        super().__init__(name, **options)
        self.service = service
        self.owners = owners
        self.page_url = page_url

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


def mcp_of(ctx: Context[Any, Any]) -> GoferMcp:
    """The server the request in ``ctx`` reached."""
    server = ctx.mcp_server
    assert isinstance(server, GoferMcp), "gofer's tools run on gofer's server"
    return server


async def owner_of(ctx: Context[Any, Any]) -> str:
    """Who the request in ``ctx`` acts for (UNAUTHORIZED when nobody)."""
    return await mcp_of(ctx).owners.owner(ctx)


def view_of(ctx: Context[Any, Any], task: TaskView) -> AgentView:
    """``task``'s view for the agent, with its page when the server has pages."""
    return agent_view(task, mcp_of(ctx).page_url)


def arguments(model: type[Any], **fields: Any) -> Any:
    """``model`` from a tool's arguments (INVALID_REQUEST when they do not fit it)."""
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
