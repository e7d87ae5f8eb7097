"""A session's address check when its browser is remote.

A remote Chromium cannot reach the :class:`~gofer.surfaces.gate.Gate` on this machine's
loopback, so a session there (the operator's ``--browser-endpoint``) has its requests
judged before the remote sends them: Playwright holds each request (and each page
WebSocket) of the context until :class:`Judge` lets it go on, or refuses a host that
resolves to a loopback, link-local, private or metadata address (``BLOCKED_ADDRESS``)
unless the operator allows those, and a WebSocket outside the session's origins
(``BLOCKED_ORIGIN``; the surface's own route judges the other requests' origins).
Unlike the gate it cannot make the remote connect to the very address it judged: the
remote resolves the name again, on its own network.

A route never sees a redirect's next hop, so each page of the session also has a
DevTools session of its own with request interception (``Fetch.enable``), where every
hop pauses on its own: a hop that a redirect asked for is judged there by the same
rules (its origin, and its address), and failed before the remote sends it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from playwright.async_api import BrowserContext, CDPSession, Page, Route, WebSocketRoute

from gofer.surfaces.addresses import host_port, resolve
from gofer.surfaces.failures import PlaywrightError
from gofer.surfaces.gate import Refusal
from gofer.surfaces.origins import origin_allowed

__all__ = ["VERDICT_TTL_S", "Judge"]

VERDICT_TTL_S = 30.0
"""How long a host's verdict stands before its name is resolved again."""


class Judge:
    """Refuses a remote session's requests to private addresses (unless
    ``allow_private``) and its WebSockets outside ``origins``; ``on_refused`` hears of
    each refusal (the surface sets it, as for a gate)."""

    def __init__(
        self,
        origins: tuple[str, ...],
        allow_private: bool,
        on_refused: Callable[[Refusal], None] | None = None,
    ) -> None:
        self.origins = origins
        self.allow_private = allow_private
        self.on_refused = on_refused
        self._verdicts: dict[tuple[str, int], tuple[float, str | None]] = {}
        self._context: BrowserContext | None = None
        self._pages: dict[Page, asyncio.Future[None]] = {}
        """Each page's hop watch while it starts: its first request waits for it."""
        self._watching: set[asyncio.Future[None]] = set()

    async def install(self, context: BrowserContext) -> None:
        """Judge every request, redirect hop and page WebSocket of ``context`` from now
        on."""
        if not self.allow_private:
            await context.route("**/*", self._route)
        await context.route_web_socket("**/*", self._socket)
        self._context = context
        context.on("page", self._watch_later)

    def _watch_later(self, page: Page) -> None:
        watching = asyncio.ensure_future(self.watch(page))
        self._watching.add(watching)
        watching.add_done_callback(self._watching.discard)
        self._pages[page] = watching
        page.on("close", lambda closed: self._pages.pop(closed, None))

    async def watched(self) -> None:
        """Wait until every page opened so far has its hops judged (the session's
        first page, before anything loads in it)."""
        pending = [w for w in self._pages.values() if not w.done()]
        if pending:
            await asyncio.wait(pending)

    async def watch(self, page: Page) -> None:
        """Judge the redirect hops of ``page`` (its own DevTools session; a page that
        closes meanwhile is left alone)."""
        if self._context is None:
            return
        with contextlib.suppress(PlaywrightError):
            session = await self._context.new_cdp_session(page)
            session.on("Fetch.requestPaused", lambda event: self._hop_later(session, event))
            pattern = {"urlPattern": "*", "requestStage": "Request"}
            await session.send("Fetch.enable", {"patterns": [pattern]})

    def _hop_later(self, session: CDPSession, event: dict[str, Any]) -> None:
        judging = asyncio.ensure_future(self._hop(session, event))
        self._watching.add(judging)
        judging.add_done_callback(self._watching.discard)

    async def _hop(self, session: CDPSession, event: dict[str, Any]) -> None:
        """Let a request go on, unless a redirect asked for it and the judge refuses
        where it goes (the route judged the first hop already)."""
        request_id = event["requestId"]
        refusal = None
        if event.get("redirectedRequestId") is not None:
            refusal = await self._refusal(str(event["request"]["url"]), origin=True)
        with contextlib.suppress(PlaywrightError):
            if refusal is None:
                await session.send("Fetch.continueRequest", {"requestId": request_id})
            else:
                failed = {"requestId": request_id, "errorReason": "BlockedByClient"}
                await session.send("Fetch.failRequest", failed)

    async def _refusal(self, url: str, *, origin: bool = False) -> Refusal | None:
        where = host_port(url)
        if where is None:
            return None
        host, port = where
        if origin and not origin_allowed(url, self.origins):
            refusal = Refusal(host, port, "BLOCKED_ORIGIN", "outside the origins", url)
        elif self.allow_private:
            return None
        else:
            why = await self._judged(host, port)
            if why is None:
                return None
            refusal = Refusal(host, port, "BLOCKED_ADDRESS", why, url)
        if self.on_refused is not None:
            self.on_refused(refusal)
        return refusal

    async def _judged(self, host: str, port: int) -> str | None:
        """Why ``host`` may not be reached (None: it may), resolved at most once every
        :data:`VERDICT_TTL_S` (a page asks for one host many times over)."""
        now = asyncio.get_running_loop().time()
        kept = self._verdicts.get((host, port))
        if kept is not None and now - kept[0] < VERDICT_TTL_S:
            return kept[1]
        why = (await resolve(host, port, allow_private=False)).refusal
        self._verdicts[(host, port)] = (now, why)
        return why

    async def _route(self, route: Route) -> None:
        refusal = await self._refusal(route.request.url)
        with contextlib.suppress(PlaywrightError):  # the page may be gone meanwhile
            if refusal is None:
                await route.fallback()
            else:
                await route.abort("blockedbyclient")

    async def _socket(self, socket: WebSocketRoute) -> None:
        refusal = await self._refusal(socket.url, origin=True)
        with contextlib.suppress(PlaywrightError):
            if refusal is None:
                socket.connect_to_server()
            else:
                await socket.close(code=1008, reason="blocked")

    def shutdown(self) -> None:
        """Stop judging hops still paused (the routes and sessions go with the
        context; the gate's interface)."""
        for watching in list(self._watching):
            watching.cancel()

    async def close(self) -> None:
        """Nothing to close (the gate's interface)."""
