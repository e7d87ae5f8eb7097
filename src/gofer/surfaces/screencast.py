"""The browser's live view: Chromium's screencast and input over the DevTools protocol.

:class:`Screencast` opens a CDP session on the browser surface's current page,
starts ``Page.startScreencast`` and hands out each ``Page.screencastFrame``,
acknowledging a frame (``Page.screencastFrameAck``) only once it is taken, so a slow
viewer slows the frames down instead of piling them up. A person's input goes to the
same page as ``Input.dispatchMouseEvent``, ``Input.dispatchKeyEvent`` and
``Input.insertText``: to the page it is the person's own mouse and keyboard. When the
surface moves to another page (a click opened one, or the one it was on closed), the
screencast moves with it. While the view is open, the page's JavaScript dialogs are
the person's to answer (the surface, left alone, accepts alerts and dismisses the
rest); one still open when the view closes is dismissed.

Nothing here logs a frame or an input's text.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import Any, Protocol, cast

from playwright.async_api import BrowserContext, CDPSession, Dialog, Page

from gofer.errors import SurfaceError
from gofer.surfaces.failures import PlaywrightError, playwright_errors
from gofer.surfaces.live import (
    DialogKind,
    KeyInput,
    LiveDialog,
    LiveFrame,
    LiveOptions,
    Modifiers,
    PointerInput,
    check_text,
)

__all__ = ["Host", "Screencast", "key_event", "mouse_event"]

_MOUSE = {
    "down": "mousePressed",
    "up": "mouseReleased",
    "move": "mouseMoved",
    "wheel": "mouseWheel",
}
_BUTTONS = {"none": 0, "left": 1, "right": 2, "middle": 4}

# Windows virtual key codes and the character they type, for keys that are not a
# character of their own (the DOM's names).
_NAMED_KEYS: dict[str, tuple[int, str, str]] = {
    "Backspace": (8, "Backspace", ""),
    "Tab": (9, "Tab", ""),
    "Enter": (13, "Enter", "\r"),
    "Shift": (16, "ShiftLeft", ""),
    "Control": (17, "ControlLeft", ""),
    "Alt": (18, "AltLeft", ""),
    "Escape": (27, "Escape", ""),
    "PageUp": (33, "PageUp", ""),
    "PageDown": (34, "PageDown", ""),
    "End": (35, "End", ""),
    "Home": (36, "Home", ""),
    "ArrowLeft": (37, "ArrowLeft", ""),
    "ArrowUp": (38, "ArrowUp", ""),
    "ArrowRight": (39, "ArrowRight", ""),
    "ArrowDown": (40, "ArrowDown", ""),
    "Delete": (46, "Delete", ""),
    "Meta": (91, "MetaLeft", ""),
}


def _mask(mods: Modifiers) -> int:
    return (
        (1 if mods.alt else 0)
        | (2 if mods.ctrl else 0)
        | (4 if mods.meta else 0)
        | (8 if mods.shift else 0)
    )


def mouse_event(event: PointerInput) -> dict[str, Any]:
    """The ``Input.dispatchMouseEvent`` parameters of ``event``."""
    params: dict[str, Any] = {
        "type": _MOUSE[event.action],
        "x": event.x,
        "y": event.y,
        "modifiers": _mask(event.modifiers),
    }
    if event.action == "wheel":
        params.update(deltaX=event.dx, deltaY=event.dy)
    else:
        params["button"] = event.button
        pressed = event.action == "down" or (event.action == "move" and event.button != "none")
        params["buttons"] = _BUTTONS[event.button] if pressed else 0
        if event.action in ("down", "up"):
            params["clickCount"] = max(1, min(event.clicks, 3))
    return params


def key_event(event: KeyInput) -> dict[str, Any]:
    """The ``Input.dispatchKeyEvent`` parameters of ``event``: a printable key going down
    without Ctrl, Alt or Meta types its character."""
    named = _NAMED_KEYS.get(event.key)
    code = event.code
    if named is not None:
        vk, default_code, text = named
        code = code or default_code
    elif len(event.key) == 1:
        char = event.key
        vk = ord(char.upper()) if char.isascii() and char.isalnum() else (32 if char == " " else 0)
        text = char
    else:
        vk, text = 0, ""
    if event.modifiers.any_command and event.key != "Enter":
        text = ""
    params: dict[str, Any] = {
        "key": event.key,
        "code": code,
        "windowsVirtualKeyCode": vk,
        "modifiers": _mask(event.modifiers),
    }
    if event.action == "up":
        params["type"] = "keyUp"
    elif text:
        params.update(type="keyDown", text=text, unmodifiedText=text)
    else:
        params["type"] = "rawKeyDown"
    return params


class Host(Protocol):
    """What a screencast needs of the browser surface it shows."""

    @property
    def context(self) -> BrowserContext:
        """The session's browser context."""
        ...

    @property
    def page(self) -> Page:
        """The page the surface is on now (SurfaceError NO_PAGE when none is open)."""
        ...

    @property
    def closed(self) -> bool:
        """Whether the surface is closed."""
        ...

    def take_dialogs(self, handler: Callable[[Dialog], None] | None) -> None:
        """Hand the page's dialogs to ``handler`` (None: back to the surface)."""
        ...


_KINDS = {"alert", "confirm", "prompt", "beforeunload"}
MAX_DIALOGS = 20
"""Dialogs that may wait for the person at once; a page opening more has them dismissed."""


class Screencast:
    """A live view of a :class:`~gofer.surfaces.BrowserSurface` (a
    :class:`~gofer.surfaces.live.LiveView`); made by ``BrowserSurface.live``."""

    def __init__(self, surface: Host, options: LiveOptions) -> None:
        self._surface = surface
        self._options = options
        self._page: Page | None = None
        self._session: CDPSession | None = None
        self._latest: LiveFrame | None = None
        self._unacked: list[tuple[CDPSession, int]] = []
        self._fresh = asyncio.Event()
        self._lock = asyncio.Lock()
        self._size = (0, 0)
        self._closed = False
        self._dialogs: deque[Dialog] = deque()
        self._dialog_shown = True
        self._dismissing: set[asyncio.Task[None]] = set()

    # ---- life cycle -------------------------------------------------------------------

    async def start(self) -> None:
        """Start the screencast on the surface's current page."""
        self._surface.context.on("page", self._moved)
        self._surface.take_dialogs(self._opened)
        try:
            async with self._lock:
                await self._follow()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Stop the screencast and detach from the page (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._fresh.set()
        self._surface.take_dialogs(None)
        with contextlib.suppress(ValueError, KeyError):
            self._surface.context.remove_listener("page", self._moved)
        dialogs, self._dialogs = list(self._dialogs), deque()
        for dialog in dialogs:
            await _quietly(dialog.dismiss())
        session, self._session = self._session, None
        if session is not None:
            await _quietly(session.send("Page.stopScreencast"))
            await _quietly(session.detach())

    @property
    def closed(self) -> bool:
        """Whether the view is closed, by :meth:`close` or with its surface."""
        return self._closed or self._surface.closed

    @property
    def size(self) -> tuple[int, int]:
        """The viewport's width and height in CSS pixels, as of the latest frame."""
        return self._size

    @property
    def url(self) -> str:
        """The address of the page the view shows now."""
        page = self._current()
        return page.url if page is not None else ""

    async def __aenter__(self) -> Screencast:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # ---- following the surface's page -------------------------------------------------

    def _moved(self, *_: object) -> None:
        """A page opened or closed: the next frame or input looks where the surface is."""
        self._fresh.set()

    def _current(self) -> Page | None:
        if self.closed:
            return None
        try:
            return self._surface.page
        except SurfaceError:
            return None

    async def _follow(self) -> bool:
        """Move the screencast to the surface's current page if it is elsewhere; whether
        there is a page to show (call under the lock)."""
        page = self._current()
        if page is None:
            await self.close()
            return False
        if page is self._page and self._session is not None:
            return True
        old, self._session = self._session, None
        if old is not None:
            await _quietly(old.send("Page.stopScreencast"))
            await _quietly(old.detach())
        self._unacked = [(s, n) for s, n in self._unacked if s is not old]
        self._page = page
        page.once("close", self._moved)
        opts = self._options
        with playwright_errors("could not start the live view", code="LIVE_FAILED"):
            session = await self._surface.context.new_cdp_session(page)
            session.on("Page.screencastFrame", lambda params: self._frame(session, params))
            viewport = page.viewport_size or {"width": 0, "height": 0}
            self._size = (int(viewport["width"]), int(viewport["height"]))
            # The page as it is now: a still page may not repaint for a while.
            shot = await session.send(
                "Page.captureScreenshot", {"format": "jpeg", "quality": opts.quality}
            )
            if self._latest is None:
                self._latest = LiveFrame(base64.b64decode(shot["data"]), *self._size)
                self._fresh.set()
            await session.send(
                "Page.startScreencast",
                {
                    "format": "jpeg",
                    "quality": opts.quality,
                    "maxWidth": opts.max_width,
                    "maxHeight": opts.max_height,
                    "everyNthFrame": 1,
                },
            )
        self._session = session
        return True

    def _frame(self, session: CDPSession, params: dict[str, Any]) -> None:
        if self._closed or (self._session is not None and session is not self._session):
            return
        meta = params.get("metadata", {})
        width = round(float(meta.get("deviceWidth", self._size[0])))
        height = round(float(meta.get("deviceHeight", self._size[1])))
        self._size = (width, height)
        self._latest = LiveFrame(base64.b64decode(params["data"]), width, height)
        self._unacked.append((session, int(params["sessionId"])))
        self._fresh.set()

    # ---- dialogs ----------------------------------------------------------------------

    def _opened(self, dialog: Dialog) -> None:
        """The page opened a dialog: it is the person's to answer, after any dialog
        already open (another frame's or tab's); past :data:`MAX_DIALOGS` waiting, the
        newest is dismissed."""
        if len(self._dialogs) >= MAX_DIALOGS:
            task = asyncio.get_running_loop().create_task(_quietly(dialog.dismiss()))
            self._dismissing.add(task)
            task.add_done_callback(self._dismissing.discard)
            return
        self._dialogs.append(dialog)
        if len(self._dialogs) == 1:
            self._dialog_shown = False
        self._fresh.set()

    async def answer(self, accept: bool, text: str = "") -> None:
        """Answer the dialog shown to the person, the oldest open (nothing when none is);
        the next one waiting is shown then."""
        check_text(text)
        if not self._dialogs:
            return
        dialog = self._dialogs.popleft()
        if self._dialogs:
            self._dialog_shown = False
            self._fresh.set()
        with playwright_errors(
            "the dialog could not be answered", code="LIVE_INPUT_FAILED", show_reason=False
        ):
            if accept:
                await (dialog.accept(text) if dialog.type == "prompt" else dialog.accept())
            else:
                await dialog.dismiss()

    # ---- frames -----------------------------------------------------------------------

    async def frames(self) -> AsyncIterator[LiveFrame | LiveDialog]:
        """The page's pictures, latest first when they come faster than they are taken,
        and each dialog the page opens."""
        loop = asyncio.get_running_loop()
        spacing = 1.0 / self._options.max_fps
        sent_at = -spacing
        while True:
            self._fresh.clear()
            dialog = self._dialogs[0] if self._dialogs else None
            if dialog is not None and not self._dialog_shown and not self._closed:
                self._dialog_shown = True
                kind = cast(DialogKind, dialog.type if dialog.type in _KINDS else "alert")
                yield LiveDialog(kind, dialog.message, dialog.default_value)
                continue
            if self._latest is not None:
                # At most max_fps: a frame waits out the spacing (Chromium sends the
                # next one only once this one is acknowledged).
                early = sent_at + spacing - loop.time()
                if early > 0:
                    await asyncio.sleep(early)
            async with self._lock:
                if not await self._follow():
                    return
                frame, self._latest = self._latest, None
                unacked, self._unacked = self._unacked, []
            for session, number in unacked:
                await _quietly(session.send("Page.screencastFrameAck", {"sessionId": number}))
            if frame is not None:
                sent_at = loop.time()
                yield frame
                continue
            await self._fresh.wait()

    # ---- input ------------------------------------------------------------------------

    async def _send(self, method: str, params: dict[str, Any]) -> None:
        async with self._lock:
            if self.closed or not await self._follow():
                raise SurfaceError("the live view is closed", code="LIVE_CLOSED")
            session = self._session
            assert session is not None
        # Not under the lock: an input that opens a dialog returns only once the dialog
        # is answered, and the frames must go on to show it meanwhile.
        with playwright_errors(
            "the page did not take the input", code="LIVE_INPUT_FAILED", show_reason=False
        ):
            await session.send(method, params)

    async def pointer(self, event: PointerInput) -> None:
        """Send a mouse event to the page (``Input.dispatchMouseEvent``)."""
        await self._send("Input.dispatchMouseEvent", mouse_event(event))

    async def key(self, event: KeyInput) -> None:
        """Send a key to the page (``Input.dispatchKeyEvent``)."""
        await self._send("Input.dispatchKeyEvent", key_event(event))

    async def text(self, text: str) -> None:
        """Type ``text`` at once (``Input.insertText``)."""
        check_text(text)
        if text:
            await self._send("Input.insertText", {"text": text})


async def _quietly(call: Any) -> None:
    """Await a CDP call whose failure changes nothing (the page or session is gone)."""
    with contextlib.suppress(PlaywrightError):
        await call
