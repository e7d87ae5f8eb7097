"""Take over, in the controller: a person's live view of a paused task's browser (on
the scripted runner's fake pages), when it may open, that the task takes its browser
back, and how long a paused task holds its browser."""

from __future__ import annotations

import asyncio

import pytest

from gofer.errors import GoferError
from gofer.surfaces import Box, Element, KeyInput, PointerInput, Screen, TextLine
from gofer.surfaces.testing import FakeLiveView, FakeSurface
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.limits import HOLD_FOR_PERSON_S
from gofer.tasks.testing import fail, gate, hang
from gofer.tasks.worker import TurnLimits

FLOW = [{"browse": "https://a.example.com/"}, {"click": "Orders"}]
WALL = "Sign in to continue"
FIELD = Element(ref="e1", role="textbox", name="Username", editable=True, box=Box(10, 10, 200, 30))


async def paused(tasks: Tasks, runner: ScriptedRunner, *entries: object) -> str:
    runner.add(*entries)  # type: ignore[arg-type]
    view = await tasks.start_task({"flow": FLOW})
    view = await tasks.await_task({"id": view.id})
    assert view.status.state != "running"
    return view.id


async def frames_end(view: object) -> list[bytes]:
    async with asyncio.timeout(5):
        return [f.data async for f in view.frames()]  # type: ignore[attr-defined]


async def test_a_person_acts_in_the_live_view_of_a_task_at_a_wall() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        task_id = await paused(tasks, runner, fail("1", "no Orders", screen_text=WALL))
        runner.faces[task_id] = face = FakeSurface(
            Screen("https://a.example.com/", "", (), (FIELD,))
        )
        async with await tasks.live_view(task_id) as view:
            assert view.size == (1280, 800)
            await view.pointer(PointerInput("down", FIELD.box.cx, FIELD.box.cy))
            await view.pointer(PointerInput("up", FIELD.box.cx, FIELD.box.cy))
            await view.text("asha")
            await view.key(KeyInput("down", "s"))
            await view.key(KeyInput("down", "Enter"))
        typed = face.screen.element("e1")
        assert typed is not None and typed.value == "ashas" and typed.focused
        assert face.pressed == ["Enter"]
        assert tasks.worker.lives.get(task_id, set()) == set()


@pytest.mark.parametrize(
    "entry",
    [
        fail("1", "no Orders", screen_text=WALL),
        gate("1", "Confirm booking"),
        gate("1", "Pay now", "payment"),
        fail("1", "no Orders"),
    ],
    ids=["needs_human", "needs_approval", "checkpoint", "failed recoverable"],
)
async def test_it_opens_while_a_paused_task_holds_its_browser(entry: object) -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        task_id = await paused(tasks, runner, entry)
        async with await tasks.live_view(task_id) as view:
            assert isinstance(view.frames, object)
            frames = view.frames()
            async with asyncio.timeout(5):
                assert (await anext(frames)).data == b"fake frame 1"


async def test_it_does_not_open_for_a_running_or_finished_task_or_another_owner() -> None:
    started = asyncio.Event()
    runner = ScriptedRunner.of(hang(started))
    async with Tasks(runner) as tasks:
        running = await tasks.start_task({"flow": FLOW})
        await started.wait()
        with pytest.raises(GoferError) as err:
            await tasks.live_view(running.id)
        assert err.value.code == "WRONG_STATE"
        await tasks.cancel_task({"id": running.id})
        with pytest.raises(GoferError) as err:
            await tasks.live_view(running.id)
        assert err.value.code == "WRONG_STATE"

        task_id = await paused(tasks, runner, fail("1", "no Orders", screen_text=WALL))
        with pytest.raises(GoferError) as err:
            await tasks.for_owner("mallory").live_view(task_id)
        assert err.value.code == "UNKNOWN_TASK"
        with pytest.raises(GoferError) as err:
            await tasks.live_view("task-404")
        assert err.value.code == "UNKNOWN_TASK"


async def test_continuing_the_task_takes_its_browser_back_from_the_person() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        task_id = await paused(tasks, runner, fail("1", "no Orders", screen_text=WALL))
        view = await tasks.live_view(task_id)
        frames = view.frames()
        async with asyncio.timeout(5):
            await anext(frames)
        await tasks.continue_task({"id": task_id})
        async with asyncio.timeout(5):
            assert [f async for f in frames] == []
        assert view.closed
        with pytest.raises(GoferError) as err:
            await view.text("late")
        assert err.value.code == "LIVE_CLOSED"
        assert (await tasks.await_task({"id": task_id})).status.state == "done"


async def test_cancelling_closes_the_view_and_lets_the_browser_go() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        task_id = await paused(tasks, runner, gate("1", "Pay now", "payment"))
        view = await tasks.live_view(task_id)
        await tasks.cancel_task({"id": task_id})
        assert await frames_end(view) in ([], [b"fake frame 1"])
        assert view.closed and runner.released == [task_id]
        assert task_id not in tasks.worker.holding


async def test_a_paused_task_lets_its_browser_go_once_nothing_acts_on_it() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner, limits=TurnLimits(hold_s=0.05)) as tasks:
        task_id = await paused(tasks, runner, fail("1", "no Orders", screen_text=WALL))
        timer, _ = tasks.worker.holding[task_id]
        assert timer.get_name() == f"gofer-hold-{task_id}"
        await asyncio.wait([timer])
        assert runner.released == [task_id] and not runner.holds(task_id)
        with pytest.raises(GoferError) as err:
            await tasks.live_view(task_id)
        assert err.value.code == "LIVE_UNAVAILABLE"
        report = await tasks.task_report({"id": task_id})
        assert report.log[-1].kind == "let_go"
        assert "Let its browser go after waiting 0 minutes" in report.log[-1].text
        assert report.view.status.state == "needs_human", "the status is as it was"
        # the task still goes on: the next run opens its last page again
        await tasks.continue_task({"id": task_id})
        assert (await tasks.await_task({"id": task_id})).status.state == "done"


async def test_a_persons_input_restarts_the_hold_and_the_expiry_closes_the_view() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner, limits=TurnLimits(hold_s=3600)) as tasks:
        task_id = await paused(tasks, runner, fail("1", "no Orders", screen_text=WALL))
        _, touched = tasks.worker.holding[task_id]
        view = await tasks.live_view(task_id)
        touched.clear()
        await view.text("a")
        assert touched.is_set(), "the person's input counts as acting on the browser"
        inner = runner.faces[task_id].views[-1]
        assert isinstance(inner, FakeLiveView) and inner.received == ["a"]
        await tasks.worker.release(task_id)  # what the timer does when it runs out
        assert view.closed and task_id not in tasks.worker.holding


def test_the_hold_is_a_quarter_of_an_hour_and_must_be_positive() -> None:
    assert TurnLimits().hold_s == HOLD_FOR_PERSON_S == 900
    with pytest.raises(ValueError):
        TurnLimits(hold_s=0)


async def test_a_newer_live_view_ends_the_one_before() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        task_id = await paused(tasks, runner, gate("1", "Confirm booking"))
        first = await tasks.live_view(task_id)
        second = await tasks.live_view(task_id)
        assert first.closed and not second.closed
        assert tasks.worker.lives[task_id] == {second}
        await second.close()
        assert tasks.worker.lives[task_id] == set()


SIGN_IN_WALL = Screen(
    "https://a.example.com/",
    "Sign in",
    (TextLine("Sign in to continue", Box(10, 0, 200, 20), heading=1),),
    (FIELD, Element(ref="e2", role="button", name="Sign in", box=Box(10, 60, 80, 30))),
)
ORDERS = Element(ref="e3", role="link", name="Orders", box=Box(10, 10, 100, 30))


async def test_ive_done_it_with_the_wall_still_there_is_still_blocked_at_once() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        task_id = await paused(tasks, runner, fail("1", "no Orders", screen_text=WALL))
        runner.faces[task_id] = face = FakeSurface(SIGN_IN_WALL)
        with pytest.raises(GoferError) as blocked:
            await tasks.continue_task({"id": task_id})
        assert blocked.value.code == "STILL_BLOCKED"
        assert blocked.value.message == "It is still blocked: the sign-in form is still showing."
        assert (await tasks.await_task({"id": task_id})).status.state == "needs_human"
        assert runner.requests[-1][1].flow.steps[0].KIND == "browse", "nothing ran again"

        # Past the wall, the person presses the step's own control: it is not run again.
        face.screen = Screen("https://a.example.com/home", "Home", (), (ORDERS,))
        async with await tasks.live_view(task_id) as view:
            await view.pointer(PointerInput("down", ORDERS.box.cx, ORDERS.box.cy))
            await view.pointer(PointerInput("up", ORDERS.box.cx, ORDERS.box.cy))
        await tasks.continue_task({"id": task_id})
        view = await tasks.await_task({"id": task_id})
        assert view.status.state == "done"
        report = await tasks.task_report({"id": task_id})
        assert [(s.path, s.outcome) for s in report.steps][-1] == ("1", "done_by_person")
        assert [p.step for p in report.person_steps] == [{"click": "Orders"}]
        assert len(runner.requests) == 1, "the flow had nothing left to run"
