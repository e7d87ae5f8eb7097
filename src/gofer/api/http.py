"""The HTTP API (FastAPI): the eight agent calls, the person's tasks, a task's views as
server-sent events, and the OpenAPI spec at ``/openapi.json``.

Every route but ``/health`` and the spec needs ``Authorization: Bearer <token>``; the
token names the owner the request acts for. Errors are JSON (``{"error": {"code",
"message", "hint", "at", ...}}``, the body MCP's tool errors carry too) with the status
:mod:`gofer.api.errors` gives their code. The agent calls answer with the same view as
MCP's tools (guidance and the task's page).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from gofer.api.agent import AgentView, agent_view
from gofer.api.errors import error_body, http_status
from gofer.api.files_http import FILES_PATH, files_router
from gofer.api.flows_http import flows_router
from gofer.api.hardening import Contained, NoStore
from gofer.api.limits import MAX_BODY_BYTES, BodyLimit
from gofer.api.live import live_address, live_router
from gofer.api.page_auth import PageSessions
from gofer.api.pages import PageSite
from gofer.api.service import TaskService
from gofer.api.sse import sse_views
from gofer.api.tokens import TokenStore, bearer_owner
from gofer.api.views import (
    CreateTask,
    CreateTasks,
    ErrorBody,
    PersonReply,
    TaskEntries,
    TaskEntry,
    TaskList,
    TaskStory,
)
from gofer.errors import ApiError, GoferError, InvalidRequest, invalid_request
from gofer.tasks.book import LOCAL_OWNER
from gofer.tasks.contract import (
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
    TaskView,
)
from gofer.tasks.limits import DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT

__all__ = ["API_VERSION", "Observed", "Observer", "create_app"]

log = logging.getLogger("gofer.api")

UPLOAD_OVERHEAD = 65_536
"""What a multipart upload's body carries beside the file's own bytes, at most."""

API_VERSION = "1.0"
"""The HTTP API's version, in the OpenAPI spec."""

_ERRORS: dict[int | str, dict[str, Any]] = {
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


_bearer = HTTPBearer(auto_error=False, description="a token from `gofer token create`")


async def _owner(
    request: Request,
    _scheme: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """The owner the request's bearer token names (UNAUTHORIZED without one). The
    scheme's dependency only declares it in the spec."""
    tokens: TokenStore = request.app.state.tokens
    found = await bearer_owner(tokens, request.headers.get("authorization"))
    if found is None:
        raise ApiError("this route needs `Authorization: Bearer <token>`", code="UNAUTHORIZED")
    return found


Owner = Annotated[str, Depends(_owner)]
Key = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        description="send the same key again and the request opens no second task",
    ),
]


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

    def view(request: Request, task: TaskView) -> AgentView:
        def under_request(task_id: str) -> str:
            return f"{str(request.base_url).rstrip('/')}/tasks/{task_id}"

        return agent_view(task, page_url or under_request)

    app = FastAPI(
        title="gofer",
        version=API_VERSION,
        description="Hand gofer a whole web job; it runs in a real browser in the "
        "background and stops only when it needs you. Start with POST /v1/calls/describe, "
        "then follow each view's `next`.",
    )
    app.state.tokens = tokens

    @app.exception_handler(GoferError)
    async def gofer_error(_request: Request, exc: GoferError) -> JSONResponse:
        return _json_error(exc)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return _json_error(invalid_request(exc, "the request does not fit", most=5))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:  # a body FastAPI could not decode: not JSON, not UTF-8
            return _json_error(InvalidRequest(f"the request does not fit: {exc.detail}"))
        code = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}.get(exc.status_code, "INVALID_REQUEST")
        error = ApiError(str(exc.detail), code=code)
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(_allowed(app, request.url.path))
        return JSONResponse(error_body(error), status_code=exc.status_code, headers=headers or None)

    @app.exception_handler(Exception)
    async def crashed(_request: Request, _exc: Exception) -> JSONResponse:
        # Starlette raises it on after this answer: Contained logs it, without its message.
        error = GoferError("the server failed; this is a bug", code="INTERNAL_ERROR")
        return JSONResponse(error_body(error), status_code=500)

    @app.get("/health", include_in_schema=False)
    async def health() -> JSONResponse:
        if service.healthy and service.draining:
            # Stopping: take it out of rotation; its running turns end meanwhile.
            body = {"status": "draining", "reason": "this process is stopping; it claims no work"}
            return JSONResponse(body, status_code=503)
        if service.healthy:
            return JSONResponse({"status": "ok"})
        # The worker died: this process accepts tasks it would never run.
        body = {"status": "unhealthy", "reason": "the worker stopped claiming work"}
        return JSONResponse(body, status_code=503)

    calls = APIRouter(prefix="/v1/calls", tags=["agent calls"], responses=_ERRORS)

    @calls.post("/describe", response_model=DescribeReply, response_model_exclude_none=True)
    async def describe(_owner: Owner, request: DescribeRequest | None = None) -> DescribeReply:
        """Start here. By default a brief that fits in a prompt: the contract version,
        surfaces and model passes, each call in a line, each step kind with an example,
        the rules. `{"detail": "full"}` adds the flow guide, every JSON Schema and worked
        examples; `flow`, `calls` or `examples` add one of them."""
        return await service.describe(request)

    @calls.post("/plan_task", response_model=PlanTaskReply)
    async def plan_task(who: Owner, request: PlanTaskRequest) -> PlanTaskReply:
        """Draft a flow for a plain-language task without running it."""
        return await service.plan_task(who, request)

    @calls.post("/start_task", response_model=AgentView)
    async def start_task(
        http: Request, who: Owner, request: StartTaskRequest, key: Key = None
    ) -> AgentView:
        """Start a task (a `flow`, or a plain-language `task` for the planner); answers at
        once with its first view. Follow the view's `next` and `guidance`."""
        return view(http, await service.start_task(who, request, idempotency_key=key))

    @calls.post("/await_task", response_model=AgentView)
    async def await_task(http: Request, who: Owner, request: AwaitTaskRequest) -> AgentView:
        """Long-poll: the view once the task stops running, or when `timeout_ms` passes
        (a larger value is capped at 60000, as over MCP)."""
        return view(http, await service.await_task(who, request))

    @calls.post("/continue_task", response_model=AgentView)
    async def continue_task(http: Request, who: Owner, request: ContinueTaskRequest) -> AgentView:
        """Answer a paused task: `inputs`, `approve`, or nothing after a person's step."""
        return view(http, await service.continue_task(who, request))

    @calls.post("/cancel_task", response_model=AgentView)
    async def cancel_task(http: Request, who: Owner, request: CancelTaskRequest) -> AgentView:
        """Cancel a task and release its browser (idempotent). At a checkpoint the
        status stays that checkpoint, `released` true."""
        return view(http, await service.cancel_task(who, request))

    @calls.post("/task_report", response_model=TaskReport)
    async def task_report(who: Owner, request: TaskReportRequest) -> TaskReport:
        """Everything the task did: steps, records, trace, hints, spend, artifacts."""
        return await service.task_report(who, request)

    @calls.post("/list_tasks", response_model=ListTasksReply)
    async def list_tasks(who: Owner, request: ListTasksRequest | None = None) -> ListTasksReply:
        """A page of the owner's tasks, oldest first: `limit` (100 by default, at most
        500) after `cursor` (the last page's `next_cursor`)."""
        return await service.list_tasks(who, request)

    tasks = APIRouter(prefix="/v1/tasks", tags=["tasks"], responses=_ERRORS)

    @tasks.get("", response_model=TaskList)
    async def list_records(
        who: Owner,
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
    async def create(who: Owner, create: CreateTask, key: Key = None) -> TaskEntry:
        """Open and start a task: `instruction` or `flow`, and `title` (the instruction's
        first sentence when left out)."""
        return await service.create(who, create, key)

    @tasks.post("/batch", response_model=TaskEntries, status_code=201)
    async def create_many(who: Owner, creates: CreateTasks, key: Key = None) -> TaskEntries:
        """Open and start up to five tasks, all or none."""
        return TaskEntries(tasks=await service.create_many(who, creates, key))

    @tasks.get("/{task_id}", response_model=TaskEntry)
    async def read(who: Owner, task_id: str) -> TaskEntry:
        """One task as it is now."""
        return await service.record(who, task_id)

    @tasks.post("/{task_id}/reply", response_model=TaskEntry)
    async def reply(who: Owner, task_id: str, answer: PersonReply) -> TaskEntry:
        """Give the values the task asked for."""
        return await service.reply(who, task_id, answer)

    def action(name: str, act: Callable[[str, str], Awaitable[TaskEntry]], doc: str) -> None:
        """``POST /v1/tasks/{task_id}/<name>``: the person's ``act`` on the task, its
        record after it."""

        async def endpoint(who: Owner, task_id: str) -> TaskEntry:
            return await act(who, task_id)

        endpoint.__doc__ = doc
        tasks.add_api_route(
            f"/{{task_id}}/{name}", endpoint, methods=["POST"], response_model=TaskEntry, name=name
        )

    def decision(name: str, approve: bool, doc: str) -> None:
        """``POST /v1/tasks/{task_id}/<name>?approval_id=``: approve or decline the
        approval the view carries (its id is required whenever it has one)."""

        async def endpoint(
            who: Owner,
            task_id: str,
            approval_id: Annotated[str | None, Query(max_length=64)] = None,
        ) -> TaskEntry:
            return await service.decide(who, task_id, approve, approval_id)

        endpoint.__doc__ = doc
        tasks.add_api_route(
            f"/{{task_id}}/{name}", endpoint, methods=["POST"], response_model=TaskEntry, name=name
        )

    decision("approve", True, "Let the task press the control it waits in front of.")
    decision("decline", False, "Refuse the control it waits in front of; the task is cancelled.")
    action(
        "again",
        service.again,
        "Try again: rerun the failed step, or go on once you got past a wall.",
    )
    action("cancel", service.cancel, "Cancel the task and release its browser.")
    action("resolve", service.resolve, "Mark done.")
    action("reopen", service.reopen, "Reopen a task marked done.")

    @tasks.get("/{task_id}/report", response_model=TaskStory)
    async def report(who: Owner, task_id: str) -> TaskStory:
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
    async def events(who: Owner, task_id: str) -> StreamingResponse:
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
    async def artifact(who: Owner, task_id: str, name: str) -> Response:
        """A stopped run's screenshot, while it lasts (five minutes)."""
        return Response(service.read_artifact(who, task_id, name), media_type="image/png")

    app.include_router(calls)
    app.include_router(tasks)
    app.include_router(flows_router(service, _owner, _ERRORS))
    app.include_router(files_router(service, _owner, _ERRORS))
    site = pages or PageSite(service, PageSessions(tokens), take_over=live_address)
    app.include_router(site.router())
    app.include_router(live_router(service, tokens, site))
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
