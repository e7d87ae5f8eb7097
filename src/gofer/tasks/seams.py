"""The seams a task runs on: the flow runner and the optional model passes.

:class:`FlowRunner` is how a turn gets a flow run on a task's workspace. The real
runner (one browser session and workspace per task) sits beside the runtime it
drives (:class:`gofer.runtime.workspace_runner.WorkspaceRunner`); its scripted fake,
for tests and for the worked examples ``describe`` returns, is
:class:`gofer.tasks.testing.ScriptedRunner`.

The model passes (planner, rescuer, output shaper, decider) are optional: with none
configured, a plain-language task answers ``needs_plan``, failed steps are not
rescued, and ``output`` is refused. Every brief holds fact *names* only, never a
fact's value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TypeAlias

from gofer.flow.steps import Flow, JSONValue
from gofer.models import CallMeter
from gofer.planner.types import PlanBrief
from gofer.rescue.types import Briefing, Guidance
from gofer.runtime.types import Masker, RunRequest, RunResult, WorkspaceOptions
from gofer.shape.types import ShapeBrief
from gofer.surfaces.live import LiveOptions, LiveView
from gofer.surfaces.screen import Screen

__all__ = [
    "Briefing",
    "Decider",
    "FlowRunner",
    "Guidance",
    "PlanBrief",
    "Planner",
    "Rescuer",
    "ShapeBrief",
    "Shaper",
    "WorkspaceOptions",
]


if TYPE_CHECKING:
    from gofer.runtime import ModelDecider


class Planner(Protocol):
    """Turns a plain-language task into a flow. Never acts, never sees the screen."""

    async def plan(self, brief: PlanBrief, meter: CallMeter | None = None) -> Flow:
        """A flow for ``brief.task``, charging each model call to ``meter``; raises a
        GoferError when it cannot make one."""
        ...


class Rescuer(Protocol):
    """Guidance for a failed top-level step of a task (see :mod:`gofer.rescue`)."""

    async def guide(self, briefing: Briefing, meter: CallMeter | None = None) -> Guidance:
        """Judged guidance for ``briefing``; raises a ModelError when none can be had."""
        ...


class Shaper(Protocol):
    """Turns a finished task's raw records into the shape the caller asked for."""

    async def shape(self, brief: ShapeBrief, meter: CallMeter | None = None) -> JSONValue:
        """The result; the controller checks it against ``brief.schema``."""
        ...


Decider: TypeAlias = "ModelDecider"
"""The runtime's model decider; the controller only reports whether one is configured."""


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

    async def screenshot(self, task_id: str, mask: Masker | None = None) -> bytes | None:
        """A PNG of the task's workspace as it is now, or None (best effort); any text of
        the page ``mask`` changes (the task's secrets) painted over."""
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
