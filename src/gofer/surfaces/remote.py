"""The operator's remote Chromium: one DevTools connection a process shares among all its
sessions, made again after it drops.

An operator who runs browsers elsewhere (a fleet behind a Chrome DevTools endpoint)
names it once for the process (``gofer serve|worker --browser-endpoint``,
``GOFER_BROWSER_ENDPOINT``). The connection is made on the first session that needs a
browser; when the endpoint drops it (Playwright's ``disconnected``), the sessions on
it lose their pages as they would in a crashed local Chromium, and the next session
connects again: up to :data:`CONNECT_ATTEMPTS` tries, :data:`FIRST_BACKOFF_S` apart
and doubling.
"""

from __future__ import annotations

import asyncio
import logging
import re

from playwright.async_api import Browser, Playwright

from gofer.errors import SurfaceError
from gofer.surfaces.failures import PlaywrightError, reason_of
from gofer.surfaces.policy import check_endpoint, shown

__all__ = ["CONNECT_ATTEMPTS", "FIRST_BACKOFF_S", "RemoteBrowser"]

log = logging.getLogger("gofer.surfaces")

CONNECT_ATTEMPTS = 4
"""Tries to reach the remote browser before a session gives up."""
FIRST_BACKOFF_S = 0.5
"""The wait after the first failed try; each later wait doubles."""
CONNECT_TIMEOUT_MS = 15_000
"""Longest one try may take."""
_CREDENTIALS = re.compile(r"(?<=://)[^/@\s]*@|\?\S*")


class RemoteBrowser:
    """The connection to the browser at ``endpoint``; :meth:`browser` gives the live one.

    Callers serialize :meth:`browser` (the engine's lock), so one connection is made at a
    time and every session waiting shares it.
    """

    def __init__(
        self,
        endpoint: str,
        *,
        attempts: int = CONNECT_ATTEMPTS,
        backoff_s: float = FIRST_BACKOFF_S,
        timeout_ms: int = CONNECT_TIMEOUT_MS,
    ) -> None:
        self.endpoint = check_endpoint(endpoint)
        self.attempts = attempts
        self.backoff_s = backoff_s
        self.timeout_ms = timeout_ms
        self.connections = 0
        """How many connections were made (the first, then one per reconnection)."""
        self._browser: Browser | None = None

    async def browser(self, pw: Playwright) -> Browser:
        """The connected browser, connecting (again) when there is none."""
        current = self._browser
        if current is not None and current.is_connected():
            return current
        self._browser = None
        where = shown(self.endpoint)
        wait = self.backoff_s
        for attempt in range(1, self.attempts + 1):
            try:
                # no_defaults: the remote's default context (and any page other clients
                # keep there) is left exactly as it is
                browser = await pw.chromium.connect_over_cdp(
                    self.endpoint, timeout=self.timeout_ms, no_defaults=True
                )
            except PlaywrightError as err:
                if attempt == self.attempts:
                    raise SurfaceError(
                        f"could not reach the remote browser at {where} ({self.attempts} tries)",
                        code="BROWSER_ATTACH_FAILED",
                        endpoint=where,
                        reason=self._reason(err),
                    ) from err
                log.warning(
                    "the remote browser at %s did not answer (try %d of %d: %s); trying "
                    "again in %.1f s",
                    where,
                    attempt,
                    self.attempts,
                    self._reason(err),
                    wait,
                )
                await asyncio.sleep(wait)
                wait *= 2
                continue
            self.connections += 1
            browser.on("disconnected", self._lost)
            self._browser = browser
            log.info("connected to the remote browser at %s", where)
            return browser
        raise AssertionError("unreachable")  # pragma: no cover

    def _reason(self, err: PlaywrightError) -> str:
        """Playwright's reason, with no address in it that could carry a credential."""
        reason = reason_of(err).replace(self.endpoint, shown(self.endpoint))
        return _CREDENTIALS.sub("…", reason)

    def _lost(self, browser: Browser) -> None:
        if self._browser is browser:
            self._browser = None
            log.warning(
                "the remote browser at %s dropped the connection; the next session connects again",
                shown(self.endpoint),
            )

    async def aclose(self) -> None:
        """Disconnect (the remote browser keeps running; the contexts made here go)."""
        browser, self._browser = self._browser, None
        if browser is not None and browser.is_connected():
            try:
                await browser.close()
            except PlaywrightError as err:
                log.info("the remote browser was already gone (%s)", reason_of(err))
