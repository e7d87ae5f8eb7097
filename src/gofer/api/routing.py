"""What every route of the HTTP API stands on: the one :class:`TaskService` of the app
(``app.state.service``), the owner a request's bearer token names, a task's page for
an agent view, and the error responses every call documents.

The routes themselves are module-level functions (:mod:`gofer.api.http`,
:mod:`gofer.api.flows_http`, :mod:`gofer.api.files_http`, the pages); an app built by
:func:`gofer.api.http.create_app` carries in its ``state`` what they reach through
these dependencies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import Depends, Header, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from gofer.api.agent import AgentView, agent_view
from gofer.api.service import TaskService
from gofer.api.tokens import TokenStore, bearer_owner
from gofer.api.views import ErrorBody
from gofer.errors import ApiError
from gofer.tasks import TaskView

__all__ = ["ERRORS", "Key", "Owner", "Service", "agent_view_for", "service_of", "tokens_of"]

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": what}
    for status, what in {
        401: "no token, or a token no owner holds (UNAUTHORIZED)",
        404: "no such task (UNKNOWN_TASK) — another owner's task answers the same",
        409: "the call does not fit the task's status (WRONG_STATE)",
        413: "the body is over the limit (REQUEST_TOO_LARGE)",
        422: "the request breaks the contract (INVALID_REQUEST, INVALID_FLOW, ...), or needs "
        "a model pass or surface this server lacks (PLANNER_UNAVAILABLE, ...)",
        429: "every task slot is taken (TOO_MANY_TASKS)",
        502: "a language model could not be asked (MODEL_*)",
        503: "the service is closing or its store is unreachable",
    }.items()
}
"""The error responses every call of the API documents."""


def service_of(connection: HTTPConnection) -> TaskService:
    """The service of the app ``connection`` reached."""
    service: TaskService = connection.app.state.service
    return service


def tokens_of(connection: HTTPConnection) -> TokenStore:
    """The bearer tokens of the app ``connection`` reached."""
    tokens: TokenStore = connection.app.state.tokens
    return tokens


_bearer = HTTPBearer(auto_error=False, description="a token from `gofer token create`")


async def _owner(
    request: Request,
    _scheme: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """The owner the request's bearer token names (UNAUTHORIZED without one). The
    scheme's dependency only declares it in the spec."""
    found = await bearer_owner(tokens_of(request), request.headers.get("authorization"))
    if found is None:
        raise ApiError("this route needs `Authorization: Bearer <token>`", code="UNAUTHORIZED")
    return found


Owner = Annotated[str, Depends(_owner)]
"""The owner the request acts for."""


async def _service(request: Request) -> TaskService:
    # async, so FastAPI calls it on the event loop rather than in its thread pool
    return service_of(request)


Service = Annotated[TaskService, Depends(_service)]
"""The app's service."""

Key = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        description="send the same key again and the request opens no second task",
    ),
]


def agent_view_for(request: Request, task: TaskView) -> AgentView:
    """``task``'s agent view, its page from the app's ``page_url`` or under the
    request's own address."""
    page_url: Callable[[str], str] | None = request.app.state.page_url

    def under_request(task_id: str) -> str:
        return f"{str(request.base_url).rstrip('/')}/tasks/{task_id}"

    return agent_view(task, page_url or under_request)
