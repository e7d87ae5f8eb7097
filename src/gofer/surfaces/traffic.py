"""Counting a page's requests in flight, so a surface can wait for the network to go quiet."""

from __future__ import annotations

import asyncio
import time
from urllib.parse import urlsplit

from playwright.async_api import Page, Request

__all__ = ["RequestTracker"]

_LONG_LIVED = frozenset({"websocket", "eventsource", "manifest"})
_CALLS = frozenset({"fetch", "xhr"})
OWN_MS = 100
"""Requests that start this soon after an action began are always the action's own."""


def _key(request: Request) -> tuple[str, str]:
    """What a repeated request shares: its method and address without query or fragment."""
    parts = urlsplit(request.url)
    return request.method, f"{parts.scheme}://{parts.netloc}{parts.path}"


class RequestTracker:
    """Tracks one page's requests from ``request`` to ``requestfinished``/``requestfailed``.

    A request still open after ``long_poll_ms`` is taken for a long poll (or a
    stream) and no longer waited for. So is the page's own background traffic,
    told apart by when it starts: the surface marks the time from an action to the
    end of the settle after it as *acting* (:meth:`begin`, :meth:`end`). A ``fetch``
    or XHR that starts while the page is idle is background (polling, heartbeats,
    analytics), and so are later requests to the same method and path; so is a
    request to an address already requested in the same acting window (a poll
    firing during a long settle). A request that starts within ``OWN_MS`` of the
    action is waited for whatever its address.
    """

    def __init__(self, page: Page, *, long_poll_ms: int = 5_000) -> None:
        self._open: dict[Request, float] = {}
        self._changed = asyncio.Event()
        self._long_poll = long_poll_ms / 1000
        self._acting = True  # a new page is loading
        self._began = time.monotonic()
        self._window: set[tuple[str, str]] = set()
        self._background: set[tuple[str, str]] = set()
        page.on("request", self._started)
        page.on("requestfinished", self._ended)
        page.on("requestfailed", self._ended)

    def begin(self) -> None:
        """An action is about to be taken on the page."""
        self._acting = True
        self._began = time.monotonic()
        self._window.clear()

    def end(self) -> None:
        """The settle after an action ended: the page is idle until the next one."""
        self._acting = False

    def _started(self, request: Request) -> None:
        kind = request.resource_type
        if kind in _LONG_LIVED:
            return
        now = time.monotonic()
        if kind in _CALLS:
            key = _key(request)
            if not self._acting:
                self._background.add(key)
                return
            call = (request.method, request.url)
            repeated = call in self._window
            self._window.add(call)
            if now - self._began > OWN_MS / 1000 and (repeated or key in self._background):
                self._background.add(key)
                return
        self._open[request] = now

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
