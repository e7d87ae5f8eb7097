"""A desktop task end to end through the controller: confined to the desktop, it opens a
real application, stops in front of an irreversible menu item for approval, and while it
waits its owner takes the desktop over (the display's picture); another owner cannot.

Real ``Tasks`` over the real ``WorkspaceRunner``, a SQLite store, no browser at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gofer.errors import GoferError
from gofer.runtime import RuntimeSettings
from gofer.surfaces.desktop import desktop_available
from gofer.surfaces.live import LiveFrame
from gofer.tasks import Tasks, WorkspaceRunner
from gofer.wiring import store_for

AVAILABLE, MISSING = desktop_available()
pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"no desktop here: {MISSING}")

SETTINGS = RuntimeSettings(target_timeout_ms=3_000, settle_timeout_ms=5_000, wait_timeout_ms=5_000)


async def test_a_desktop_task_waits_for_approval_and_its_owner_takes_over(
    tmp_path: Path,
) -> None:
    flow = [{"open": "Mousepad"}, {"click": "Edit"}, {"stop_before": "Delete Line"}]
    async with (
        store_for(str(tmp_path / "gofer.db")) as db,
        WorkspaceRunner(settings=SETTINGS, chromium="/nonexistent/chromium") as runner,
        Tasks(runner, store=db) as tasks,
    ):
        view = await tasks.start_task({"flow": flow, "constraints": {"surfaces": ["desktop"]}})
        stopped = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        assert stopped.status.state == "needs_approval", stopped.status
        with pytest.raises(GoferError) as refused:
            await tasks.for_owner("someone-else").live_view(view.id)
        assert refused.value.code == "UNKNOWN_TASK"
        async with await tasks.live_view(view.id) as live:
            frame = await anext(live.frames())
            assert isinstance(frame, LiveFrame) and frame.data.startswith(b"\x89PNG")
        await tasks.cancel_task({"id": view.id})
