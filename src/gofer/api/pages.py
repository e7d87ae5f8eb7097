"""The person's task pages, served by ``gofer serve``: server-rendered HTML, a small
script that follows a task's event stream, and forms that work without it.

======================================  =============================================
``GET  /login``, ``POST /login``        sign in with a token (a session cookie)
``POST /logout``                        sign out
``GET  /tasks[?show=needs-you|...]``    the person's tasks, newest first
``GET  /tasks/{id}``                    one task: where it is, what it needs, report
``GET  /tasks/{id}/part``               the page's changing part (the script swaps it)
``GET  /tasks/{id}/events``             the task's views as server-sent events
``GET  /tasks/{id}/screenshot/{name}``  a stopped run's screenshot
``POST /tasks/{id}/{action}``           answer, approve, decline, again, cancel,
                                        resolve, reopen (then back to the page)
======================================  =============================================

Every page but ``/login`` needs a signed-in session (:mod:`gofer.api.page_auth`);
every POST carries the session's anti-forgery token. Another owner's task answers
the same 404 page as a missing one. A value typed into the question's form goes to
the controller and is never written back into a page.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from pydantic import ValidationError
from starlette.requests import HTTPConnection

from gofer.api.files_http import attachment
from gofer.api.page_auth import (
    CSRF_FIELD,
    SESSION_COOKIE,
    PageSession,
    PageSessions,
    safe_next,
    same_origin,
)
from gofer.api.page_flows import flow_params, person_params, save_request, saved_note
from gofer.api.page_views import (
    FILTERS,
    did_lines,
    fields_of,
    hint_words,
    holds_browser,
    lines_of,
    list_group,
    live,
    outcome_words,
    plain,
    pressed_on,
    progress_percent,
    shown,
    status_words,
    step_number,
    waiting,
    when,
)
from gofer.api.service import TaskService
from gofer.api.sse import sse_views
from gofer.api.views import PersonReply, TaskEntry
from gofer.errors import GoferError
from gofer.facts import secret_reason
from gofer.tasks import Done, ListTasksRequest, TaskReport, TaskReportRequest, is_running

__all__ = [
    "ANSWER_HEADER",
    "PROBLEMS",
    "SECURITY_HEADERS",
    "PageSite",
    "Site",
    "TakeOver",
    "router",
    "site_of",
]

ANSWER_HEADER = "X-Gofer-Answer"
"""A page's script sends ``X-Gofer-Answer: json`` with a form to have the answer as
JSON (``{"ok": true, "next"}`` or ``{"ok": false, "code", "message"}``) instead of a
redirect: the live view stays open when the task says it is still blocked."""

log = logging.getLogger("gofer.api")

TakeOver = Callable[[str], str]
"""The address of a task's live view (take over its browser), from its id."""

SECURITY_HEADERS: dict[str, str] = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; "
        "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
        "form-action 'self'; base-uri 'none'; object-src 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
"""Sent with every page: no script, style or frame from elsewhere, nothing cached."""

PROBLEMS: dict[str, str] = {
    "WRONG_STATE": "The task has moved on since this page was shown; here is where it is now.",
    "MISSING_VALUE": "Give a value for every field, then send again.",
    "INVALID_FLOW": "Those values do not fit the task's flow (a secret value can only be "
    "typed into a field). Nothing was changed.",
    "INVALID_REQUEST": "That was not understood. Nothing was changed.",
    "TOO_MANY_TASKS": "Every task slot is taken right now; try again in a moment.",
    "CLOSED": "The server is shutting down; try again once it is back.",
    "STORE_UNAVAILABLE": "The task store cannot be reached; try again in a moment.",
    "STILL_BLOCKED": "It is still blocked: what only a person can get past is still on its "
    "page. Get past it in the task's browser, then say you have done it again.",
    "LIVE_UNAVAILABLE": "The task's browser is not open now, or cannot be reached from here.",
}
"""What the page says when an action was refused, by the refusal's code."""

_CODE = re.compile(r"[A-Z][A-Z_]{0,39}")
_ACTIONS = (
    "answer",
    "approve",
    "decline",
    "again",
    "cancel",
    "resolve",
    "reopen",
    "save_flow",
)


def _approval_id(sent: object) -> str | None:
    """The approval id an approve form names (the one the person saw), if any."""
    return sent if isinstance(sent, str) and 0 < len(sent) <= 64 else None


@dataclass(frozen=True, slots=True)
class _Row:
    record: TaskEntry
    group: str
    words: str
    percent: int


def _html(body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(body, status_code=status, headers=SECURITY_HEADERS)


def _back(path: str) -> RedirectResponse:
    return RedirectResponse(path, status_code=303, headers={"Cache-Control": "no-store"})


class PageSite:
    """The task pages over ``service``, for the people ``sessions`` signed in.

    ``take_over`` names a task's live view, linked from its page while the task holds
    its browser (a wall, a checkpoint, an approval); without it the page says how to
    finish the step in another way. ``secure`` marks the session cookie HTTPS-only
    even when the request reached the server over plain HTTP (behind a proxy that
    ends TLS); a request over HTTPS always gets a secure cookie.
    """

    def __init__(
        self,
        service: TaskService,
        sessions: PageSessions,
        *,
        take_over: TakeOver | None = None,
        secure: bool = False,
    ) -> None:
        self.service = service
        self.sessions = sessions
        self.take_over = take_over
        self.secure = secure
        self.templates = Environment(
            loader=PackageLoader("gofer.api", "templates"),
            autoescape=select_autoescape(["html"]),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.templates.filters["when"] = when
        self.templates.filters["shown"] = shown
        self.templates.filters["number"] = step_number
        self.templates.filters["outcome"] = outcome_words
        self.templates.filters["plain"] = plain

    # ------------------------------------------------------------ helpers

    async def session_of(self, request: Request) -> PageSession | None:
        """The signed-in session the request's cookie names, if any."""
        return await self.sessions.get(request.cookies.get(SESSION_COOKIE))

    def render(self, template: str, http_status: int = 200, /, **context: Any) -> HTMLResponse:
        """A template as a page."""
        return _html(self.templates.get_template(template).render(**context), http_status)

    def sign_in(self, request: Request) -> RedirectResponse:
        here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
        return _back("/login?" + urlencode({"next": here}))

    def missing(self, session: PageSession | None) -> HTMLResponse:
        return self.render("missing.html", 404, session=session)

    async def _report(self, owner: str, task_id: str) -> TaskReport:
        return await self.service.task_report(owner, TaskReportRequest(id=task_id))

    async def context(
        self, session: PageSession, task_id: str, problem: str | None, saved: str | None = None
    ) -> dict[str, Any]:
        if problem is not None and not _CODE.fullmatch(problem):
            problem = None  # only a refusal's code is named back, never other text
        record = await self.service.record(session.owner, task_id)
        report = await self._report(session.owner, task_id)
        view = record.view
        steps = report.flow.get("steps") if report.flow else None
        shot = report.artifacts[-1] if report.artifacts else None
        holds = holds_browser(view.status) and record.resolved_at is None
        here = holds and await self.service.browser_here(session.owner, task_id)
        words = status_words(view.status, record.resolved_at is not None)
        step = view.step
        return {
            "session": session,
            "record": record,
            "view": view,
            "status": view.status,
            "report": report,
            "words": words,
            "percent": progress_percent(view.progress),
            "total": len(steps) if isinstance(steps, list) else None,
            "fields": fields_of(view.status),
            "pressed_on": pressed_on(report),
            "shot": shot,
            "lines": lines_of(report),
            "holds_browser": holds,
            "browser_here": here,
            "waiting": waiting(view.status) and record.resolved_at is None,
            "hint": hint_words(view.status),
            "did": did_lines(report),
            "take_over_url": self.take_over(task_id) if here and self.take_over else None,
            "live": live(view.status) and record.resolved_at is None,
            "records": (view.status.records if isinstance(view.status, Done) else report.records),
            "problem": PROBLEMS.get(problem) if problem else None,
            "problem_code": problem,
            "signature": "|".join(
                [
                    view.status.state,
                    step.path if step else "",
                    str(round(view.progress * 1000)),
                    view.summary,
                ]
            ),
            "csrf_field": CSRF_FIELD,
            "save_params": (
                None if is_running(view.status) else flow_params(report.flow, report.person_steps)
            ),
            "did_params": person_params(report.person_steps),
            "saved": saved_note(saved),
        }

    def form_ok(self, request: Request, session: PageSession, sent: Any) -> bool:
        return same_origin(request.headers, request.url.scheme) and session.form_ok(
            sent if isinstance(sent, str) else None
        )

    async def act(self, request: Request, task_id: str, action: str) -> Response:
        session = await self.session_of(request)
        if session is None:
            return _back("/login?" + urlencode({"next": f"/tasks/{task_id}"}))
        form = await request.form()
        if not self.form_ok(request, session, form.get(CSRF_FIELD)):
            log.info(
                "a %s form for task %r without its session's token was refused", action, task_id
            )
            return self.render("forbidden.html", 403, session=session)
        service = self.service
        page = f"/tasks/{quote(task_id, safe='')}"
        if form.get("back") == "live" and self.take_over is not None:
            back = self.take_over(task_id)
        else:
            back = page
        wants_json = request.headers.get(ANSWER_HEADER) == "json"
        steps: dict[str, Callable[[], Awaitable[object]]] = {
            "approve": lambda: service.decide(
                session.owner, task_id, True, _approval_id(form.get("approval_id"))
            ),
            "decline": lambda: service.decide(session.owner, task_id, False),
            "again": lambda: service.again(session.owner, task_id),
            "cancel": lambda: service.cancel(session.owner, task_id),
            "resolve": lambda: service.resolve(session.owner, task_id),
            "reopen": lambda: service.reopen(session.owner, task_id),
        }
        try:
            if action == "answer":
                problem = await self._answer(session, task_id, form)
                if problem is not None:
                    return _back(f"{page}?problem={problem}")
            elif action == "save_flow":
                saved = await service.flows(session.owner).save(
                    save_request(task_id, form.get("flow_name"), form.get("description"))
                )
                return _back(f"{page}?" + urlencode({"saved": f"{saved.name} v{saved.version}"}))
            else:
                await steps[action]()
        except GoferError as exc:
            if exc.code == "UNKNOWN_TASK":
                return self.missing(session)
            log.info("task %r: the page's %s was refused (%s)", task_id, action, exc.code)
            if wants_json:
                # STILL_BLOCKED's message is the controller's own words about the page.
                said = exc.message if exc.code == "STILL_BLOCKED" else PROBLEMS.get(exc.code)
                return JSONResponse(
                    {"ok": False, "code": exc.code, "message": said or PROBLEMS["INVALID_REQUEST"]},
                    status_code=409,
                    headers=SECURITY_HEADERS,
                )
            return _back(f"{back}?problem={quote(exc.code)}")
        log.info("task %r: %s from its page", task_id, action)
        if wants_json:
            return JSONResponse({"ok": True, "next": page}, headers=SECURITY_HEADERS)
        return _back(page)

    async def _answer(self, session: PageSession, task_id: str, form: Any) -> str | None:
        """Send the question's values; a problem's code when they cannot go."""
        record = await self.service.record(session.owner, task_id)
        fields = fields_of(record.view.status)
        if not fields or any(form.get(f"name-{f.key}") != f.name for f in fields):
            return "WRONG_STATE"  # not the question this form was made for
        inputs: dict[str, str] = {}
        secret: list[str] = []
        for field in fields:
            value = form.get(field.key)
            if not isinstance(value, str) or not value.strip():
                return "MISSING_VALUE"
            inputs[field.name] = value
            marked = form.get(f"secret-{field.key}") is not None
            if field.secret or marked or secret_reason(field.name, value) is not None:
                secret.append(field.name)
        await self.service.reply(
            session.owner, task_id, PersonReply(inputs=inputs, secret_inputs=secret)
        )
        return None


def site_of(connection: HTTPConnection) -> PageSite:
    """The task pages of the app ``connection`` reached."""
    site: PageSite = connection.app.state.pages
    return site


async def _site(request: Request) -> PageSite:
    # async, so FastAPI calls it on the event loop rather than in its thread pool
    return site_of(request)


Site = Annotated[PageSite, Depends(_site)]
"""The app's task pages."""

router = APIRouter(include_in_schema=False)
"""The pages' routes (none of them in the OpenAPI spec)."""


@router.get("/")
async def home() -> Response:
    return _back("/tasks")


@router.get("/login")
async def login_form(request: Request, site: Site) -> Response:
    target = safe_next(request.query_params.get("next"))
    if await site.session_of(request) is not None:
        return _back(target)
    return site.render("login.html", session=None, next=target, error=None)


@router.post("/login")
async def login(request: Request, site: Site) -> Response:
    form = await request.form()
    target = safe_next(str(form.get("next") or ""))
    if not same_origin(request.headers, request.url.scheme):
        return site.render("forbidden.html", 403, session=None)
    session = await site.sessions.open(str(form.get("token") or ""))
    if session is None:
        log.info("a page sign-in with a token no owner holds")
        return site.render(
            "login.html",
            401,
            session=None,
            next=target,
            error="That token is not valid. Check it and try again.",
        )
    log.info("%s signed in to the task pages", session.owner)
    response = _back(target)
    response.set_cookie(
        SESSION_COOKIE,
        session.id,
        max_age=int(site.sessions.ttl_s),
        path="/",
        httponly=True,
        samesite="lax",
        secure=site.secure or request.url.scheme == "https",
    )
    return response


@router.post("/logout")
async def logout(request: Request, site: Site) -> Response:
    session = await site.session_of(request)
    form = await request.form()
    if session is not None:
        if not site.form_ok(request, session, form.get(CSRF_FIELD)):
            return site.render("forbidden.html", 403, session=session)
        await site.sessions.close(session.id)
    response = _back("/login")
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/tasks")
async def task_list(request: Request, site: Site) -> Response:
    session = await site.session_of(request)
    if session is None:
        return site.sign_in(request)
    show = request.query_params.get("show")
    show = show if show in FILTERS else None
    cursor = request.query_params.get("cursor")
    try:
        page = await site.service.records(session.owner, ListTasksRequest(cursor=cursor))
    except (GoferError, ValidationError):
        return _back("/tasks")
    rows = [
        _Row(
            r,
            list_group(r),
            status_words(r.view.status, r.resolved_at is not None),
            progress_percent(r.view.progress),
        )
        for r in page.tasks
    ]
    counts = {key: sum(1 for r in rows if r.group == key) for key in FILTERS}
    counts["all"] = len(rows)
    chosen = [r for r in rows if show is None or r.group == show]
    older = None
    if page.next_cursor is not None:
        older = "/tasks?" + urlencode(
            {"cursor": page.next_cursor} | ({"show": show} if show else {})
        )
    return site.render(
        "list.html",
        session=session,
        rows=chosen,
        show=show,
        filters=FILTERS,
        counts=counts,
        older=older,
    )


@router.get("/tasks/{task_id}")
async def task_page(request: Request, site: Site, task_id: str) -> Response:
    session = await site.session_of(request)
    if session is None:
        return site.sign_in(request)
    try:
        context = await site.context(
            session,
            task_id,
            request.query_params.get("problem"),
            request.query_params.get("saved"),
        )
    except GoferError as exc:
        if exc.code == "UNKNOWN_TASK":
            return site.missing(session)
        raise
    return site.render("task.html", **context)


@router.get("/tasks/{task_id}/part")
async def task_part(request: Request, site: Site, task_id: str) -> Response:
    session = await site.session_of(request)
    if session is None:
        return _html("", 401)
    try:
        context = await site.context(session, task_id, None)
    except GoferError as exc:
        if exc.code == "UNKNOWN_TASK":
            return _html("", 404)
        raise
    return site.render("task_body.html", **context)


@router.get("/tasks/{task_id}/events")
async def task_events(request: Request, site: Site, task_id: str) -> Response:
    session = await site.session_of(request)
    if session is None:
        return Response(status_code=401, headers=SECURITY_HEADERS)
    try:
        views = await site.service.watch(session.owner, task_id)
    except GoferError as exc:
        if exc.code == "UNKNOWN_TASK":
            return Response(status_code=404, headers=SECURITY_HEADERS)
        raise
    return StreamingResponse(
        sse_views(views),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store"},
    )


@router.get("/tasks/{task_id}/files/{name}")
async def task_file(request: Request, site: Site, task_id: str, name: str) -> Response:
    session = await site.session_of(request)
    if session is None:
        return Response(status_code=401, headers=SECURITY_HEADERS)
    try:
        stored = await site.service.read_file(session.owner, task_id, name)
    except GoferError as exc:
        if exc.code in ("UNKNOWN_TASK", "UNKNOWN_FILE"):
            return Response(status_code=404, headers=SECURITY_HEADERS)
        raise
    return Response(
        stored.data,
        media_type=stored.media_type,
        headers={
            "Cache-Control": "private, no-store",
            "Content-Disposition": attachment(stored.filename),
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "sandbox; default-src 'none'",
        },
    )


@router.get("/tasks/{task_id}/screenshot/{name}")
async def screenshot(request: Request, site: Site, task_id: str, name: str) -> Response:
    session = await site.session_of(request)
    if session is None:
        return Response(status_code=401, headers=SECURITY_HEADERS)
    try:
        data = site.service.read_artifact(session.owner, task_id, name)
    except GoferError as exc:
        if exc.code in ("UNKNOWN_TASK", "UNKNOWN_ARTIFACT"):
            return Response(status_code=404, headers=SECURITY_HEADERS)
        raise
    return Response(
        data,
        media_type="image/png",
        headers={"Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff"},
    )


async def page_action(request: Request, site: Site, task_id: str) -> Response:
    """``POST /tasks/{task_id}/<action>``: the action the path's last part names."""
    return await site.act(request, task_id, request.url.path.rsplit("/", 1)[1])


for _action in _ACTIONS:
    router.add_api_route(
        f"/tasks/{{task_id}}/{_action}", page_action, methods=["POST"], name=f"page_{_action}"
    )
