"""Waiting, watching, cancelling, closing, the task limit, artifacts and crashes."""

from __future__ import annotations

import asyncio
import logging

import pytest

from gofer.errors import GoferError, SurfaceError
from gofer.runtime.types import Masker, RunRequest, RunResult
from gofer.tasks import ARTIFACT_TTL_S, MAX_TASKS, ScriptedRunner, Tasks, TaskView
from gofer.tasks.testing import complete, gate, hang

FLOW = [{"browse": "https://a.example.com/"}, {"click": "Next"}]


def held(go: asyncio.Event) -> object:
    async def run(request: RunRequest) -> RunResult:
        await go.wait()
        return complete()(request)  # type: ignore[return-value]

    return run


async def test_await_returns_as_soon_as_the_task_stops_not_at_the_timeout() -> None:
    go = asyncio.Event()
    runner = ScriptedRunner.of(held(go))  # type: ignore[arg-type]
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        waiting = asyncio.create_task(tasks.await_task({"id": view.id, "timeout_ms": 10_000}))
        await runner.started.wait()
        await asyncio.sleep(0.05)
        assert not waiting.done()
        loop = asyncio.get_running_loop()
        released = loop.time()
        go.set()
        view = await waiting
        assert loop.time() - released < 5  # half the 10 s it may wait: it woke, not timed out
        assert view.status.state == "done"


async def test_await_returns_the_running_view_when_the_timeout_passes() -> None:
    runner = ScriptedRunner.of(hang())
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        loop = asyncio.get_running_loop()
        started = loop.time()
        view = await tasks.await_task({"id": view.id, "timeout_ms": 60})
        assert loop.time() - started >= 0.05  # it held the 60 ms (a hung task never ends)
        assert view.status.state == "running"
        assert view.step is not None and view.step.kind == "browse"
        assert view.summary == "Running step 1 of 2: load https://a.example.com/."


async def test_a_timeout_past_the_limit_is_accepted_and_cut() -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 10**9})
        assert view.status.state == "done"


async def test_watch_yields_views_as_the_task_moves_until_it_stops() -> None:
    runner = ScriptedRunner.of(gate("1", "Send"), complete(), complete())
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": [*FLOW, {"stop_before": "sending"}]})
        states = [v.status.state async for v in tasks.watch(view.id)]
        assert states[0] == "running"
        assert states[-1] == "needs_approval"
        await tasks.continue_task({"id": view.id, "approve": True})
        seen: list[TaskView] = [v async for v in tasks.watch(view.id)]
        assert next(v.summary for v in seen if v.status.state == "running") == (
            "Pressing the approved control."
        )
        assert seen[-1].status.state == "done"


async def test_cancelling_a_running_task_cancels_the_run_and_releases_the_workspace() -> None:
    started = asyncio.Event()
    runner = ScriptedRunner.of(hang(started))
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        waiting = asyncio.create_task(tasks.await_task({"id": view.id, "timeout_ms": 10_000}))
        await started.wait()
        view = await tasks.cancel_task({"id": view.id})
        assert view.status.state == "cancelled"
        assert view.next == ["task_report"]
        assert (await waiting).status.state == "cancelled"
        assert runner.cancelled == [view.id]
        assert runner.released == [view.id]
        assert await tasks.cancel_task({"id": view.id}) == view
        report = await tasks.task_report({"id": view.id})
        assert len(report.artifacts) == 1


class _SlowShots(ScriptedRunner):
    """A runner whose screenshot takes a while, as a real page's does."""

    async def screenshot(self, task_id: str, mask: Masker | None = None) -> bytes | None:
        await asyncio.sleep(0.02)
        return await super().screenshot(task_id, mask)


async def test_cancelling_a_task_held_at_a_checkpoint_screenshots_it_before_letting_go() -> None:
    runner = _SlowShots.of(gate("1", "Send"), complete())
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": [*FLOW, {"stop_before": "sending"}]})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 10_000})
        assert view.status.state == "needs_approval"
        before = len((await tasks.task_report({"id": view.id})).artifacts)
        view = await tasks.cancel_task({"id": view.id})
        assert view.status.state == "cancelled"
        assert runner.released == [view.id]
        assert len((await tasks.task_report({"id": view.id})).artifacts) == before + 1


async def test_two_cancels_at_once_share_one_cancellation() -> None:
    started = asyncio.Event()
    runner = ScriptedRunner.of(hang(started))
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        await started.wait()
        first, second = await asyncio.gather(
            tasks.cancel_task({"id": view.id}), tasks.cancel_task({"id": view.id})
        )
        assert first.status.state == second.status.state == "cancelled"
        assert runner.released == [view.id]


async def test_closing_cancels_live_work_releases_every_workspace_and_is_idempotent() -> None:
    started = asyncio.Event()
    runner = ScriptedRunner.of(hang(started), gate("1", "Send"))
    tasks = Tasks(runner)
    running = await tasks.start_task({"flow": FLOW})
    await started.wait()
    paused = await tasks.start_task({"flow": [*FLOW, {"stop_before": "sending"}]})
    paused = await tasks.await_task({"id": paused.id, "timeout_ms": 2000})
    assert paused.status.state == "needs_approval"
    await tasks.close()
    await tasks.close()
    assert sorted(runner.released) == sorted([running.id, paused.id])
    assert runner.open == set()
    views = (await tasks.list_tasks()).tasks
    assert [v.status.state for v in views] == ["cancelled", "cancelled"]
    with pytest.raises(GoferError) as caught:
        await tasks.start_task({"flow": FLOW})
    assert caught.value.code == "CLOSED"


async def test_the_33rd_live_task_is_refused_and_finished_ones_make_room() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        waiting = [
            await tasks.start_task({"flow": [{"enter": "${x}", "into": "X"}]})
            for _ in range(MAX_TASKS - 1)
        ]
        finished = await tasks.start_task({"flow": FLOW})
        await tasks.await_task({"id": finished.id, "timeout_ms": 2000})
        assert len((await tasks.list_tasks()).tasks) == MAX_TASKS
        newest = await tasks.start_task({"flow": [{"enter": "${x}", "into": "X"}]})
        with pytest.raises(GoferError) as caught:
            await tasks.task_report({"id": finished.id})
        assert caught.value.code == "UNKNOWN_TASK"
        with pytest.raises(GoferError) as caught:
            await tasks.start_task({"flow": FLOW})
        assert caught.value.code == "TOO_MANY_TASKS"
        await tasks.cancel_task({"id": waiting[0].id})
        again = await tasks.start_task({"flow": FLOW})
        ids = [v.id for v in (await tasks.list_tasks()).tasks]
        assert waiting[0].id not in ids
        assert ids[-2:] == [newest.id, again.id]


async def test_a_report_read_while_a_turn_runs_keeps_the_screenshot_of_its_stop() -> None:
    go = asyncio.Event()

    async def held(request: RunRequest) -> RunResult:
        await go.wait()
        return gate("1", "Send")(request)

    runner = ScriptedRunner.of(held)  # type: ignore[arg-type]
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": [*FLOW, {"stop_before": "sending"}]})
        await runner.started.wait()
        assert (await tasks.task_report({"id": view.id})).artifacts == []
        go.set()
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "needs_approval"
        (artifact,) = (await tasks.task_report({"id": view.id})).artifacts
        assert tasks.read_artifact(view.id, artifact.name) == runner.shot


async def test_artifacts_are_readable_for_five_minutes_then_expire() -> None:
    now = [1_000.0]
    runner = ScriptedRunner.of(gate("1", "Send"))
    async with Tasks(runner, clock=lambda: now[0]) as tasks:
        view = await tasks.start_task({"flow": [*FLOW, {"stop_before": "sending"}]})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert "screenshot" not in view.model_dump_json()
        report = await tasks.task_report({"id": view.id})
        (artifact,) = report.artifacts
        assert artifact.expires_at == 1_000.0 + ARTIFACT_TTL_S
        assert tasks.read_artifact(view.id, artifact.name) == runner.shot
        now[0] += ARTIFACT_TTL_S + 1
        with pytest.raises(GoferError) as caught:
            tasks.read_artifact(view.id, artifact.name)
        assert caught.value.code == "UNKNOWN_ARTIFACT"
        assert (await tasks.task_report({"id": view.id})).artifacts == []


async def test_a_task_needing_input_before_any_run_has_no_workspace_and_no_screenshot() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": [{"enter": "${x}", "into": "X"}]})
        view = await tasks.cancel_task({"id": view.id})
        assert view.status.state == "cancelled"
        assert (await tasks.task_report({"id": view.id})).artifacts == []
        assert runner.released == []


async def test_a_runner_error_fails_the_task_and_a_crash_is_logged_and_surfaced(
    caplog: pytest.LogCaptureFixture,
) -> None:
    runner = ScriptedRunner.of(SurfaceError("the browser did not start"), RuntimeError("boom"))
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": FLOW})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "failed"
        assert view.status.reason == "the browser did not start"
        assert view.status.recoverable is False
        with caplog.at_level(logging.ERROR, logger="gofer.tasks"):
            view = await tasks.start_task({"flow": FLOW})
            view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "failed"
        assert view.status.reason == "internal error (RuntimeError)"
        assert any("RuntimeError" in r.getMessage() for r in caplog.records)
    assert runner.open == set()


async def test_a_draining_worker_stops_claiming_and_lets_its_running_turn_reach_its_stop() -> None:
    go = asyncio.Event()
    runner = ScriptedRunner.of(held(go), complete())  # type: ignore[arg-type]
    async with Tasks(runner) as tasks:
        first = await tasks.start_task({"flow": FLOW})
        await runner.started.wait()
        draining = asyncio.create_task(tasks.drain(30.0))
        await asyncio.sleep(0.05)
        await tasks.start_task({"flow": FLOW})
        assert not draining.done()  # the turn still runs: the drain waits for it
        go.set()
        await draining
        assert (await tasks.await_task({"id": first.id, "timeout_ms": 0})).status.state == "done"
        assert [task_id for task_id, _ in runner.requests] == [first.id]  # none claimed since
        assert runner.cancelled == []


async def test_a_drain_cuts_what_still_runs_when_its_grace_ends_or_a_second_signal_comes() -> None:
    for grace, cut_now in ((0.05, False), (30.0, True)):
        runner = ScriptedRunner.of(hang())
        async with Tasks(runner) as tasks:
            view = await tasks.start_task({"flow": FLOW})
            await runner.started.wait()
            cut = asyncio.Event()
            if cut_now:
                cut.set()
            await asyncio.wait_for(tasks.drain(grace, cut), 10)
        assert runner.cancelled == [view.id]
