"""Counting a page's requests in flight, so a surface can wait for the network to go quiet."""

from __future__ import annotations

import asyncio
import time

from playwright.async_api import Page, Request

__all__ = ["RequestTracker"]

_LONG_LIVED = frozenset({"websocket", "eventsource", "manifest"})


class RequestTracker:
    """Tracks one page's requests from ``request`` to ``requestfinished``/``requestfailed``.

    A request still open after ``long_poll_ms`` is taken for a long poll (or a
    stream) and no longer waited for.
    """

    def __init__(self, page: Page, *, long_poll_ms: int = 5_000) -> None:
        self._open: dict[Request, float] = {}
        self._changed = asyncio.Event()
        self._long_poll = long_poll_ms / 1000
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def _started(self, request: Request) -> None:
        if request.resource_type not in _LONG_LIVED:
            self._open[request] = time.monotonic()

    def _ended(self, request: Request) -> None:
        if self._open.pop(request, None) is not None:
            self._changed.set()

    def pending(self) -> int:
        """Requests in flight that are still waited for."""
        cutoff = time.monotonic() - self._long_poll
        return sum(1 for started in self._open.values() if started > cutoff)

    async def idle(self, timeout_s: float) -> bool:
        """Wait until no waited-for request is in flight; False when ``timeout_s`` ran out."""
        deadline = time.monotonic() + timeout_s
        while True:
            now = time.monotonic()
            active = [s for s in self._open.values() if s > now - self._long_poll]
            if not active:
                return True
            if now >= deadline:
                return False
            until_long_poll = min(active) + self._long_poll - now
            self._changed.clear()
            try:
                await asyncio.wait_for(
                    self._changed.wait(), timeout=max(0.0, min(deadline - now, until_long_poll))
                )
            except TimeoutError:
                continue
