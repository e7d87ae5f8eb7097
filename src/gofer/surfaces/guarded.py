"""The origins a browser session keeps to: navigations, requests and landings outside
them (or refused by the session's gate) are blocked, and said so."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque

from playwright.async_api import Page

from gofer.errors import BlockedOrigin, SurfaceError
from gofer.surfaces.addresses import blocked_address, host_port, top_level_refusal
from gofer.surfaces.failures import PlaywrightError
from gofer.surfaces.gate import Refusal
from gofer.surfaces.origins import origin_allowed
from gofer.surfaces.settling import Settling

__all__ = ["KEPT", "Guarded"]

KEPT = 100
"""How many refused addresses a session keeps (the latest)."""
_LANDINGS = ("about", "chrome-error")


async def _leave(page: Page) -> None:
    with contextlib.suppress(PlaywrightError):
        await page.goto("about:blank")


async def _close(page: Page) -> None:
    with contextlib.suppress(PlaywrightError):
        await page.close()


class Guarded(Settling):
    """A session's guard of its origins (the state is made by the session itself)."""

    origins: tuple[str, ...]
    blocked: list[str]
    _blocked_navigations: int
    _navigation_blocked: SurfaceError | None
    _nav_requests: deque[tuple[int, str, int]]
    _refusals: deque[tuple[int, Refusal]]
    _nav_count: int
    _refusal_count: int
    _leaving: set[asyncio.Task[None]]

    def _blocked_error(self, url: str) -> BlockedOrigin:
        return BlockedOrigin(f"blocked by origins: {url}", url=url, origins=list(self.origins))

    def _check_here(self) -> None:
        """Typing happens only on a page inside the origins (a secret never goes to a page
        a redirect or a script moved the task to)."""
        url = self.page.url
        if not origin_allowed(url, self.origins):
            raise self._blocked_error(url)

    def _note_blocked(self, url: str) -> None:
        self.blocked.append(url)
        del self.blocked[:-KEPT]

    def _block_navigation(self, error: SurfaceError) -> None:
        self._blocked_navigations += 1
        self._navigation_blocked = error

    def _navigation_requested(self, url: str) -> None:
        """A main-frame navigation (any hop of a redirect) asked for ``url``: outside the
        origins it is blocked; one the gate refused (or refuses next) is too."""
        if not origin_allowed(url, self.origins):
            self._note_blocked(url)
            self._block_navigation(self._blocked_error(url))
            return
        where = host_port(url)
        if where is None:
            return
        self._nav_count += 1
        self._nav_requests.append((self._nav_count, *where))
        for _, refusal in self._refusals:
            if (refusal.host, refusal.port) == where:
                self._block_navigation(self._refusal_error(url, refusal))

    def _refused(self, refusal: Refusal) -> None:
        """The gate refused a request: a navigation's, if one asked for that host."""
        self._refusal_count += 1
        self._refusals.append((self._refusal_count, refusal))
        self._note_blocked(refusal.url)
        for _, host, port in self._nav_requests:
            if (refusal.host, refusal.port) == (host, port):
                self._block_navigation(self._refusal_error(refusal.url, refusal))
                break

    def _refusal_error(self, url: str, refusal: Refusal) -> SurfaceError:
        if refusal.code == "BLOCKED_ORIGIN":
            return self._blocked_error(url)
        return blocked_address(url, refusal.why)

    def _empty_tab(self, page: Page) -> bool:
        """Whether ``page`` is a new tab whose document never came (the browser
        downloaded it); then it is closed, as a person's browser closes it, and never
        becomes the page the session acts on."""
        if page.url or not any(not p.is_closed() for p in self._pages):
            return False
        task = asyncio.get_running_loop().create_task(_close(page))
        self._leaving.add(task)
        task.add_done_callback(self._leaving.discard)
        return True

    def _check_landing(self, page: Page, url: str) -> None:
        """A page that landed on an address no page may be (a ``data:``, ``blob:`` or
        ``file:`` document, or outside the origins) is sent to a blank page. A page with
        no address holds nothing (a new tab whose document the browser downloaded)."""
        scheme = url.split(":", 1)[0].lower()
        if not url or scheme in _LANDINGS:
            return
        if scheme in ("http", "https"):
            if origin_allowed(url, self.origins):
                return
            error: SurfaceError = self._blocked_error(url)
        else:
            error = blocked_address(url, top_level_refusal(url) or "it is not a web page")
        self._note_blocked(url)
        self._block_navigation(error)
        task = asyncio.get_running_loop().create_task(_leave(page))
        self._leaving.add(task)
        task.add_done_callback(self._leaving.discard)
