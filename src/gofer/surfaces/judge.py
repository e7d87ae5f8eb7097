"""A session's address check when its browser is remote.

A remote Chromium cannot reach the :class:`~gofer.surfaces.gate.Gate` on this machine's
loopback, so a session there (the operator's ``--browser-endpoint``) has its requests
judged before the remote sends them: Playwright holds each request (and each page
WebSocket) of the context until :class:`Judge` lets it go on, or refuses a host that
resolves to a loopback, link-local, private or metadata address (``BLOCKED_ADDRESS``)
unless the operator allows those, and a WebSocket outside the session's origins
(``BLOCKED_ORIGIN``; the surface's own route judges the other requests' origins).
A route never sees a redirect's next hop, so each page's responses also pause on a
DevTools session of the judge's own (``Fetch`` at the response stage): a redirect whose
``Location`` is outside the origins or at a refused address fails there, before the
remote follows it. Unlike the gate it cannot make the remote connect to the very
address it judged: the remote resolves the name again, on its own network.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin

from playwright.async_api import BrowserContext, CDPSession, Page, Route, WebSocketRoute

from gofer.surfaces.addresses import host_port, resolve
from gofer.surfaces.failures import PlaywrightError
from gofer.surfaces.gate import Refusal
from gofer.surfaces.origins import origin_allowed

__all__ = ["VERDICT_TTL_S", "Judge"]

REDIRECTS = frozenset({301, 302, 303, 307, 308})

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
        self._pausing: set[asyncio.Task[None]] = set()
        self._watching: dict[Page, asyncio.Task[None]] = {}

    async def install(self, context: BrowserContext) -> None:
        """Judge every request, redirect hop and page WebSocket of ``context`` from now
        on."""
        if not self.allow_private:
            await context.route("**/*", self._route)
        await context.route_web_socket("**/*", self._socket)
        context.on("page", self._page_opened)
        for page in context.pages:
            await self._watch_hops(page)

    def _page_opened(self, page: Page) -> None:
        self._watching[page] = self._spawn(self._watch_hops(page), "hops")
        page.on("close", lambda closed: self._watching.pop(closed, None))

    async def ready(self, page: Page) -> None:
        """Return once ``page``'s redirect hops are judged (a page the session opens
        itself waits for this before its first navigation)."""
        watching = self._watching.get(page)
        if watching is not None:
            await asyncio.shield(watching)

    def _spawn(self, work: Any, what: str) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work, name=f"gofer-judge-{what}")
        self._pausing.add(task)
        task.add_done_callback(self._pausing.discard)
        return task

    async def _watch_hops(self, page: Page) -> None:
        """Pause each of ``page``'s responses until its redirect, if any, is judged."""
        with contextlib.suppress(PlaywrightError):  # a page closed as it opened
            cdp = await page.context.new_cdp_session(page)
            cdp.on("Fetch.requestPaused", lambda paused: self._spawn(self._hop(cdp, paused), "hop"))
            await cdp.send(
                "Fetch.enable", {"patterns": [{"urlPattern": "*", "requestStage": "Response"}]}
            )

    async def _hop(self, cdp: CDPSession, paused: dict[str, Any]) -> None:
        refusal = None
        if paused.get("responseStatusCode") in REDIRECTS:
            headers = paused.get("responseHeaders") or []
            to = next((h["value"] for h in headers if h["name"].lower() == "location"), None)
            if to:
                refusal = await self._refusal(urljoin(paused["request"]["url"], to), origin=True)
        with contextlib.suppress(PlaywrightError):  # the page may be gone meanwhile
            if refusal is None:
                await cdp.send("Fetch.continueRequest", {"requestId": paused["requestId"]})
            else:
                await cdp.send(
                    "Fetch.failRequest",
                    {"requestId": paused["requestId"], "errorReason": "BlockedByClient"},
                )

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
        """Stop judging (the gate's interface): the routes and DevTools sessions go with
        the context, the judgements under way here end."""
        for task in list(self._pausing):
            task.cancel()

    async def close(self) -> None:
        """Nothing to close (the gate's interface)."""
