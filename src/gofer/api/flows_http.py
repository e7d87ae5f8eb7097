"""``/v1/flows``: the caller's saved flows over HTTP (list, save, show, delete).

A saved flow runs through ``start_task`` with ``saved_flow: {name, version?}``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel

from gofer.api.routing import ERRORS, Owner, Service
from gofer.tasks import (
    DEFAULT_LIST_LIMIT,
    MAX_LIST_LIMIT,
    MAX_VERSION,
    ListFlowsReply,
    SavedFlowView,
    SaveFlowRequest,
)

__all__ = ["Deleted", "router"]


class Deleted(BaseModel):
    """How many versions of the flow were deleted."""

    name: str
    deleted: int


router = APIRouter(prefix="/v1/flows", tags=["saved flows"], responses=ERRORS)


@router.get("", response_model=ListFlowsReply)
async def list_flows(
    who: Owner,
    service: Service,
    limit: Annotated[int, Query(ge=1, le=MAX_LIST_LIMIT)] = DEFAULT_LIST_LIMIT,
    cursor: Annotated[str | None, Query(max_length=100)] = None,
) -> ListFlowsReply:
    """A page of your saved flows by name: the latest version of each, without its
    steps (show it for those); pass `next_cursor` as `cursor` for the next page."""
    return await service.flows(who).list({"limit": limit, "cursor": cursor})


@router.post("", response_model=SavedFlowView, status_code=201)
async def save_flow(who: Owner, service: Service, request: SaveFlowRequest) -> SavedFlowView:
    """Save a `flow`, or what a finished task ran (`task_id`), as the next version of
    `name`; run it with start_task's `saved_flow`."""
    return await service.flows(who).save(request)


@router.get("/{name}", response_model=SavedFlowView)
async def show_flow(
    who: Owner,
    service: Service,
    name: str,
    version: Annotated[
        int | None, Query(ge=1, le=MAX_VERSION, description="the latest when left out")
    ] = None,
) -> SavedFlowView:
    """One version of a saved flow: its parameters, steps and hints (UNKNOWN_FLOW)."""
    return await service.flows(who).show(name, version)


@router.delete("/{name}", response_model=Deleted)
async def delete_flow(who: Owner, service: Service, name: str) -> Deleted:
    """Delete every version of a saved flow (UNKNOWN_FLOW)."""
    return Deleted(name=name, deleted=await service.flows(who).delete(name))
