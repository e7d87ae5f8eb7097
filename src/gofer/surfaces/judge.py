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
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from playwright.async_api import BrowserContext, Route, WebSocketRoute

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

    async def install(self, context: BrowserContext) -> None:
        """Judge every request and page WebSocket of ``context`` from now on."""
        if not self.allow_private:
            await context.route("**/*", self._route)
        await context.route_web_socket("**/*", self._socket)

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
        """Nothing to stop: the routes go with the context (the gate's interface)."""

    async def close(self) -> None:
        """Nothing to close (the gate's interface)."""
