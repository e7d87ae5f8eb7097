"""Asking the MCP client's user, for ``await_task``: the plain values a task waits for
as a form (form elicitation), or a trip to the task's page for what only a person does
(URL elicitation), and the rounds after either.

Secret values, approvals of payments and walls only a person can pass are never asked
in a form (the MCP spec forbids it for secrets). On a protocol version that answers
with ``InputRequiredResult``, each ask is a round trip of its own, its state carried in
``request_state``; on an older one the server asks over the request's back channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import uuid
from typing import Any

from mcp.server.mcpserver import Context
from mcp.shared.exceptions import NoBackChannelError
from mcp_types import (
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitRequestURLParams,
    ElicitResult,
    InputRequiredResult,
)
from mcp_types.version import is_version_at_least

from gofer.api.agent import for_a_person, secret_fields
from gofer.api.mcp_face import mcp_of
from gofer.tasks import ContinueTaskRequest, NeedsInput, TaskView

__all__ = ["answer_elicited", "back_from_page", "elicit", "to_page"]

_ELICIT_KEY = "gofer_inputs"
_PAGE_KEY = "gofer_page"


async def elicit(
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
    return await _continue_with(ctx, owner, current.id, list(status.fields), reply)


async def to_page(
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
    page_url = mcp_of(ctx).page_url
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


async def back_from_page(
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
    views = await mcp_of(ctx).service.watch(owner, task_id)
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
            await ctx.session.send_elicit_complete(elicitation, related_request_id=ctx.request_id)
    return current


async def answer_elicited(ctx: Context[Any, Any], owner: str, task_id: str) -> TaskView | None:
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
    return await _continue_with(ctx, owner, task_id, [str(f) for f in fields], reply)


async def _continue_with(
    ctx: Context[Any, Any], owner: str, task_id: str, fields: list[str], reply: ElicitResult
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
    service = mcp_of(ctx).service
    return await service.continue_task(owner, ContinueTaskRequest(id=task_id, inputs=inputs))
