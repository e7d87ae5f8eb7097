"""The saved-flow tools of the MCP server: list, show, save, and start a task from one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations
from pydantic import Field, JsonValue, ValidationError

from gofer.api.agent import AgentView
from gofer.api.service import TaskService
from gofer.errors import invalid_request
from gofer.tasks.contract import (
    MAX_VERSION,
    ListFlowsReply,
    ListFlowsRequest,
    NotifySpec,
    SavedFlowView,
    SaveFlowRequest,
    StartTaskRequest,
    TaskBudget,
    TaskConstraints,
    TaskView,
)
from gofer.tasks.limits import MAX_LIST_LIMIT

__all__ = ["add_flow_tools"]

Call = Callable[[Context[Any, Any], Callable[[str], Awaitable[Any]]], Awaitable[Any]]

FlowName = Annotated[str, Field(description="the saved flow's name")]
Version = Annotated[
    int | None, Field(ge=1, le=MAX_VERSION, description="a version; the latest when left out")
]


def _build(model: type[Any], **fields: Any) -> Any:
    try:
        return model.model_validate(fields)
    except ValidationError as exc:
        raise invalid_request(exc, "the arguments do not fit", most=5) from None


def add_flow_tools(
    server: MCPServer,
    service: TaskService,
    call: Call,
    view: Callable[[TaskView], AgentView],
) -> None:
    """Add the tools to ``server``; ``call`` runs a tool's work for the caller's owner and
    turns gofer's errors into tool errors, ``view`` makes a task's agent view."""

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def list_flows(
        ctx: Context[Any, Any],
        limit: Annotated[
            int | None, Field(strict=True, description=f"how many (at most {MAX_LIST_LIMIT})")
        ] = None,
        cursor: Annotated[
            str | None, Field(description="the next_cursor of the page before, for the next page")
        ] = None,
    ) -> ListFlowsReply:
        """Your saved flows by name, a page at a time (the latest version of each, what it
        asks for, not its steps: show_flow has those): a job that worked once, kept to
        run again with new facts and no model. Start one with start_saved_flow."""
        asked = {"cursor": cursor} | ({} if limit is None else {"limit": limit})
        request = _build(ListFlowsRequest, **asked)
        result: ListFlowsReply = await call(ctx, lambda owner: service.flows(owner).list(request))
        return result

    @server.tool(annotations=ToolAnnotations(read_only_hint=True))
    async def show_flow(
        ctx: Context[Any, Any], name: FlowName, version: Version = None
    ) -> SavedFlowView:
        """One saved flow: the facts it asks for (params, secret_params), its steps and
        the grounding hints its runs learned."""
        result: SavedFlowView = await call(
            ctx, lambda owner: service.flows(owner).show(name, version)
        )
        return result

    @server.tool()
    async def save_flow(
        ctx: Context[Any, Any],
        name: FlowName,
        task_id: Annotated[
            str | None,
            Field(description="save what this finished task ran (planned or rescued too)"),
        ] = None,
        flow: Annotated[JsonValue, Field(description="or a flow to save as written")] = None,
        description: Annotated[str, Field(description="what the flow does")] = "",
    ) -> SavedFlowView:
        """Save a task's flow as it finally ran (or a flow) under a name; saving the same
        name again adds a version. Fact values are never saved, only their names."""

        async def work(owner: str) -> SavedFlowView:
            request = _build(
                SaveFlowRequest, name=name, task_id=task_id, flow=flow, description=description
            )
            return await service.flows(owner).save(request)

        result: SavedFlowView = await call(ctx, work)
        return result

    @server.tool()
    async def start_saved_flow(
        ctx: Context[Any, Any],
        name: FlowName,
        facts: Annotated[
            dict[str, str] | None,
            Field(description="a value for each of the flow's params, name -> value"),
        ] = None,
        version: Version = None,
        secret_facts: Annotated[
            list[str] | None, Field(description="names among facts that are secret")
        ] = None,
        constraints: Annotated[
            TaskConstraints | None, Field(description="what the task may touch")
        ] = None,
        budget: Annotated[TaskBudget | None, Field(description="limits over the task")] = None,
        notify: Annotated[
            NotifySpec | None,
            Field(description="a webhook POSTed each change that needs you or ends the task"),
        ] = None,
    ) -> AgentView:
        """Run a saved flow again as a new task, with its hints and no model call unless
        a step fails and a rescuer is configured; returns the task's view (then
        await_task). Save a rescued run with save_flow as the next version."""

        async def work(owner: str) -> AgentView:
            request = _build(
                StartTaskRequest,
                saved_flow={"name": name, "version": version},
                facts=facts or {},
                secret_facts=secret_facts or [],
                constraints=constraints or TaskConstraints(),
                budget=budget or TaskBudget(),
                notify=notify,
            )
            return view(await service.start_task(owner, request))

        result: AgentView = await call(ctx, work)
        return result
