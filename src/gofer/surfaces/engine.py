"""One Chromium shared by many browser sessions, each in its own browser context."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import shutil
from dataclasses import dataclass
from types import TracebackType

from playwright.async_api import Browser, Playwright, async_playwright

from gofer.errors import SurfaceError
from gofer.surfaces import scripts as js
from gofer.surfaces.browser import BrowserSurface
from gofer.surfaces.chromium import LaunchPlan, find_chromium, launch_plan
from gofer.surfaces.failures import PlaywrightError, playwright_errors
from gofer.surfaces.gate import Gate
from gofer.surfaces.judge import Judge
from gofer.surfaces.origins import parse_origin
from gofer.surfaces.policy import BrowserPolicy
from gofer.surfaces.remote import RemoteBrowser
from gofer.surfaces.settling import QUIET_MS, TYPE_DELAY_MS

__all__ = ["BrowserEngine", "BrowserOptions"]


@functools.cache
def _freeze_once() -> None:
    """Leave what the process holds by its first browser (its modules, Playwright's, some
    200,000 objects) out of the cyclic collector's passes from then on: they live as long
    as the process, and a full pass over them took a quarter of a second in the middle
    of a booking."""
    gc.collect()
    gc.freeze()


@dataclass(frozen=True, slots=True)
class BrowserOptions:
    """How one browser session is set up.

    ``origins`` confines the session to those sites (see :mod:`gofer.surfaces.origins`);
    ``browser_endpoint`` attaches to a running Chrome over CDP instead of launching;
    ``executable`` and ``headed`` choose the launched browser (the engine's by default).
    ``quiet_ms`` is how long the DOM must stay still after an action to count as
    settled; ``type_delay_ms`` spaces the keys typed into comboboxes.
    """

    executable: str | None = None
    headed: bool = False
    origins: tuple[str, ...] = ()
    browser_endpoint: str | None = None
    viewport: tuple[int, int] = (1280, 800)
    default_timeout_ms: int = 10_000
    quiet_ms: int = QUIET_MS
    type_delay_ms: int = TYPE_DELAY_MS


class BrowserEngine:
    """Launches Chromium lazily, on the first session, and shares it among sessions.

    Use as ``async with BrowserEngine() as engine: surface = await engine.new_session()``.
    Every session gets a browser context of its own, so sessions never share cookies.
    ``policy`` is the operator's (:class:`BrowserPolicy`): by default private addresses
    are refused, no DevTools endpoint may be attached to, and the sandbox stays on.
    A session confined to origins, or barred from private addresses, gets its own
    :class:`~gofer.surfaces.gate.Gate`, through which all its traffic goes.

    With ``policy.remote`` no browser is launched: every session gets a fresh context
    of its own (never the remote's default one) in the operator's remote Chromium, over
    one DevTools connection (:class:`~gofer.surfaces.remote.RemoteBrowser`), made again
    when it drops. A remote browser cannot reach the gate on this machine's loopback,
    so there the session judges each request itself before the remote sends it
    (origins, and private addresses unless allowed; :class:`~gofer.surfaces.judge.Judge`).
    """

    def __init__(
        self,
        executable: str | None = None,
        headed: bool = False,
        *,
        policy: BrowserPolicy | None = None,
    ) -> None:
        self.executable = executable
        self.headed = headed
        self.policy = policy or BrowserPolicy()
        self.launched: LaunchPlan | None = None
        """How the latest browser was launched (None before the first)."""
        self._pw: Playwright | None = None
        self._browsers: dict[tuple[str, bool], Browser] = {}
        self._sessions: set[BrowserSurface] = set()
        self._lock = asyncio.Lock()
        self._closed = False
        self._workdirs: list[str] = []
        self.remote = RemoteBrowser(self.policy.remote) if self.policy.remote else None
        """The operator's remote browser, when every session runs there."""

    async def __aenter__(self) -> BrowserEngine:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def _playwright(self) -> Playwright:
        if self._closed:
            raise SurfaceError("the browser engine is closed", code="ENGINE_CLOSED")
        if self._pw is None:
            _freeze_once()
            pw = await async_playwright().start()
            # every context made from here on finds a ref's element in Playwright's world
            await pw.selectors.register(js.REF_SELECTOR, script=js.REF_ENGINE, content_script=True)
            self._pw = pw
        return self._pw

    async def _browser(self, executable: str | None, headed: bool) -> Browser:
        path = find_chromium(executable or self.executable, headless=not headed)
        key = (path, headed)
        async with self._lock:
            browser = self._browsers.get(key)
            if browser is not None and browser.is_connected():
                return browser
            pw = await self._playwright()
            plan = launch_plan(path, self.policy)
            with playwright_errors(
                f"could not launch the browser at {path}",
                show_reason=False,
                code="BROWSER_LAUNCH_FAILED",
                path=path,
            ):
                browser = await pw.chromium.launch(
                    executable_path=plan.executable,
                    headless=not headed,
                    args=list(plan.args),
                    chromium_sandbox=plan.sandbox,
                    downloads_path=plan.downloads,
                )
            self.launched = plan
            if plan.workdir is not None:
                self._workdirs.append(plan.workdir)
            self._browsers[key] = browser
            return browser

    async def new_session(self, options: BrowserOptions | None = None) -> BrowserSurface:
        """A fresh session (own context, own cookies) on the shared or an attached browser."""
        opts = options or BrowserOptions()
        for origin in opts.origins:
            parse_origin(origin)
        attached: Browser | None = None
        if opts.browser_endpoint and not self.policy.endpoint_allowed(opts.browser_endpoint):
            raise SurfaceError(
                "this server does not let tasks attach to the browser at "
                f"{opts.browser_endpoint} (the operator's GOFER_BROWSER_ENDPOINTS)",
                code="BROWSER_ENDPOINT_REFUSED",
                endpoint=opts.browser_endpoint,
            )
        if opts.browser_endpoint:
            async with self._lock:
                pw = await self._playwright()
            with playwright_errors(
                f"could not attach to the browser at {opts.browser_endpoint}",
                show_reason=False,
                code="BROWSER_ATTACH_FAILED",
                endpoint=opts.browser_endpoint,
            ):
                attached = await pw.chromium.connect_over_cdp(
                    opts.browser_endpoint, timeout=opts.default_timeout_ms
                )
            browser = attached
        elif self.remote is not None:
            async with self._lock:
                browser = await self.remote.browser(await self._playwright())
        else:
            browser = await self._browser(opts.executable, opts.headed or self.headed)
        width, height = opts.viewport
        gate: Gate | Judge | None = None
        if attached is None and self.remote is not None:
            if opts.origins or not self.policy.allow_private:
                gate = Judge(opts.origins, self.policy.allow_private)
        elif attached is None and (opts.origins or not self.policy.allow_private):
            gate = Gate(opts.origins, self.policy.allow_private)
        try:
            proxy = {"server": await gate.start()} if isinstance(gate, Gate) else None
            with playwright_errors("could not open a browser session", code="SESSION_FAILED"):
                context = await browser.new_context(
                    viewport={"width": width, "height": height},
                    service_workers="block",
                    accept_downloads=True,
                    proxy=proxy,  # type: ignore[arg-type]
                )
            if isinstance(gate, Judge):
                try:
                    with playwright_errors("could not judge the session", code="SESSION_FAILED"):
                        await gate.install(context)
                except BaseException:
                    with contextlib.suppress(PlaywrightError):
                        await context.close()
                    raise
        except BaseException:
            if gate is not None:
                await gate.close()
            raise
        surface = BrowserSurface(
            context,
            opts.origins,
            opts.default_timeout_ms,
            attached_browser=attached,
            on_close=self._sessions.discard,
            quiet_ms=opts.quiet_ms,
            type_delay_ms=opts.type_delay_ms,
            allow_private=self.policy.allow_private,
            gate=gate,
        )
        self._sessions.add(surface)
        try:
            with playwright_errors("could not open a browser session", code="SESSION_FAILED"):
                await surface.start()
                if isinstance(gate, Judge):
                    await gate.ready(surface.page)
        except BaseException:
            await surface.close()
            raise
        return surface

    async def aclose(self) -> None:
        """Close every session, the launched browsers and Playwright (idempotent)."""
        if self._closed:
            return
        self._closed = True
        for surface in list(self._sessions):
            await surface.close()
        for browser in self._browsers.values():
            if browser.is_connected():
                await browser.close()
        self._browsers.clear()
        if self.remote is not None:
            await self.remote.aclose()
        if self._pw is not None:
            await self._pw.stop()
            self._pw = None
        for workdir in self._workdirs:
            shutil.rmtree(workdir, ignore_errors=True)
