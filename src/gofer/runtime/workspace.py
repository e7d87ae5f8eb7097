"""A workspace: the surfaces one task runs on, created on first use.

Each workspace gets its own browser context from a shared :class:`BrowserEngine`,
so tasks never share cookies. Runs of one task share its workspace: a resumed
task picks up on the page the last run left.
"""

from __future__ import annotations

from collections.abc import Sequence

from gofer.errors import SurfaceError
from gofer.runtime.types import Masker
from gofer.surfaces import BrowserEngine, BrowserOptions, BrowserSurface, Surface
from gofer.surfaces.desktop import DesktopSurface, SessionOptions


class Workspace:
    """The surfaces one task may act on. Use ``async with`` or call :meth:`close`."""

    def __init__(
        self,
        engine: BrowserEngine | None,
        options: BrowserOptions,
        *,
        surfaces: Sequence[str] = ("browser",),
    ) -> None:
        self._engine = engine
        self.options = options
        self.surfaces = tuple(surfaces)
        self.desktop_options = SessionOptions()
        self._browser: Surface | None = None
        self._desktop: DesktopSurface | None = None
        self._closed = False
        self._preloaded: tuple[str, str] | None = None

    @classmethod
    def on(cls, surface: Surface) -> Workspace:
        """A workspace over a surface the caller made (a fake one in tests): it opens
        no other, and closing the workspace closes ``surface``."""
        workspace = cls(None, BrowserOptions())
        workspace._browser = surface
        return workspace

    @property
    def has_browser(self) -> bool:
        """Whether a browser session is open now."""
        return self._browser is not None

    @property
    def open_browser(self) -> Surface | None:
        """The browser session if it is open and has a page, else None (opens none)."""
        browser = self._browser
        if browser is None or browser.closed or browser.pages == 0:
            return None
        return browser

    async def browser(self) -> Surface:
        """The task's browser session, opened on first use."""
        if self._closed:
            raise SurfaceError("the workspace is closed", code="WORKSPACE_CLOSED")
        if "browser" not in self.surfaces:
            raise SurfaceError(
                "this task may not use the browser (constraints.surfaces)",
                code="SURFACE_NOT_ALLOWED",
            )
        if self._browser is not None and (self._browser.closed or self._browser.pages == 0):
            # The session lost its last page (a crash, or the site closed its window):
            # a resumed run starts over in a new one rather than failing for good.
            stale, self._browser = self._browser, None
            await stale.close()
        if self._browser is None:
            if self._engine is None:
                raise SurfaceError("no browser is available", code="SURFACE_UNAVAILABLE")
            self._browser = await self._engine.new_session(self.options)
        return self._browser

    @property
    def has_desktop(self) -> bool:
        """Whether a desktop is running now."""
        return self._desktop is not None and not self._desktop.closed

    async def desktop(self) -> DesktopSurface:
        """The task's virtual desktop, started on first use (SURFACE_NOT_ALLOWED when the
        task is confined to the browser)."""
        if self._closed:
            raise SurfaceError("the workspace is closed", code="WORKSPACE_CLOSED")
        if "desktop" not in self.surfaces:
            raise SurfaceError(
                "this task may not use the desktop (constraints.surfaces)",
                code="SURFACE_NOT_ALLOWED",
            )
        if self._desktop is None or self._desktop.closed:
            self._desktop = await DesktopSurface.start(self.desktop_options)
        return self._desktop

    async def preload(self, address: str) -> None:
        """Load ``address`` ahead of the first run (while its flow is planned), so that
        a first ``browse`` there finds it loaded and loads nothing."""
        browser = await self.browser()
        await browser.goto(address)
        self._preloaded = (address, browser.url)

    def take_preloaded(self) -> str | None:
        """The address :meth:`preload` loaded, once, while the page is still on it; the
        first run takes it (anything that reads the page first spends it)."""
        preloaded, self._preloaded = self._preloaded, None
        if preloaded is None or self._browser is None or self._browser.url != preloaded[1]:
            return None
        return preloaded[0]

    async def screenshot(self, mask: Masker | None = None) -> bytes | None:
        """A PNG of the browser page (else of the desktop), or None when neither is open;
        the page's fields painted over, and its texts ``mask`` changes (its secrets)."""
        if self._browser is None:
            if self.has_desktop and self._desktop is not None:
                return await self._desktop.screenshot()
            return None
        if isinstance(self._browser, BrowserSurface):
            return await self._browser.screenshot(hide_text=mask)
        return await self._browser.screenshot()

    async def close(self) -> None:
        """Release every surface. Idempotent."""
        self._closed = True
        browser, self._browser = self._browser, None
        desktop, self._desktop = self._desktop, None
        if browser is not None:
            await browser.close()
        if desktop is not None:
            await desktop.close()

    async def __aenter__(self) -> Workspace:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
