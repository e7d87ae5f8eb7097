"""Take over: a person's live view of a paused task's own browser page.

While a task waits for a person with its browser open (a captcha or a login wall,
an approval, the payment checkpoint), its owner can open the page live, click and
type on it themselves, and hand the task back:

=====================================  ================================================
``GET /tasks/{id}/live``               the page: the live view, and the task page's
                                       own answers ("I've done it", Mark done, Approve
                                       or Decline) to hand the task back with
``WS  /tasks/{id}/live/socket``        the live view itself (protocol below)
``/assets/live.js``, ``live.css``      the script and style behind :func:`live_fragment`
=====================================  ================================================

Only the task's owner gets in; another owner's task answers 404 like a missing one.
The page needs a person signed in to the task pages (:mod:`gofer.api.page_auth`);
the socket takes that session's cookie, from this server's own pages only (its
``Origin``, so no other site can drive a person's live view), or
``Authorization: Bearer <token>``.

The socket's protocol. The server sends ``{"type": "ready", "width", "height", "origin"}``
first (``origin``: the page's, as ``https://host``), then each frame of the page as a
binary message (a JPEG), with
``{"type": "size", "width", "height"}`` before a frame whose viewport changed,
``{"type": "dialog", "kind", "message", "default"}`` when the page opens a JavaScript
dialog (it waits for the person's answer), ``{"type": "page", "origin"}`` whenever the
page's origin changes, ``{"type": "focus", "field",
"hidden"}`` after a click or a Tab (the focused field's label or null, and whether it
is a password field, whose typing stays hidden), and ``{"type": "ended", "message"}``
before it closes (the task took its browser back,
let it go, or ended). The person sends JSON text messages:

- ``{"type": "pointer", "action": "down"|"up"|"move"|"wheel", "x", "y", "button",
  "clicks", "dx", "dy", "alt", "ctrl", "meta", "shift"}``, ``x`` and ``y`` as fractions
  (0 to 1) of the frame's width and height;
- ``{"type": "key", "action": "down"|"up", "key", "code", "alt", ...}``, named as the
  DOM's ``KeyboardEvent`` names them;
- ``{"type": "text", "text"}``: text typed at once (a paste);
- ``{"type": "dialog", "accept": true|false, "text"}``: OK or Cancel to the page's
  dialog (``text``: a prompt's answer).

A message that does not fit is answered ``{"type": "error", "code": "INVALID_INPUT",
"message"}`` and the view goes on. Frames show the page as it is, fields the person
filled in included: they go to the owner's own socket only. Neither a frame nor a
word of the input is logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
from typing import Annotated, Literal
from urllib.parse import quote, urlencode, urlsplit

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, RedirectResponse, Response
from markupsafe import Markup
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from gofer.api.errors import error_body, http_status
from gofer.api.page_auth import CSRF_FIELD, SESSION_COOKIE, PageSessions, same_origin
from gofer.api.page_views import holds_browser, status_words
from gofer.api.pages import PROBLEMS, Site, site_of
from gofer.api.routing import Service, service_of, tokens_of
from gofer.api.service import TaskService
from gofer.api.tokens import TokenStore, bearer_owner
from gofer.errors import ApiError, GoferError
from gofer.tasks import (
    MAX_TEXT_CHARS,
    RELAY_PATH,
    HeldView,
    KeyInput,
    LiveDialog,
    LiveView,
    Modifiers,
    PointerInput,
    RelayTarget,
)

__all__ = [
    "MAX_MESSAGE_BYTES",
    "deny",
    "live_address",
    "live_fragment",
    "live_socket",
    "relay_view",
    "router",
    "serve_view",
    "socket_owner",
]

log = logging.getLogger("gofer.api")

MAX_MESSAGE_BYTES = 16_384
"""The largest input message taken from the socket."""

_ENDED = "The live view ended: the task has its browser back, or let it go."


# ------------------------------------------------------------------ who is asking


def live_address(task_id: str) -> str:
    """The address of a task's live view page."""
    return f"/tasks/{quote(task_id, safe='')}/live"


async def socket_owner(websocket: WebSocket, tokens: TokenStore, sessions: PageSessions) -> str:
    """The owner a socket's bearer token, or its page session's cookie, names.

    UNAUTHORIZED without either; CROSS_ORIGIN for a session cookie that another site's
    page sent (a browser always names the page's ``Origin`` on a socket).
    """
    found = await bearer_owner(tokens, websocket.headers.get("authorization"))
    if found is not None:
        return found
    session = await sessions.get(websocket.cookies.get(SESSION_COOKIE))
    if session is None:
        raise ApiError(
            "the live view needs you signed in to the task pages, or "
            "`Authorization: Bearer <token>`",
            code="UNAUTHORIZED",
        )
    origin = websocket.headers.get("origin")
    if origin is None or not same_origin(
        {"origin": origin, "host": websocket.headers.get("host", "")}, "http"
    ):
        raise ApiError(
            "the live view takes connections from this server's own pages only", code="CROSS_ORIGIN"
        )
    return session.owner


# ------------------------------------------------------------------ input messages


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    alt: bool = False
    ctrl: bool = False
    meta: bool = False
    shift: bool = False

    @property
    def modifiers(self) -> Modifiers:
        return Modifiers(alt=self.alt, ctrl=self.ctrl, meta=self.meta, shift=self.shift)


class PointerMessage(_Message):
    """A mouse event at a point given as fractions of the frame."""

    type: Literal["pointer"]
    action: Literal["down", "up", "move", "wheel"]
    x: float = Field(ge=0.0, le=1.0)
    y: float = Field(ge=0.0, le=1.0)
    button: Literal["left", "middle", "right", "none"] = "left"
    clicks: int = Field(default=1, ge=1, le=3)
    dx: float = Field(default=0.0, ge=-10_000, le=10_000)
    dy: float = Field(default=0.0, ge=-10_000, le=10_000)


class KeyMessage(_Message):
    """A key going down or up."""

    type: Literal["key"]
    action: Literal["down", "up"]
    key: str = Field(min_length=1, max_length=32)
    code: str = Field(default="", max_length=32)


class TextMessage(BaseModel):
    """Text typed at once."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["text"]
    text: str = Field(max_length=MAX_TEXT_CHARS)


class DialogMessage(BaseModel):
    """The person's answer to the page's dialog: OK (``accept``) or Cancel, and a
    prompt's text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["dialog"]
    accept: bool
    text: str = Field(default="", max_length=MAX_TEXT_CHARS)


Input = PointerMessage | KeyMessage | TextMessage | DialogMessage
InputMessage = Annotated[Input, Field(discriminator="type")]
_INPUT: TypeAdapter[Input] = TypeAdapter(InputMessage)


def parse_input(raw: str) -> Input:
    """One input message; InvalidRequest INVALID_INPUT naming only where it is wrong
    (never what it holds)."""
    if len(raw.encode()) > MAX_MESSAGE_BYTES:
        raise ApiError(
            f"an input message is at most {MAX_MESSAGE_BYTES} bytes", code="INVALID_INPUT"
        )
    try:
        return _INPUT.validate_json(raw)
    except ValidationError as exc:
        where = sorted(
            {
                ".".join(str(p) for p in err["loc"]) or "message"
                for err in exc.errors(include_input=False, include_url=False)
            }
        )
        raise ApiError(
            "the input message does not fit the live view's protocol at: " + ", ".join(where[:5]),
            code="INVALID_INPUT",
        ) from None


async def deliver(view: LiveView, message: Input) -> None:
    """Send one person's input to the page."""
    if isinstance(message, DialogMessage):
        await view.answer(message.accept, message.text)
    elif isinstance(message, TextMessage):
        await view.text(message.text)
    elif isinstance(message, KeyMessage):
        await view.key(KeyInput(message.action, message.key, message.code, message.modifiers))
    else:
        width, height = view.size
        await view.pointer(
            PointerInput(
                message.action,
                message.x * width,
                message.y * height,
                message.button,
                message.clicks,
                message.dx,
                message.dy,
                message.modifiers,
            )
        )


# ------------------------------------------------------------------ the socket


async def deny(websocket: WebSocket, exc: GoferError) -> None:
    """Refuse the handshake with the error's status and body."""
    response = JSONResponse(error_body(exc), status_code=http_status(exc))
    try:
        await websocket.send_denial_response(response)
    except RuntimeError:
        # A server without the denial extension: the client sees a closed handshake.
        await websocket.close(code=1008)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else ""


async def _send_frames(websocket: WebSocket, view: LiveView) -> None:
    size = view.size
    origin = _origin(view.url)
    async for frame in view.frames():
        now = _origin(view.url)
        if now != origin:
            origin = now
            await websocket.send_text(json.dumps({"type": "page", "origin": origin}))
        if isinstance(frame, LiveDialog):
            await websocket.send_text(
                json.dumps(
                    {
                        "type": "dialog",
                        "kind": frame.kind,
                        "message": frame.message,
                        "default": frame.default,
                    }
                )
            )
            continue
        if (frame.width, frame.height) != size:
            size = (frame.width, frame.height)
            await websocket.send_text(
                json.dumps({"type": "size", "width": size[0], "height": size[1]})
            )
        await websocket.send_bytes(frame.data)


def _moves_focus(message: Input) -> bool:
    """Whether the page's focus may have moved with this input (a click, a Tab)."""
    if isinstance(message, PointerMessage):
        return message.action == "up" and message.button == "left"
    return isinstance(message, KeyMessage) and message.action == "up" and message.key == "Tab"


MAX_QUEUED_INPUT = 256
"""Input messages waiting for the page at most; more is refused until it catches up."""


async def _take_input(websocket: WebSocket, view: LiveView) -> None:
    """Receive the person's input: events go to the page in order, one at a time; a
    dialog's answer goes at once (an event that opened the dialog waits on it)."""
    waiting: asyncio.Queue[Input] = asyncio.Queue(MAX_QUEUED_INPUT)

    async def refuse(exc: GoferError) -> None:
        await websocket.send_text(
            json.dumps({"type": "error", "code": exc.code, "message": exc.message})
        )

    async def in_order() -> None:
        while True:
            message = await waiting.get()
            try:
                await deliver(view, message)
                if _moves_focus(message) and isinstance(view, HeldView):
                    focus = await view.focused()
                    await websocket.send_text(
                        json.dumps(
                            {
                                "type": "focus",
                                "field": focus.field if focus else None,
                                "hidden": focus.hidden if focus else False,
                            }
                        )
                    )
            except GoferError as exc:
                if exc.code == "LIVE_CLOSED":
                    return
                await refuse(exc)

    delivering = asyncio.create_task(in_order(), name="gofer-live-deliver")
    try:
        while not delivering.done():
            raw = await websocket.receive_text()
            try:
                message = parse_input(raw)
                if isinstance(message, DialogMessage):
                    await deliver(view, message)
                elif waiting.full():
                    raise ApiError(
                        "too much input at once; wait for the page to catch up",
                        code="INVALID_INPUT",
                    )
                else:
                    waiting.put_nowait(message)
            except GoferError as exc:
                if exc.code == "LIVE_CLOSED":
                    return
                await refuse(exc)
    finally:
        delivering.cancel()
        await asyncio.wait([delivering])


async def live_socket(
    websocket: WebSocket,
    service: TaskService,
    tokens: TokenStore,
    sessions: PageSessions,
    task_id: str,
) -> None:
    """Serve one person's live view of ``task_id`` on ``websocket`` (see the module):
    from this process's own browser, or relayed to the process that holds it."""
    view: LiveView | None = None
    try:
        owner = await socket_owner(websocket, tokens, sessions)
        try:
            view = await service.live_view(owner, task_id)
        except GoferError as exc:
            if exc.code != "LIVE_UNAVAILABLE":
                raise
            target = await service.live_relay(owner, task_id)
    except GoferError as exc:
        await deny(websocket, exc)
        return
    if view is not None:
        await serve_view(websocket, view, task_id)
    else:
        await relay_view(websocket, target)


# ------------------------------------------------------------------ relayed

RELAY_MAX_FRAME_BYTES = 8 * 1024 * 1024
"""The largest message taken from a holder (a frame of a large page)."""

RELAY_OPEN_S = 5.0
"""How long a server waits for a holder to open a relayed live view."""


async def relay_view(websocket: WebSocket, target: RelayTarget) -> None:
    """Serve a person's live view held by another process: the holder's socket at
    ``target`` and the person's, piped both ways until either ends. The holder runs
    the view itself (pacing, dialogs, focus, input checks); refused or unreachable,
    the person is refused with LIVE_UNAVAILABLE."""
    try:
        holder = await connect(
            target.url(RELAY_PATH),
            additional_headers=target.headers,
            max_size=RELAY_MAX_FRAME_BYTES,
            compression=None,
            proxy=None,
            open_timeout=RELAY_OPEN_S,
            ssl=target.context(),
        )
    except (OSError, TimeoutError, InvalidHandshake) as exc:
        log.warning(
            "task %r: its browser's holder did not open the live view (%s)",
            target.task_id,
            type(exc).__name__,
        )
        await deny(
            websocket,
            ApiError(
                "the task's browser is held by a process this server cannot reach now",
                code="LIVE_UNAVAILABLE",
                id=target.task_id,
            ),
        )
        return
    async with holder:
        await websocket.accept()
        log.info("task %r: its owner took over its browser, relayed", target.task_id)
        down = asyncio.create_task(_holder_to_person(holder, websocket), name="gofer-relay-down")
        up = asyncio.create_task(_person_to_holder(websocket, holder), name="gofer-relay-up")
        try:
            done, _ = await asyncio.wait({down, up}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for part in (down, up):
                part.cancel()
            await asyncio.wait({down, up})
    if down in done:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await websocket.close(code=1000)
    log.info("task %r: the relayed live view closed", target.task_id)


async def _holder_to_person(holder: ClientConnection, websocket: WebSocket) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for message in holder:
            if isinstance(message, bytes):
                await websocket.send_bytes(message)
            else:
                await websocket.send_text(message)


async def _person_to_holder(websocket: WebSocket, holder: ClientConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is not None:
                await holder.send(text)


async def serve_view(websocket: WebSocket, view: LiveView, task_id: str) -> None:
    """Serve ``view`` on ``websocket``, from accepting it until the view or the person
    ends it (the protocol of the module)."""
    async with view:
        await websocket.accept()
        log.info("task %r: its owner took over its browser", task_id)
        width, height = view.size
        await websocket.send_text(
            json.dumps(
                {"type": "ready", "width": width, "height": height, "origin": _origin(view.url)}
            )
        )
        sending = asyncio.create_task(
            _send_frames(websocket, view), name=f"gofer-live-frames-{task_id}"
        )
        taking = asyncio.create_task(
            _take_input(websocket, view), name=f"gofer-live-input-{task_id}"
        )
        try:
            done, _ = await asyncio.wait({sending, taking}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for part in (sending, taking):
                part.cancel()
            await asyncio.wait({sending, taking})
        person_left = any(
            isinstance(p.exception(), WebSocketDisconnect) for p in done if not p.cancelled()
        )
        for part in done:
            error = None if part.cancelled() else part.exception()
            if error is not None and not isinstance(error, WebSocketDisconnect):
                log.warning(
                    "task %r: the live view stopped (%s)",
                    task_id,
                    getattr(error, "code", type(error).__name__),
                )
    log.info("task %r: the live view closed", task_id)
    if not person_left:
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await websocket.send_text(json.dumps({"type": "ended", "message": _ENDED}))
            await websocket.close(code=1000)


# ------------------------------------------------------------------ the page


def live_fragment(task_id: str) -> str:
    """The live view's HTML, for a page to include with ``<link rel="stylesheet"
    href="/assets/live.css">`` and ``<script src="/assets/live.js" defer>`` once.

    Its "Take over" button opens the view; the person then clicks and types on the
    page's picture (keys go to the page while it has focus; Shift+Escape leaves it),
    or types text into the field below it, which suits a phone and a screen reader.
    Status changes are announced in a polite live region. Handing the task back is
    the including page's (the task page's own forms).
    """
    tid = html.escape(task_id, quote=True)
    socket = html.escape(f"/tasks/{quote(task_id, safe='')}/live/socket", quote=True)
    return f"""<section class="gofer-live card" data-gofer-live data-live-socket="{socket}"
 aria-labelledby="gofer-live-title-{tid}">
<h2 id="gofer-live-title-{tid}">The task's browser</h2>
<p id="gofer-live-help-{tid}" class="gofer-live-help"><span class="gofer-live-keys">See the
task's own browser page here and use it yourself: click on the picture and type. Keys you
press while the picture has focus go to the page; press Shift+Escape to leave it.</span>
<span class="gofer-live-touch">See the task's own browser page here and use it yourself: tap
the picture where you would tap the page. Zoom with two fingers or the + and − buttons, and
drag to move around a zoomed picture. Type in the box below it.</span></p>
<p><button type="button" data-live-start>Take over</button>
<button type="button" class="secondary" data-live-stop hidden>Stop taking over</button></p>
<div class="gofer-live-view" data-live-view hidden>
<div class="gofer-live-bar">
<p class="gofer-live-origin"><span class="gofer-live-hidden">The page is on </span><span
 data-live-origin></span></p>
<div class="gofer-live-zoom" role="group" aria-label="Zoom the picture">
<button type="button" class="secondary" data-live-zoom="out" aria-label="Zoom out">−</button>
<output data-live-zoom-level aria-live="polite">100%</output>
<button type="button" class="secondary" data-live-zoom="in" aria-label="Zoom in">+</button>
</div></div>
<div class="gofer-live-screen" data-live-screen tabindex="0" role="application"
 aria-roledescription="live browser page" aria-label="The task's browser page"
 aria-describedby="gofer-live-help-{tid}">
<img data-live-image alt="The task's browser page as it is now"></div>
</div>
<form class="gofer-live-type" data-live-type hidden>
<label for="gofer-live-text-{tid}" data-live-type-label>Type into the page's focused
field</label>
<input id="gofer-live-text-{tid}" type="password" autocomplete="off" spellcheck="false"
 autocapitalize="off">
<button type="submit">Type it</button>
</form>
<p class="gofer-live-status" data-live-status role="status" aria-live="polite"></p>
</section>"""


router = APIRouter(include_in_schema=False)
"""The live view's routes (see the module), signed in through the task pages' sessions."""


@router.get("/tasks/{task_id}/live")
async def live_page(request: Request, site: Site, service: Service, task_id: str) -> Response:
    session = await site.session_of(request)
    if session is None:
        here = live_address(task_id)
        return RedirectResponse(
            "/login?" + urlencode({"next": here}),
            status_code=303,
            headers={"Cache-Control": "no-store"},
        )
    try:
        record = await service.record(session.owner, task_id)
    except GoferError as exc:
        if exc.code == "UNKNOWN_TASK":
            return site.render("missing.html", 404, session=session)
        raise
    status = record.view.status
    waiting = record.resolved_at is None and holds_browser(status)
    code = request.query_params.get("problem")
    return site.render(
        "live.html",
        session=session,
        record=record,
        status=status,
        words=status_words(status, record.resolved_at is not None),
        open=waiting and await service.browser_here(session.owner, task_id),
        waiting=waiting,
        fragment=Markup(live_fragment(task_id)),
        csrf_field=CSRF_FIELD,
        problem=PROBLEMS.get(code) if code else None,
    )


@router.websocket("/tasks/{task_id}/live/socket")
async def socket(websocket: WebSocket, task_id: str) -> None:
    sessions = site_of(websocket).sessions
    await live_socket(websocket, service_of(websocket), tokens_of(websocket), sessions, task_id)
