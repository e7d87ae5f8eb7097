"""The HTTP API (FastAPI): the eight agent calls, the person's tasks, a task's views as
server-sent events, and the OpenAPI spec at ``/openapi.json``.

Every route but ``/health`` and the spec needs ``Authorization: Bearer <token>``; the
token names the owner the request acts for. Errors are JSON (``{"error": {"code",
"message", "hint", "at", ...}}``, the body MCP's tool errors carry too) with the status
:mod:`gofer.api.errors` gives their code. The agent calls answer with the same view as
MCP's tools (guidance and the task's page).

Each route is a function of this module (or of :mod:`gofer.api.flows_http`,
:mod:`gofer.api.files_http`, :mod:`gofer.api.pages`, :mod:`gofer.api.live_view`) over the
app's one :class:`~gofer.api.service.TaskService` (:mod:`gofer.api.routing`);
:func:`create_app` puts them on an app.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from gofer.api.agent import AgentView
from gofer.api.errors import error_body, http_status
from gofer.api.files_http import FILES_PATH
from gofer.api.files_http import router as files_router
from gofer.api.flows_http import router as flows_router
from gofer.api.hardening import Contained, NoStore
from gofer.api.limits import MAX_BODY_BYTES, BodyLimit
from gofer.api.live_view import live_address
from gofer.api.live_view import router as live_router
from gofer.api.page_auth import PageSessions
from gofer.api.pages import PageSite
from gofer.api.pages import router as pages_router
from gofer.api.routing import ERRORS, Key, Owner, Service, agent_view_for
from gofer.api.service import TaskService
from gofer.api.sse import sse_views
from gofer.api.tokens import TokenStore
from gofer.api.views import (
    CreateTask,
    CreateTasks,
    PersonReply,
    TaskEntries,
    TaskEntry,
    TaskList,
    TaskStory,
)
from gofer.errors import ApiError, GoferError, InvalidRequest, invalid_request
from gofer.tasks import (
    DEFAULT_LIST_LIMIT,
    LOCAL_OWNER,
    MAX_LIST_LIMIT,
    AwaitTaskRequest,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeReply,
    DescribeRequest,
    ListTasksReply,
    ListTasksRequest,
    PlanTaskReply,
    PlanTaskRequest,
    StartTaskRequest,
    TaskReport,
    TaskReportRequest,
)

__all__ = ["API_VERSION", "Observed", "Observer", "create_app"]

log = logging.getLogger("gofer.api")

UPLOAD_OVERHEAD = 65_536
"""What a multipart upload's body carries beside the file's own bytes, at most."""

API_VERSION = "1.0"
"""The HTTP API's version, in the OpenAPI spec."""

_VIEW_EVENT: dict[str, Any] = {
    "description": "one event of the stream: its data is a TaskView as JSON",
    "type": "object",
    "required": ["event", "data"],
    "properties": {
        "event": {"const": "view"},
        "id": {"type": "string", "pattern": "^[0-9]+$"},
        "data": {
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": {"$ref": "#/components/schemas/TaskView"},
        },
    },
}

Observer = Callable[[bytes], None]


def _json_error(exc: GoferError) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if exc.code == "UNAUTHORIZED" else None
    return JSONResponse(error_body(exc), status_code=http_status(exc), headers=headers)


def _allowed(app: FastAPI, path: str) -> list[str]:
    """Every method the spec documents at ``path`` (HEAD too where GET is), for ``Allow``:
    the router's own 405 names only the methods of the first route that fit the path."""
    paths: dict[str, dict[str, Any]] = app.openapi().get("paths", {})
    if path in paths:  # a literal route comes before any template it also fits
        paths = {path: paths[path]}
    methods: set[str] = set()
    for template, operations in paths.items():
        pattern = "".join(
            r"[^/]+" if part.startswith("{") else re.escape(part)
            for part in re.split(r"(\{[^}]+\})", template)
        )
        if re.fullmatch(pattern, path):
            methods.update(method.upper() for method in operations)
    if "GET" in methods:
        methods.add("HEAD")
    return sorted(methods)


# ------------------------------------------------------------------ errors


async def gofer_error(_request: Request, exc: GoferError) -> JSONResponse:
    return _json_error(exc)


async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
    return _json_error(invalid_request(exc, "the request does not fit", most=5))


async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    if exc.status_code == 400:  # a body FastAPI could not decode: not JSON, not UTF-8
        return _json_error(InvalidRequest(f"the request does not fit: {exc.detail}"))
    code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(exc.status_code, "INVALID_REQUEST")
    error = ApiError(str(exc.detail), code=code)
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = ", ".join(_allowed(request.app, request.url.path))
    return JSONResponse(error_body(error), status_code=exc.status_code, headers=headers or None)


async def crashed(_request: Request, _exc: Exception) -> JSONResponse:
    # Starlette raises it on after this answer: Contained logs it, without its message.
    error = GoferError("the server failed; this is a bug", code="INTERNAL_ERROR")
    return JSONResponse(error_body(error), status_code=500)


# ------------------------------------------------------------------ health


async def health(service: Service) -> JSONResponse:
    if service.healthy and service.draining:
        # Stopping: take it out of rotation; its running turns end meanwhile.
        body = {"status": "draining", "reason": "this process is stopping; it claims no work"}
        return JSONResponse(body, status_code=503)
    if service.healthy:
        return JSONResponse({"status": "ok"})
    # The worker died: this process accepts tasks it would never run.
    body = {"status": "unhealthy", "reason": "the worker stopped claiming work"}
    return JSONResponse(body, status_code=503)


# ------------------------------------------------------------------ the agent calls

calls = APIRouter(prefix="/v1/calls", tags=["agent calls"], responses=ERRORS)


@calls.post("/describe", response_model=DescribeReply, response_model_exclude_none=True)
async def describe(
    _owner: Owner, service: Service, request: DescribeRequest | None = None
) -> DescribeReply:
    """Start here. By default a brief that fits in a prompt: the contract version,
    surfaces and model passes, each call in a line, each step kind with an example,
    the rules. `{"detail": "full"}` adds the flow guide, every JSON Schema and worked
    examples; `flow`, `calls` or `examples` add one of them."""
    return await service.describe(request)


@calls.post("/plan_task", response_model=PlanTaskReply)
async def plan_task(who: Owner, service: Service, request: PlanTaskRequest) -> PlanTaskReply:
    """Draft a flow for a plain-language task without running it."""
    return await service.plan_task(who, request)


@calls.post("/start_task", response_model=AgentView)
async def start_task(
    http: Request, who: Owner, service: Service, request: StartTaskRequest, key: Key = None
) -> AgentView:
    """Start a task (a `flow`, or a plain-language `task` for the planner); answers at
    once with its first view. Follow the view's `next` and `guidance`."""
    return agent_view_for(http, await service.start_task(who, request, idempotency_key=key))


@calls.post("/await_task", response_model=AgentView)
async def await_task(
    http: Request, who: Owner, service: Service, request: AwaitTaskRequest
) -> AgentView:
    """Long-poll: the view once the task stops running, or when `timeout_ms` passes
    (a larger value is capped at 60000, as over MCP)."""
    return agent_view_for(http, await service.await_task(who, request))


@calls.post("/continue_task", response_model=AgentView)
async def continue_task(
    http: Request, who: Owner, service: Service, request: ContinueTaskRequest
) -> AgentView:
    """Answer a paused task: `inputs`, `approve`, or nothing after a person's step."""
    return agent_view_for(http, await service.continue_task(who, request))


@calls.post("/cancel_task", response_model=AgentView)
async def cancel_task(
    http: Request, who: Owner, service: Service, request: CancelTaskRequest
) -> AgentView:
    """Cancel a task and release its browser (idempotent). At a checkpoint the
    status stays that checkpoint, `released` true."""
    return agent_view_for(http, await service.cancel_task(who, request))


@calls.post("/task_report", response_model=TaskReport)
async def task_report(who: Owner, service: Service, request: TaskReportRequest) -> TaskReport:
    """Everything the task did: steps, records, trace, hints, spend, artifacts."""
    return await service.task_report(who, request)


@calls.post("/list_tasks", response_model=ListTasksReply)
async def list_tasks(
    who: Owner, service: Service, request: ListTasksRequest | None = None
) -> ListTasksReply:
    """A page of the owner's tasks, oldest first: `limit` (100 by default, at most
    500) after `cursor` (the last page's `next_cursor`)."""
    return await service.list_tasks(who, request)


# ------------------------------------------------------------------ the person's tasks

tasks = APIRouter(prefix="/v1/tasks", tags=["tasks"], responses=ERRORS)


@tasks.get("", response_model=TaskList)
async def list_records(
    who: Owner,
    service: Service,
    limit: Annotated[
        int, Query(ge=1, le=MAX_LIST_LIMIT, description="how many tasks")
    ] = DEFAULT_LIST_LIMIT,
    cursor: Annotated[
        str | None, Query(max_length=40, description="the last page's next_cursor")
    ] = None,
) -> TaskList:
    """A page of the person's tasks, newest first; `next_cursor` leads to older ones."""
    return await service.records(who, ListTasksRequest(limit=limit, cursor=cursor))


@tasks.post("", response_model=TaskEntry, status_code=201)
async def create(who: Owner, service: Service, create: CreateTask, key: Key = None) -> TaskEntry:
    """Open and start a task: `instruction` or `flow`, and `title` (the instruction's
    first sentence when left out)."""
    return await service.create(who, create, key)


@tasks.post("/batch", response_model=TaskEntries, status_code=201)
async def create_many(
    who: Owner, service: Service, creates: CreateTasks, key: Key = None
) -> TaskEntries:
    """Open and start up to five tasks, all or none."""
    return TaskEntries(tasks=await service.create_many(who, creates, key))


@tasks.get("/{task_id}", response_model=TaskEntry)
async def read(who: Owner, service: Service, task_id: str) -> TaskEntry:
    """One task as it is now."""
    return await service.record(who, task_id)


@tasks.post("/{task_id}/reply", response_model=TaskEntry)
async def reply(who: Owner, service: Service, task_id: str, answer: PersonReply) -> TaskEntry:
    """Give the values the task asked for."""
    return await service.reply(who, task_id, answer)


ApprovalId = Annotated[str | None, Query(max_length=64)]


@tasks.post("/{task_id}/approve", response_model=TaskEntry, name="approve")
async def approve(
    who: Owner, service: Service, task_id: str, approval_id: ApprovalId = None
) -> TaskEntry:
    """Let the task press the control it waits in front of."""
    return await service.decide(who, task_id, True, approval_id)


@tasks.post("/{task_id}/decline", response_model=TaskEntry, name="decline")
async def decline(
    who: Owner, service: Service, task_id: str, approval_id: ApprovalId = None
) -> TaskEntry:
    """Refuse the control it waits in front of; the task is cancelled."""
    return await service.decide(who, task_id, False, approval_id)


@tasks.post("/{task_id}/again", response_model=TaskEntry, name="again")
async def again(who: Owner, service: Service, task_id: str) -> TaskEntry:
    """Try again: rerun the failed step, or go on once you got past a wall."""
    return await service.again(who, task_id)


@tasks.post("/{task_id}/cancel", response_model=TaskEntry, name="cancel")
async def cancel(who: Owner, service: Service, task_id: str) -> TaskEntry:
    """Cancel the task and release its browser."""
    return await service.cancel(who, task_id)


@tasks.post("/{task_id}/resolve", response_model=TaskEntry, name="resolve")
async def resolve(who: Owner, service: Service, task_id: str) -> TaskEntry:
    """Mark done."""
    return await service.resolve(who, task_id)


@tasks.post("/{task_id}/reopen", response_model=TaskEntry, name="reopen")
async def reopen(who: Owner, service: Service, task_id: str) -> TaskEntry:
    """Reopen a task marked done."""
    return await service.reopen(who, task_id)


@tasks.get("/{task_id}/report", response_model=TaskStory)
async def report(who: Owner, service: Service, task_id: str) -> TaskStory:
    """What happened, in order (replies, decisions, updates), and the runs' report."""
    return await service.story(who, task_id)


@tasks.get(
    "/{task_id}/events",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"text/event-stream": {"schema": _VIEW_EVENT}},
            "description": "one `view` event per view, until the task can change no more",
        },
    },
)
async def events(who: Owner, service: Service, task_id: str) -> StreamingResponse:
    """The task's views as server-sent events."""
    views = await service.watch(who, task_id)
    return StreamingResponse(
        sse_views(views), media_type="text/event-stream", headers={"Cache-Control": "no-store"}
    )


@tasks.get(
    "/{task_id}/artifacts/{name}",
    response_class=Response,
    responses={
        200: {
            "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}},
            "description": "the screenshot's bytes",
        },
    },
)
async def artifact(who: Owner, service: Service, task_id: str, name: str) -> Response:
    """A stopped run's screenshot, while it lasts (five minutes)."""
    return Response(service.read_artifact(who, task_id, name), media_type="image/png")


# ------------------------------------------------------------------ the app


def create_app(
    service: TaskService,
    tokens: TokenStore,
    *,
    max_body_bytes: int = MAX_BODY_BYTES,
    mounts: dict[str, ASGIApp] | None = None,
    observe: Observer | None = None,
    pages: PageSite | None = None,
    page_url: Callable[[str], str] | None = None,
) -> ASGIApp:
    """The HTTP API over ``service``, its tokens from ``tokens``, and the person's task
    pages (``pages``; by default signed in with the same tokens).

    ``mounts`` adds ASGI apps under paths (the MCP server under ``/mcp``), behind the
    same body limit. ``observe`` sees every response body and SSE frame sent (tests
    read them for canaries). The agent calls answer with the view as MCP's tools do
    (guidance, and ``page_url``: a task's page from ``page_url``, or under the
    request's own address).
    """
    app = FastAPI(
        title="gofer",
        version=API_VERSION,
        description="Hand gofer a whole web job; it runs in a real browser in the "
        "background and stops only when it needs you. Start with POST /v1/calls/describe, "
        "then follow each view's `next`.",
    )
    app.state.service = service
    app.state.tokens = tokens
    app.state.page_url = page_url
    app.state.pages = pages or PageSite(service, PageSessions(tokens), take_over=live_address)
    app.exception_handler(GoferError)(gofer_error)
    app.exception_handler(RequestValidationError)(invalid)
    app.exception_handler(StarletteHTTPException)(http_error)
    app.exception_handler(Exception)(crashed)
    app.add_api_route("/health", health, methods=["GET"], include_in_schema=False)
    for router in (calls, tasks, flows_router, files_router, pages_router, live_router):
        app.include_router(router)
    app.mount("/assets", StaticFiles(packages=[("gofer.api", "static")]), name="assets")
    for path, mounted in (mounts or {}).items():
        app.mount(path, mounted)
    outer: ASGIApp = app
    if observe is not None:
        outer = Observed(outer, observe)
    upload_bytes = service.files(LOCAL_OWNER).limits.bytes + UPLOAD_OVERHEAD
    wide = {FILES_PATH: max(max_body_bytes, upload_bytes)}
    return Contained(NoStore(BodyLimit(outer, max_body_bytes, wide)))


class Observed:
    """Hands every response body chunk to ``observe`` on its way out."""

    def __init__(self, app: ASGIApp, observe: Observer) -> None:
        self.app = app
        self.observe = observe

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def sending(message: Any) -> None:
            if message.get("type") == "http.response.body":
                self.observe(bytes(message.get("body", b"")))
            await send(message)

        await self.app(scope, receive, sending)
