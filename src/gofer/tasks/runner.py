"""The runner seam: how the controller gets a flow run on a task's workspace.

:class:`FlowRunner` is what the controller needs. The real runner (one browser
session and workspace per task) sits beside the runtime it drives
(:class:`gofer.runtime.workspace_runner.WorkspaceRunner`); its scripted fake, for
tests and for the worked examples ``describe`` returns, is
:class:`gofer.tasks.testing.ScriptedRunner`.
"""

from __future__ import annotations

from typing import Protocol

from gofer.runtime.types import RunRequest, RunResult, WorkspaceOptions
from gofer.surfaces.live import LiveOptions, LiveView
from gofer.surfaces.screen import Screen

__all__ = ["FlowRunner", "WorkspaceOptions"]


class FlowRunner(Protocol):
    """Runs flows on per-task workspaces."""

    async def run(self, task_id: str, request: RunRequest, options: WorkspaceOptions) -> RunResult:
        """Run ``request`` on the task's workspace, making it on first use.

        Runs of one task share the workspace, so a later run starts on the page the
        last one left. Cancelling the call cancels the run.
        """
        ...

    async def prepare(self, task_id: str, options: WorkspaceOptions) -> None:
        """Make the task's workspace and open its browser ahead of the first run (while
        its flow is planned), so the first step does not wait for the browser."""
        ...

    async def open_page(self, task_id: str, options: WorkspaceOptions, address: str) -> None:
        """Load ``address`` in the task's browser ahead of the first run, so that a first
        ``browse`` there loads nothing again."""
        ...

    async def screenshot(self, task_id: str) -> bytes | None:
        """A PNG of the task's workspace as it is now, or None (best effort)."""
        ...

    async def release(self, task_id: str) -> None:
        """Close the task's workspace, if it has one (idempotent)."""
        ...

    def holds(self, task_id: str) -> bool:
        """Whether the task's workspace is open here (made and not yet released)."""
        ...

    async def live(self, task_id: str, options: LiveOptions | None = None) -> LiveView | None:
        """A person's live view of the task's open browser page, or None when the task
        holds no browser here (SurfaceError LIVE_UNSUPPORTED for a surface no one can
        take over)."""
        ...

    async def screen(self, task_id: str) -> Screen | None:
        """The task's open browser page read as the grounder reads it (values unmasked:
        for matching a person's actions in memory, never shown), or None without one."""
        ...

    async def address(self, task_id: str) -> str | None:
        """The address the task's browser is on, for the task's journal (None without a
        browser): a later run on a worker without it opens that page first."""
        ...

    def available_surfaces(self) -> dict[str, str | None]:
        """Each surface with None when it can be used, else the reason it cannot."""
        ...

    def endpoint_allowed(self, endpoint: str) -> bool:
        """Whether a task may attach to the browser at ``endpoint`` (``constraints.
        browser_endpoint``): the operator's allow-list decides."""
        ...
