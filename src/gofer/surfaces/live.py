"""A live view of a surface: its frames as they paint, and a person's input sent to it.

A person takes over a task's page to get past what only they can (a captcha, a
login wall, a payment they finish themselves): :meth:`LiveSurface.live` opens a
:class:`LiveView` on the page, whose :meth:`~LiveView.frames` yields a
:class:`LiveFrame` whenever the page repaints and whose :meth:`~LiveView.pointer`,
:meth:`~LiveView.key` and :meth:`~LiveView.text` act on that page as the person's
own mouse and keyboard would; a JavaScript dialog the page opens meanwhile (an
alert, a confirm, a prompt) comes in the frames as a :class:`LiveDialog` for the
person to answer (:meth:`~LiveView.answer`). The browser's is Chromium's screencast
(:mod:`gofer.surfaces.screencast`); :mod:`gofer.surfaces.testing` ships a fake.

Frames show the page as it is, fields the person typed into included: they are the
person's own view, never logged, stored or shown to anyone else. Input is never
logged either.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from types import TracebackType
from typing import Literal, Protocol, runtime_checkable

from gofer.errors import SurfaceError

__all__ = [
    "MAX_TEXT_CHARS",
    "DialogKind",
    "KeyAction",
    "KeyInput",
    "LiveDialog",
    "LiveFrame",
    "LiveOptions",
    "LiveSurface",
    "LiveView",
    "Modifiers",
    "PointerAction",
    "PointerButton",
    "PointerInput",
    "live_unsupported",
]

PointerAction = Literal["down", "up", "move", "wheel"]
PointerButton = Literal["left", "middle", "right", "none"]
KeyAction = Literal["down", "up"]

MAX_TEXT_CHARS = 4_096
"""The most characters one :meth:`LiveView.text` call types (a pasted password, an
address); longer text is refused."""


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Which modifier keys are held."""

    alt: bool = False
    ctrl: bool = False
    meta: bool = False
    shift: bool = False

    @property
    def any_command(self) -> bool:
        """Whether a key held turns a character into a command (Ctrl, Alt, Meta)."""
        return self.alt or self.ctrl or self.meta


@dataclass(frozen=True, slots=True)
class PointerInput:
    """One mouse event at ``(x, y)`` in the page's viewport, in CSS pixels.

    ``clicks`` is the click count of a press or release (2 for a double click);
    ``dx``/``dy`` scroll a ``wheel`` event by that many pixels.
    """

    action: PointerAction
    x: float
    y: float
    button: PointerButton = "left"
    clicks: int = 1
    dx: float = 0.0
    dy: float = 0.0
    modifiers: Modifiers = Modifiers()


@dataclass(frozen=True, slots=True)
class KeyInput:
    """One key going down or up, named as the DOM names it (``key``: ``"a"``,
    ``"Enter"``, ``"ArrowLeft"``; ``code``: ``"KeyA"``, when known). A printable key
    going down without Ctrl, Alt or Meta types its character."""

    action: KeyAction
    key: str
    code: str = ""
    modifiers: Modifiers = Modifiers()


@dataclass(frozen=True, slots=True)
class LiveFrame:
    """One picture of the page: ``data`` in ``media_type``, showing a viewport of
    ``width`` by ``height`` CSS pixels (the picture itself may be scaled down)."""

    data: bytes
    width: int
    height: int
    media_type: str = "image/jpeg"


DialogKind = Literal["alert", "confirm", "prompt", "beforeunload"]


@dataclass(frozen=True, slots=True)
class LiveDialog:
    """A JavaScript dialog the page opened, waiting for the person's answer: the page
    stays blocked until :meth:`LiveView.answer` (``default`` is a prompt's text)."""

    kind: DialogKind
    message: str
    default: str = ""


@dataclass(frozen=True, slots=True)
class LiveOptions:
    """How frames are made: JPEG ``quality`` (1-100), the largest picture size, and
    the most frames a second.

    A picture larger than ``max_width`` by ``max_height`` is scaled down to fit;
    input coordinates stay in the page's CSS pixels whatever the scale. A page that
    repaints all the time (an animation) is sent at ``max_fps`` at most, which is
    plenty to follow a sign-in form and spares the machine the browser runs on.
    """

    quality: int = 70
    max_width: int = 1280
    max_height: int = 1280
    max_fps: float = 12.0

    def __post_init__(self) -> None:
        if not 1 <= self.quality <= 100:
            raise ValueError("quality is 1 to 100")
        if not 0 < self.max_fps <= 60:
            raise ValueError("max_fps is more than 0 and at most 60")
        if self.max_width < 16 or self.max_height < 16:
            raise ValueError("frames are at least 16 pixels each way")


@runtime_checkable
class LiveView(Protocol):
    """A person's live view of one surface's page (see the module).

    Use as ``async with await surface.live() as view:``. Its frames end, and input
    raises :class:`~gofer.errors.SurfaceError` ``LIVE_CLOSED``, once it is closed or
    its surface is.
    """

    @property
    def closed(self) -> bool:
        """Whether the view is closed (by :meth:`close` or because its surface closed)."""
        ...

    @property
    def size(self) -> tuple[int, int]:
        """The viewport's width and height in CSS pixels, as of the latest frame."""
        ...

    @property
    def url(self) -> str:
        """The address of the page the view shows now ("" when none)."""
        ...

    def frames(self) -> AsyncIterator[LiveFrame | LiveDialog]:
        """The page's pictures: the page as it is first, then one per repaint, the
        latest only when they come faster than they are taken; and each dialog the
        page opens. Ends when the view closes."""
        ...

    async def answer(self, accept: bool, text: str = "") -> None:
        """Answer the dialog the page waits on (OK or Cancel; ``text`` for a prompt);
        nothing when none is open. A dialog left unanswered is cancelled when the view
        closes."""
        ...

    async def pointer(self, event: PointerInput) -> None:
        """Send a mouse event to the page."""
        ...

    async def key(self, event: KeyInput) -> None:
        """Send a key to the page's focused element."""
        ...

    async def text(self, text: str) -> None:
        """Type ``text`` into the page's focused element at once (a paste; at most
        MAX_TEXT_CHARS characters)."""
        ...

    async def close(self) -> None:
        """Stop the frames and let the page go on without the person (idempotent)."""
        ...

    async def __aenter__(self) -> LiveView: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


@runtime_checkable
class LiveSurface(Protocol):
    """A surface a person can take over: the browser, and the fake of it."""

    async def live(self, options: LiveOptions | None = None) -> LiveView:
        """Open a live view of the surface's current page (it follows the surface to
        a page that opens, and back when it closes)."""
        ...


def live_unsupported(kind: str) -> SurfaceError:
    """The error for a surface no one can take over."""
    return SurfaceError(
        f"the {kind} surface has no live view", code="LIVE_UNSUPPORTED", surface=kind
    )


def check_text(text: str) -> None:
    """Refuse text over MAX_TEXT_CHARS (the message never quotes it)."""
    if len(text) > MAX_TEXT_CHARS:
        raise SurfaceError(
            f"at most {MAX_TEXT_CHARS} characters are typed at once",
            code="LIVE_TEXT_TOO_LONG",
            chars=len(text),
        )
