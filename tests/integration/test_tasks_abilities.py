"""A turn is run only by a process that can run it (issue 29, item 7), on one SQLite
file shared by controllers with different passes: a plain-language task started where
a planner is configured waits for a worker with a planner, and is never ended ``done``
with no flow by one without; a turn that reaches a process with no planner and no
flow (one written before turns carried their needs) fails with PLANNER_UNAVAILABLE.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

from gofer.flow import Flow, parse_flow
from gofer.models import CallMeter
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.contract import NeedsApproval
from gofer.tasks.seams import PlanBrief, WorkspaceOptions
from gofer.tasks.testing import gate
from gofer.wiring import store_for


class Planner:
    def __init__(self, flow: list[dict[str, Any]]) -> None:
        self.flow = flow
        self.briefs: list[PlanBrief] = []

    async def plan(self, brief: PlanBrief, meter: CallMeter | None = None) -> Flow:
        self.briefs.append(brief)
        return parse_flow(self.flow)


FLOW = [{"browse": "https://a.example/"}, {"click": "Go"}]


async def test_a_planned_task_waits_for_a_process_with_a_planner(tmp_path: Path) -> None:
    path = str(tmp_path / "gofer.db")
    planner = Planner(FLOW)
    async with (
        store_for(path) as starter_db,
        store_for(path) as bare_db,
        Tasks(ScriptedRunner(), planner=planner, store=starter_db, work=False) as starter,
        Tasks(ScriptedRunner(), store=bare_db) as bare,
    ):
        bare.worker.start()
        view = await starter.start_task({"task": "click Go on a.example"})
        waited = await starter.await_task({"id": view.id, "timeout_ms": 1500})
        assert waited.status.state == "running", waited.status
        assert planner.briefs == []
        async with (
            store_for(path) as able_db,
            Tasks(ScriptedRunner(), planner=planner, store=able_db) as able,
        ):
            able.worker.start()
            done = await starter.await_task({"id": view.id, "timeout_ms": 10_000})
        assert done.status.state == "done", done.status
        assert len(planner.briefs) == 1
        report = await starter.task_report({"id": view.id})
        assert report.flow is not None and len(report.flow["steps"]) == 2


async def test_a_turn_with_no_flow_and_no_planner_fails_loudly(tmp_path: Path) -> None:
    path = str(tmp_path / "gofer.db")
    async with (
        store_for(path) as starter_db,
        Tasks(ScriptedRunner(), planner=Planner(FLOW), store=starter_db, work=False) as starter,
    ):
        view = await starter.start_task({"task": "click Go on a.example"})
    with sqlite3.connect(path) as raw:  # as a turn written before turns carried needs
        [(payload,)] = raw.execute("SELECT payload FROM work_items").fetchall()
        old = {k: v for k, v in json.loads(payload).items() if k != "needs"}
        raw.execute("UPDATE work_items SET payload = ?", (json.dumps(old),))
    async with store_for(path) as bare_db, Tasks(ScriptedRunner(), store=bare_db) as bare:
        bare.worker.start()
        ended = await bare.await_task({"id": view.id, "timeout_ms": 10_000})
    assert ended.status.state == "failed", ended.status
    assert "PLANNER_UNAVAILABLE" in ended.model_dump_json()


class SlowToOpen(ScriptedRunner):
    """Opens a page in a fresh browser in the time a real one takes."""

    async def open_page(self, task_id: str, options: WorkspaceOptions, address: str) -> None:
        await asyncio.sleep(0.3)
        await super().open_page(task_id, options, address)


async def test_a_turn_that_starts_over_in_a_fresh_browser_says_so(tmp_path: Path) -> None:
    path = str(tmp_path / "gofer.db")
    flow = [
        {"browse": "https://site.example.com/account"},
        {"stop_before": "deleting the account"},
        {"click": "Delete account"},
    ]
    first = ScriptedRunner()
    first.add(gate("1", "Delete account", url="https://site.example.com/account/delete"))
    async with store_for(path) as db, Tasks(first, store=db) as holder:
        view = await holder.start_task({"flow": flow})
        asking = await holder.await_task({"id": view.id, "timeout_ms": 10_000})
    assert isinstance(asking.status, NeedsApproval), asking.status
    # The process that held its browser is gone: the next turn runs in a fresh one.
    fresh = SlowToOpen()
    async with store_for(path) as db, Tasks(fresh, store=db) as other:
        approval = {"approve": True, "approval_id": asking.status.approval_id}
        await other.continue_task({"id": view.id, **approval})
        done = await other.await_task({"id": view.id, "timeout_ms": 10_000})
    with sqlite3.connect(path) as raw:
        rows = raw.execute(
            "SELECT data FROM task_events WHERE task_id = ? AND kind = 'view' ORDER BY seq",
            (view.id,),
        ).fetchall()
    seen = [json.loads(data)["view"]["summary"] for (data,) in rows]
    assert done.status.state == "done", done.status
    assert fresh.preloaded == [(view.id, "https://site.example.com/account/delete")]
    assert any(s.startswith("Starting over in a fresh browser") for s in seen), seen
