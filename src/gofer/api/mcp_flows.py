"""The saved-flow tools of the MCP server: list, show, save, and start a task from one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp_types import ToolAnnotations
from pydantic import Field, JsonValue

from gofer.api.agent import AgentView
from gofer.api.mcp_face import arguments, mcp_of, owner_of, view_of
from gofer.tasks import (
    MAX_LIST_LIMIT,
    MAX_VERSION,
    ListFlowsReply,
    ListFlowsRequest,
    NotifySpec,
    SavedFlowView,
    SaveFlowRequest,
    StartTaskRequest,
    TaskBudget,
    TaskConstraints,
)

__all__ = ["TOOLS", "list_flows", "save_flow", "show_flow", "start_saved_flow"]

FlowName = Annotated[str, Field(description="the saved flow's name")]
Version = Annotated[
    int | None, Field(ge=1, le=MAX_VERSION, description="a version; the latest when left out")
]


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
    request = arguments(ListFlowsRequest, **asked)
    owner = await owner_of(ctx)
    return await mcp_of(ctx).service.flows(owner).list(request)


async def show_flow(
    ctx: Context[Any, Any], name: FlowName, version: Version = None
) -> SavedFlowView:
    """One saved flow: the facts it asks for (params, secret_params), its steps and
    the grounding hints its runs learned."""
    owner = await owner_of(ctx)
    return await mcp_of(ctx).service.flows(owner).show(name, version)


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
    owner = await owner_of(ctx)
    request = arguments(
        SaveFlowRequest, name=name, task_id=task_id, flow=flow, description=description
    )
    return await mcp_of(ctx).service.flows(owner).save(request)


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
    owner = await owner_of(ctx)
    request = arguments(
        StartTaskRequest,
        saved_flow={"name": name, "version": version},
        facts=facts or {},
        secret_facts=secret_facts or [],
        constraints=constraints or TaskConstraints(),
        budget=budget or TaskBudget(),
        notify=notify,
    )
    return view_of(ctx, await mcp_of(ctx).service.start_task(owner, request))


_READ_ONLY = ToolAnnotations(read_only_hint=True)

TOOLS: tuple[tuple[Callable[..., Any], ToolAnnotations | None], ...] = (
    (list_flows, _READ_ONLY),
    (show_flow, _READ_ONLY),
    (save_flow, None),
    (start_saved_flow, None),
)
"""The saved-flow tools, each with what it promises a client."""
