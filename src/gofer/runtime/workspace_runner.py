"""The real runner of tasks' flows (the :class:`gofer.tasks.seams.FlowRunner` seam):
one workspace (own browser context) per task.

It runs each flow with :func:`gofer.runtime.run_flow` on the task's workspace,
which it opens on first use and keeps until the controller releases it, so a
resumed task picks up on the page its last run left. While a task holds its
workspace, :meth:`WorkspaceRunner.page_for` hands its page to a person (or a test)
who must act there: clear a captcha, type a one-time code, sign in.
"""

from __future__ import annotations

import logging

from gofer.errors import SurfaceError
from gofer.runtime.run import RuntimeSettings, run_flow
from gofer.runtime.types import Masker, ModelDecider, RunRequest, RunResult, WorkspaceOptions
from gofer.runtime.workspace import Workspace
from gofer.surfaces import (
    BrowserEngine,
    BrowserOptions,
    BrowserPage,
    BrowserPolicy,
    BrowserSurface,
    LiveOptions,
    LiveSurface,
    LiveView,
    chromium_available,
)
from gofer.surfaces.closing import close_fully
from gofer.surfaces.desktop import desktop_available
from gofer.surfaces.live import live_unsupported
from gofer.surfaces.screen import Screen

__all__ = ["WorkspaceRunner"]

log = logging.getLogger("gofer.runtime")


class WorkspaceRunner:
    """Runs task flows in a real browser. Use ``async with`` or call :meth:`aclose`.

    ``engine`` shares a :class:`BrowserEngine` the caller owns (and closes); without
    one the runner launches its own, under the operator's ``policy`` (private addresses
    refused by default), and closes it in :meth:`aclose`.
    """

    def __init__(
        self,
        *,
        chromium: str | None = None,
        settings: RuntimeSettings | None = None,
        decider: ModelDecider | None = None,
        engine: BrowserEngine | None = None,
        policy: BrowserPolicy | None = None,
    ) -> None:
        self._chromium = chromium
        self._settings = settings or RuntimeSettings()
        self._decider = decider
        self._owns_engine = engine is None
        self._engine = (
            engine if engine is not None else BrowserEngine(executable=chromium, policy=policy)
        )
        self._workspaces: dict[str, Workspace] = {}
        self._closed = False

    @property
    def policy(self) -> BrowserPolicy:
        """The operator's browser policy this runner's engine keeps."""
        return self._engine.policy

    def endpoint_allowed(self, endpoint: str) -> bool:
        """Whether a task may attach to the browser at ``endpoint`` (the operator's list)."""
        return self._engine.policy.endpoint_allowed(endpoint)

    def available_surfaces(self) -> dict[str, str | None]:
        """The browser when Chromium is found (or the operator's remote browser is named);
        the desktop when Xvfb, the AT-SPI bus and PyGObject are (else, for each, what is
        missing)."""
        ok, reason = (True, "") if self.policy.remote else chromium_available(self._chromium)
        desktop_ok, desktop_reason = desktop_available()
        return {
            "browser": None if ok else reason,
            "desktop": None if desktop_ok else desktop_reason,
        }

    def _workspace(self, task_id: str, options: WorkspaceOptions) -> Workspace:
        workspace = self._workspaces.get(task_id)
        if workspace is None:
            browser = BrowserOptions(
                executable=self._chromium,
                headed=options.headed,
                origins=tuple(options.origins),
                browser_endpoint=options.browser_endpoint,
            )
            workspace = Workspace(self._engine, browser, surfaces=sorted(options.surfaces))
            self._workspaces[task_id] = workspace
        return workspace

    async def run(self, task_id: str, request: RunRequest, options: WorkspaceOptions) -> RunResult:
        """Run ``request`` on the task's workspace, opening it on first use."""
        if self._closed:
            raise SurfaceError("the runner is closed", code="RUNNER_CLOSED")
        workspace = self._workspace(task_id, options)
        return await run_flow(request, workspace, settings=self._settings, decider=self._decider)

    async def prepare(self, task_id: str, options: WorkspaceOptions) -> None:
        """Open the task's workspace and browser session ahead of its first run."""
        if self._closed:
            raise SurfaceError("the runner is closed", code="RUNNER_CLOSED")
        workspace = self._workspace(task_id, options)
        if "browser" in workspace.surfaces:
            await workspace.browser()

    async def open_page(self, task_id: str, options: WorkspaceOptions, address: str) -> None:
        """Load ``address`` in the task's browser ahead of its first run."""
        if self._closed:
            raise SurfaceError("the runner is closed", code="RUNNER_CLOSED")
        await self._workspace(task_id, options).preload(address)

    def holds(self, task_id: str) -> bool:
        """Whether the task's workspace is open (made and not yet released)."""
        return task_id in self._workspaces

    async def address(self, task_id: str) -> str | None:
        """The address the task's browser is on (None when it has no browser open, or
        its browser lost its pages: reading it opens none)."""
        workspace = self._workspaces.get(task_id)
        browser = workspace.open_browser if workspace is not None else None
        return (browser.url or None) if browser is not None else None

    async def screen(self, task_id: str) -> Screen | None:
        """The task's open browser page, else its desktop, read (None when it holds
        neither)."""
        workspace = self._workspaces.get(task_id)
        if workspace is None:
            return None
        browser = workspace.open_browser
        if browser is not None and not browser.closed:
            return await browser.snapshot()
        if workspace.has_desktop:
            return await (await workspace.desktop()).snapshot()
        return None

    async def page_for(self, task_id: str) -> BrowserPage | None:
        """The page of the task's open browser session, for a person to act on while the
        task waits (``needs_human``, a checkpoint); None when the task holds no session."""
        workspace = self._workspaces.get(task_id)
        if workspace is None or not workspace.has_browser:
            return None
        browser = await workspace.browser()
        return browser.page if isinstance(browser, BrowserSurface) else None

    async def live(self, task_id: str, options: LiveOptions | None = None) -> LiveView | None:
        """A person's live view of the task's open browser page (Chromium's screencast),
        else of its desktop (the display's picture); None when the task holds neither
        here."""
        workspace = self._workspaces.get(task_id)
        if workspace is None:
            return None
        surface: object = workspace.open_browser
        if surface is None and workspace.has_desktop:
            surface = await workspace.desktop()
        if surface is None:
            return None
        if not isinstance(surface, LiveSurface):
            raise live_unsupported(getattr(surface, "kind", "unknown"))
        return await surface.live(options)

    async def screenshot(self, task_id: str, mask: Masker | None = None) -> bytes | None:
        """A PNG of the task's page, or None when it has none or it cannot be taken; any
        text of the page ``mask`` changes (the task's secrets) painted over."""
        workspace = self._workspaces.get(task_id)
        if workspace is None:
            return None
        try:
            return await workspace.screenshot(mask)
        except SurfaceError as exc:
            log.info("no screenshot for %s: %s", task_id, exc.code)
            return None

    async def release(self, task_id: str) -> None:
        """Close the task's workspace (idempotent; to its end, even when cancelled)."""
        workspace = self._workspaces.pop(task_id, None)
        if workspace is not None:
            await close_fully(workspace.close())

    async def aclose(self) -> None:
        """Close every workspace and the browser (idempotent; every one of them, even
        when cancelled half-way: a session left open keeps its proxy's socket)."""
        self._closed = True
        await close_fully(self._close_all())

    async def _close_all(self) -> None:
        for task_id in list(self._workspaces):
            await self.release(task_id)
        if self._owns_engine:
            await self._engine.aclose()

    async def __aenter__(self) -> WorkspaceRunner:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
