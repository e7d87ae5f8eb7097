"""A person's live view of a paused task's browser, as the worker hands it out.

:class:`HeldView` wraps the surface's :class:`~gofer.surfaces.LiveView`: every input
the person sends restarts the task's hold on its browser (so a browser is never let
go under a person still working in it), and closing the view tells the worker it is
gone. Nothing here sees what is typed beyond passing it on.

The faces take the live view's types from here (they import nothing of
:mod:`gofer.surfaces`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from types import TracebackType

from gofer.surfaces.live import (
    MAX_TEXT_CHARS,
    KeyInput,
    LiveDialog,
    LiveFrame,
    LiveOptions,
    LiveView,
    Modifiers,
    PointerInput,
)

__all__ = [
    "MAX_TEXT_CHARS",
    "HeldView",
    "KeyInput",
    "LiveDialog",
    "LiveFrame",
    "LiveOptions",
    "LiveView",
    "Modifiers",
    "PointerInput",
]


class HeldView:
    """``view`` with ``touch`` called on each input and ``closed(self)`` once it closes."""

    def __init__(
        self,
        view: LiveView,
        *,
        touch: Callable[[], None],
        closed: Callable[[HeldView], None],
    ) -> None:
        self._view = view
        self._touch = touch
        self._closed = closed

    @property
    def closed(self) -> bool:
        """Whether the view is closed."""
        return self._view.closed

    @property
    def size(self) -> tuple[int, int]:
        """The page's viewport in CSS pixels, as of the latest frame."""
        return self._view.size

    def frames(self) -> AsyncIterator[LiveFrame | LiveDialog]:
        """The page's pictures, and its dialogs, until the view closes."""
        return self._view.frames()

    async def answer(self, accept: bool, text: str = "") -> None:
        """Answer the page's open dialog."""
        self._touch()
        await self._view.answer(accept, text)

    async def pointer(self, event: PointerInput) -> None:
        """Send a mouse event to the page."""
        self._touch()
        await self._view.pointer(event)

    async def key(self, event: KeyInput) -> None:
        """Send a key to the page."""
        self._touch()
        await self._view.key(event)

    async def text(self, text: str) -> None:
        """Type ``text`` into the page at once."""
        self._touch()
        await self._view.text(text)

    async def close(self) -> None:
        """Close the view (idempotent)."""
        self._closed(self)
        await self._view.close()

    async def __aenter__(self) -> HeldView:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
