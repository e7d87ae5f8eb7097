"""The Surface interface: what the runtime needs from a browser or a desktop."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from gofer.surfaces.screen import Screen

Masker = Callable[[str], str]
"""Replaces secret values in a text (``facts.mask``); applied to every screen value."""

SurfaceKind = Literal["browser", "desktop"]


@dataclass(frozen=True, slots=True)
class ActionEffect:
    """What an action changed: used to detect a click that did nothing."""

    navigated: bool = False
    dom_changed: bool = False
    focus_changed: bool = False
    new_page: bool = False
    dialog: bool = False
    state_changed: bool = False
    """The element acted on changed state with no DOM change (a ticked box, a chosen option)."""

    @property
    def changed(self) -> bool:
        """Whether the action changed anything at all."""
        return (
            self.navigated or self.dom_changed or self.focus_changed or self.new_page
            or self.dialog or self.state_changed
        )


@runtime_checkable
class Surface(Protocol):
    """One surface a flow acts on. Implementations: the browser (Playwright)."""

    kind: SurfaceKind

    async def snapshot(self, mask: Masker | None = None) -> Screen:
        """Read the screen as it is now."""
        ...

    async def settle(self, timeout_ms: int = 10_000) -> None:
        """Wait until the page is quiet: navigation done, requests done, DOM still."""
        ...

    async def screenshot(self) -> bytes:
        """A PNG of what is showing."""
        ...

    async def close(self) -> None:
        """Release the surface (for an attached browser, only disconnect)."""
        ...
