"""Every status a task can reach, and the transitions between them (scripted runs)."""

from __future__ import annotations

from typing import Any

import pytest

from gofer.errors import GoferError, InvalidFlow, InvalidRequest
from gofer.flow import Flow, StopBefore, parse_flow
from gofer.models import CallMeter
from gofer.runtime.types import RunResult, RunStatus
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.seams import PlanBrief
from gofer.tasks.testing import complete, fail, gate, spent

SEARCH: list[dict[str, Any]] = [
    {"browse": "https://flights.example.com/"},
    {"choose": "Delhi", "in": "From"},
    {"click": "Search flights"},
    {"read": "the first result", "as": "cheapest"},
]


async def run_to_stop(tasks: Tasks, **start: Any) -> Any:
    view = await tasks.start_task(start)
    return await tasks.await_task({"id": view.id, "timeout_ms": 2000})


def kinds(runner: ScriptedRunner, n: int) -> list[str]:
    return [step.KIND for step in runner.requests[n][1].flow.steps]


async def test_a_completed_flow_is_done_with_an_answer_listing_what_was_read() -> None:
    runner = ScriptedRunner.of(complete({"cheapest": "IndiGo · 08:00 · ₹7,346"}))
    async with Tasks(runner) as tasks:
        first = await tasks.start_task({"flow": {"vars": {"cheapest": ""}, "steps": SEARCH}})
        assert first.status.state == "running"
        assert first.next == ["await_task", "cancel_task"]
        view = await tasks.await_task({"id": first.id, "timeout_ms": 2000})
        assert view.status.state == "done"
        assert view.status.answer == "Finished all 4 steps. cheapest: IndiGo · 08:00 · ₹7,346."
        assert view.status.records == {"cheapest": "IndiGo · 08:00 · ₹7,346"}
        assert view.progress == 1.0
        assert view.next == ["task_report"]
        assert view.summary == "Finished all 4 steps."
        assert runner.released == [view.id]
        report = await tasks.task_report({"id": view.id})
        assert report.records == {"cheapest": "IndiGo · 08:00 · ₹7,346"}
        assert [s.path for s in report.steps] == ["0", "1", "2", "3"]
        assert len(report.artifacts) == 1
        assert tasks.read_artifact(view.id, report.artifacts[0].name).startswith(b"\x89PNG")


async def test_a_fact_passed_in_and_left_alone_is_not_a_record() -> None:
    runner = ScriptedRunner.of(complete({"first name": "Asha", "seat": "12A"}))
    async with Tasks(runner) as tasks:
        flow = [*SEARCH[:2], {"enter": "${first name}", "into": "Name"}]
        view = await run_to_stop(tasks, flow=flow, facts={"first name": "Asha"})
        assert view.status.state == "done"
        assert view.status.records == {"seat": "12A"}


async def test_the_run_gets_flow_vars_overlaid_by_facts_and_secret_names_as_private() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        await run_to_stop(
            tasks,
            flow={
                "vars": {"city": "Delhi", "email": "old"},
                "steps": [
                    {"enter": "${email}", "into": "Email"},
                    {"enter": "${password}", "into": "Password"},
                ],
            },
            facts={"email": "asha@example.com", "password": "pw-123456"},
        )
        request = runner.requests[0][1]
        assert request.variables == {
            "city": "Delhi",
            "email": "asha@example.com",
            "password": "pw-123456",
        }
        assert request.private == frozenset({"password"})
        assert request.mask is not None and request.mask("x pw-123456") == "x ${password}"
        assert request.allow_destructive is False


async def test_a_missing_value_asks_before_anything_runs_and_continues_with_inputs() -> None:
    runner = ScriptedRunner()
    flow = [{"enter": "${email}", "into": "Email"}, {"enter": "${phone}", "into": "Phone"}]
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": flow})
        assert view.status.state == "needs_input"
        assert view.status.fields == ["email", "phone"]
        assert view.next == ["continue_task", "cancel_task"]
        assert runner.requests == []
        with pytest.raises(InvalidRequest):
            await tasks.continue_task({"id": view.id})
        view = await tasks.continue_task({"id": view.id, "inputs": {"email": "a@example.com"}})
        assert view.status.state == "needs_input"
        assert view.status.fields == ["phone"]
        view = await tasks.continue_task({"id": view.id, "inputs": {"phone": "9876543210"}})
        assert view.status.state == "running"
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"
        assert runner.requests[0][1].variables == {"email": "a@example.com", "phone": "9876543210"}


async def test_a_new_input_that_is_a_secret_in_the_wrong_place_is_refused() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": [{"click": "${code}"}]})
        assert view.status.state == "needs_input"
        with pytest.raises(InvalidFlow) as caught:
            await tasks.continue_task(
                {"id": view.id, "inputs": {"code": "493021"}, "secret_inputs": ["code"]}
            )
        assert caught.value.details["problems"][0]["code"] == "SECRET_MISPLACED"
        view = (await tasks.list_tasks()).tasks[0]
        assert view.status.state == "needs_input"
        view = await tasks.continue_task({"id": view.id, "inputs": {"code": "Next"}})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"


async def test_approval_presses_that_control_then_runs_the_rest_under_the_tasks_setting() -> None:
    runner = ScriptedRunner.of(gate("2", "Send message"), complete(), complete())
    flow = [*SEARCH[:2], {"stop_before": "sending the message"}, {"click": "Done"}]
    async with Tasks(runner) as tasks:
        view = await run_to_stop(tasks, flow=flow)
        assert view.status.state == "needs_approval"
        assert (view.status.action, view.status.target) == ("sending the message", "Send message")
        assert view.step is not None and view.step.index == 2
        assert view.progress == 0.5
        assert runner.open == {view.id}
        view = await tasks.continue_task({"id": view.id, "approve": True})
        assert view.status.state == "running"
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"
    press, rest = runner.requests[1][1], runner.requests[2][1]
    assert press.flow.steps == (StopBefore(action="sending the message"),)
    assert press.allow_destructive is True
    assert kinds(runner, 2) == ["click"]
    assert rest.allow_destructive is False


async def test_declining_an_approval_cancels_the_task_and_releases_the_workspace() -> None:
    runner = ScriptedRunner.of(gate("0", "Delete account"))
    async with Tasks(runner) as tasks:
        view = await run_to_stop(
            tasks, flow=[{"stop_before": "deleting the account"}, {"click": "OK"}]
        )
        view = await tasks.continue_task({"id": view.id, "approve": False})
        assert view.status.state == "cancelled"
        assert view.summary == "Cancelled: the approval was declined."
        assert runner.released == [view.id]
        assert len(runner.requests) == 1


async def test_a_nested_gate_resumes_from_the_start_of_its_top_level_step() -> None:
    runner = ScriptedRunner.of(gate("1.then.1", "Send"), complete(), complete())
    flow = [
        {"browse": "https://mail.example.com/"},
        {"if": {"shows": "Draft"}, "then": [{"click": "Draft"}, {"stop_before": "sending"}]},
        {"click": "Inbox"},
    ]
    async with Tasks(runner) as tasks:
        view = await run_to_stop(tasks, flow=flow)
        assert view.status.state == "needs_approval"
        assert view.step is not None and view.step.path == "1.then.1"
        view = await tasks.continue_task({"id": view.id, "approve": True})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"
    assert runner.requests[1][1].allow_destructive is True
    assert runner.requests[2][1].flow.steps == parse_flow(flow).steps[1:]


@pytest.mark.parametrize(
    ("label", "consequence", "payment_screen"),
    [
        ("Pay now", "payment", False),
        ("Place order", "irreversible", False),
        ("Continue", "reversible", True),
    ],
)
async def test_a_payment_gate_ends_at_a_final_checkpoint_with_the_browser_left_open(
    label: str, consequence: str, payment_screen: bool
) -> None:
    runner = ScriptedRunner.of(
        gate("3", label, consequence, payment_screen=payment_screen, changed={"fare": "₹7,346"})
    )
    flow = [*SEARCH[:3], {"stop_before": "paying for the booking"}]
    async with Tasks(runner) as tasks:
        view = await run_to_stop(tasks, flow=flow)
        status = view.status
        assert status.state == "checkpoint"
        assert status.continuable is False
        assert status.location == label
        assert "payment" in status.reason
        assert status.summary == "finished 3 of 4 steps; read fare: ₹7,346"
        assert view.summary.startswith("Stopped: reached the payment step")
        assert view.next == ["cancel_task", "task_report"]
        assert runner.open == {view.id}
        with pytest.raises(GoferError) as caught:
            await tasks.continue_task({"id": view.id})
        assert caught.value.code == "WRONG_STATE"
        view = await tasks.cancel_task({"id": view.id})
        # releasing the browser keeps what the task reached
        assert view.status.state == "checkpoint" and view.status.model_dump()["released"] is True
        assert view.status.model_dump()["location"] == label and view.next == ["task_report"]
        assert runner.open == set()
        again = await tasks.cancel_task({"id": view.id})
        assert again == view == await tasks.await_task({"id": view.id, "timeout_ms": 0})
        assert runner.released == [view.id]


async def test_fill_then_approve_waits_for_approval_at_the_pay_control_and_presses_it() -> None:
    runner = ScriptedRunner.of(gate("1", "Pay now", "payment"), complete())
    async with Tasks(runner) as tasks:
        with pytest.raises(GoferError) as caught:
            await tasks.start_task(
                {"flow": SEARCH, "constraints": {"payment": "fill_then_approve"}}
            )
        assert caught.value.code == "ORIGINS_REQUIRED"
        view = await run_to_stop(
            tasks,
            flow=[{"enter": "${card number}", "into": "Card number"}, {"stop_before": "paying"}],
            facts={"card number": "4111 1111 1111 1111"},
            constraints={"payment": "fill_then_approve", "origins": ["https://.example.com"]},
        )
        assert view.status.state == "needs_approval"
        assert view.status.target == "Pay now"
        await tasks.continue_task({"id": view.id, "approve": True})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"
    assert runner.requests[1][1].allow_destructive is True
    assert runner.options[view.id].origins == ("https://.example.com",)


async def test_a_failed_step_is_recoverable_and_continue_reruns_it_and_the_rest() -> None:
    runner = ScriptedRunner.of(fail("2", "no control named Search flights"), complete())
    async with Tasks(runner) as tasks:
        view = await run_to_stop(tasks, flow=SEARCH)
        status = view.status
        assert status.state == "failed"
        assert (status.step, status.recoverable) == ("2", True)
        assert status.reason == "no control named Search flights"
        assert status.hint is not None and "continue_task" in status.hint
        assert view.next == ["continue_task", "cancel_task", "task_report"]
        assert view.summary == "Failed at step 3 of 4: no control named Search flights."
        assert runner.open == {view.id}
        await tasks.continue_task({"id": view.id})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"
    assert kinds(runner, 1) == ["click", "read"]
    assert runner.released == [view.id]


async def test_a_wall_needs_a_person_then_continue_reruns_in_the_same_workspace() -> None:
    runner = ScriptedRunner.of(
        fail("1", "no field named From", screen_text="Please sign in to continue"), complete()
    )
    async with Tasks(runner) as tasks:
        view = await run_to_stop(tasks, flow=SEARCH)
        assert view.status.state == "needs_human"
        assert "a login wall" in view.status.reason
        assert view.next == ["continue_task", "cancel_task"]
        assert runner.released == []
        view = await tasks.continue_task({"id": view.id})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"
    assert kinds(runner, 1) == ["choose", "click", "read"]
    assert [task_id for task_id, _ in runner.requests] == [view.id, view.id]
    assert runner.released == [view.id]


async def test_a_header_log_in_link_is_not_a_wall() -> None:
    runner = ScriptedRunner.of(fail("0", "nothing loaded", screen_text="Log in  Sign up  Flights"))
    async with Tasks(runner) as tasks:
        view = await run_to_stop(tasks, flow=SEARCH)
        assert view.status.state == "failed"


async def test_a_spent_budget_fails_for_good_with_a_hint() -> None:
    runner = ScriptedRunner.of(spent(5))
    async with Tasks(runner) as tasks:
        view = await run_to_stop(tasks, flow=SEARCH, budget={"max_actions": 5})
        status = view.status
        assert status.state == "failed"
        assert status.recoverable is False
        assert status.hint == "raise budget.max_actions and start a new task"
        assert view.next == ["task_report", "start_task"]
        assert runner.released == [view.id]


async def test_a_run_that_reports_an_invalid_flow_fails_for_good() -> None:
    runner = ScriptedRunner.of(RunResult(status=RunStatus.INVALID, reason="no value for x"))
    async with Tasks(runner) as tasks:
        view = await run_to_stop(tasks, flow=SEARCH)
        assert view.status.state == "failed"
        assert view.status.reason == "no value for x"
        assert view.status.recoverable is False


async def test_a_run_the_runner_cancelled_cancels_the_task() -> None:
    runner = ScriptedRunner.of(RunResult(status=RunStatus.CANCELLED))
    async with Tasks(runner) as tasks:
        view = await run_to_stop(tasks, flow=SEARCH)
        assert view.status.state == "cancelled"


async def test_an_invalid_flow_is_refused_at_start_with_every_problem() -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        with pytest.raises(InvalidFlow) as caught:
            await tasks.start_task({"flow": [{"navigate": "x"}, {"click": ""}]})
        assert len(caught.value.details["problems"]) == 2
        with pytest.raises(InvalidFlow):
            await tasks.start_task(
                {"flow": [{"browse": "${password}"}], "facts": {"password": "pw-123456"}}
            )
        assert (await tasks.list_tasks()).tasks == []


async def test_a_plain_language_task_without_a_planner_needs_a_plan() -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        view = await tasks.start_task({"task": "find the cheapest flight"})
        assert view.status.state == "needs_plan"
        assert "browse" in view.status.guide
        assert view.next == ["start_task"]
        with pytest.raises(GoferError) as caught:
            await tasks.plan_task({"task": "find the cheapest flight"})
        assert caught.value.code == "PLANNER_UNAVAILABLE"
        with pytest.raises(InvalidRequest):
            await tasks.start_task({})


class FakePlanner:
    def __init__(self, flow: list[dict[str, Any]]) -> None:
        self.flow = flow
        self.briefs: list[PlanBrief] = []

    async def plan(self, brief: PlanBrief, meter: CallMeter | None = None) -> Flow:
        self.briefs.append(brief)
        return parse_flow(self.flow)


async def test_a_planner_plans_inside_the_task_and_asks_for_names_no_fact_gives() -> None:
    planner = FakePlanner([{"browse": "https://a.example/"}, {"enter": "${email}", "into": "E"}])
    runner = ScriptedRunner()
    async with Tasks(runner, planner=planner) as tasks:
        reply = await tasks.plan_task({"task": "sign me up", "facts": {"name": "Asha"}})
        assert reply.questions == ["email"]
        assert reply.flow["steps"] == [
            {"browse": "https://a.example/"},
            {"enter": "${email}", "into": "E"},
        ]
        assert planner.briefs[0].facts == ("name",)
        view = await tasks.start_task({"task": "sign me up"})
        assert view.status.state == "running"
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "needs_input"
        assert view.status.fields == ["email"]
        await tasks.continue_task({"id": view.id, "inputs": {"email": "a@example.com"}})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        assert view.status.state == "done"
        assert (await tasks.describe()).planner_configured is True


class FakeShaper:
    def __init__(self, result: Any) -> None:
        self.result = result

    async def shape(self, brief: Any, meter: Any = None) -> Any:
        return self.result


SCHEMA = {"type": "object", "properties": {"price": {"type": "integer"}}, "required": ["price"]}


async def test_output_is_shaped_checked_and_refused_without_a_shaper() -> None:
    output = {"instructions": "the price as a number", "schema": SCHEMA}
    async with Tasks(ScriptedRunner()) as tasks:
        with pytest.raises(GoferError) as caught:
            await tasks.start_task({"flow": SEARCH, "output": output})
        assert caught.value.code == "OUTPUT_UNAVAILABLE"
    async with Tasks(ScriptedRunner(), shaper=FakeShaper({"price": 7346})) as tasks:
        with pytest.raises(GoferError) as caught:
            await tasks.start_task(
                {
                    "flow": SEARCH,
                    "output": {"instructions": "x", "schema": {"type": "object", "pattern": "x"}},
                }
            )
        assert caught.value.code == "INVALID_OUTPUT"
        view = await run_to_stop(tasks, flow=SEARCH, output=output)
        assert view.status.state == "done"
        assert view.status.result == {"price": 7346}
    async with Tasks(ScriptedRunner(), shaper=FakeShaper({"price": "cheap"})) as tasks:
        view = await run_to_stop(tasks, flow=SEARCH, output=output)
        assert view.status.state == "failed"
        assert view.status.recoverable is False


async def test_calls_that_do_not_fit_the_status_are_refused_with_the_state() -> None:
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks:
        view = await tasks.start_task({"flow": [{"enter": "${email}", "into": "Email"}]})
        with pytest.raises(GoferError) as caught:
            await tasks.continue_task({"id": view.id, "approve": True})
        assert caught.value.code == "WRONG_STATE"
        assert "approve does not apply" in caught.value.message
        assert caught.value.details["state"] == "needs_input"
        assert caught.value.details["next"] == ["continue_task", "cancel_task"]
        await tasks.continue_task({"id": view.id, "inputs": {"email": "a@example.com"}})
        view = await tasks.await_task({"id": view.id, "timeout_ms": 2000})
        with pytest.raises(GoferError) as caught:
            await tasks.continue_task({"id": view.id})
        assert caught.value.details["state"] == "done"
        assert (await tasks.cancel_task({"id": view.id})).status.state == "done"
        with pytest.raises(GoferError) as caught:
            await tasks.await_task({"id": "task-99"})
        assert caught.value.code == "UNKNOWN_TASK"
        with pytest.raises(InvalidRequest):
            await tasks.await_task({"id": view.id, "timeout_ms": -1})


async def test_surfaces_narrow_the_workspace_and_missing_ones_are_refused() -> None:
    runner = ScriptedRunner(surfaces={"browser": None, "desktop": "the desktop is not built yet"})
    async with Tasks(runner) as tasks:
        view = await run_to_stop(tasks, flow=SEARCH)
        assert runner.options[view.id].surfaces == frozenset({"browser"})
        with pytest.raises(GoferError) as caught:
            await tasks.start_task({"flow": [{"open": "Calculator"}]})
        assert caught.value.code == "SURFACE_UNAVAILABLE"
        assert caught.value.details["reason"] == "the desktop is not built yet"
        with pytest.raises(GoferError) as caught:
            await tasks.start_task({"flow": SEARCH, "constraints": {"surfaces": ["desktop"]}})
        assert caught.value.code == "SURFACE_UNAVAILABLE"
    both = ScriptedRunner()
    async with Tasks(both) as tasks:
        view = await run_to_stop(
            tasks,
            flow=SEARCH,
            constraints={
                "surfaces": ["browser"],
                "browser_endpoint": "http://127.0.0.1:9222",
                "headed": True,
            },
        )
        options = both.options[view.id]
        assert options.surfaces == frozenset({"browser"})
        assert (options.browser_endpoint, options.headed) == ("http://127.0.0.1:9222", True)
        with pytest.raises(GoferError) as caught:
            await tasks.start_task(
                {"flow": [{"open": "Calculator"}], "constraints": {"surfaces": ["browser"]}}
            )
        assert caught.value.details["reason"] == "the task's constraints leave it out"


async def test_card_details_are_typed_only_under_fill_then_approve() -> None:
    card_flow = [{"enter": "${card number}", "into": "Card number"}, {"stop_before": "paying"}]
    runner = ScriptedRunner.of()
    async with Tasks(runner) as tasks:
        for facts in (
            {"card number": "4111 1111 1111 1111"},
            {"cvv": "737"},
            {"my digits": "4111-1111-1111-1111"},
        ):
            name = next(iter(facts))
            flow = [{"enter": "${" + name + "}", "into": "Card number"}, {"stop_before": "paying"}]
            with pytest.raises(GoferError) as caught:
                await tasks.start_task({"flow": flow, "facts": facts})
            assert caught.value.code == "CARD_ENTRY_REFUSED"
            assert caught.value.details["step"] == "0"
            assert "4111" not in str(caught.value) and "737" not in str(caught.value)
        # A password is secret but not card data: typing it needs no payment setting.
        view = await tasks.start_task(
            {
                "flow": [{"enter": "${password}", "into": "Password"}],
                "facts": {"password": "hunter2"},
            }
        )
        assert (await tasks.await_task({"id": view.id, "timeout_ms": 2000})).status.state == "done"
        # A card number that arrives later as an input is refused the same way,
        # and the task keeps waiting for a value it can use.
        view = await tasks.start_task({"flow": card_flow})
        assert view.status.state == "needs_input"
        with pytest.raises(GoferError) as caught:
            await tasks.continue_task(
                {"id": view.id, "inputs": {"card number": "4111 1111 1111 1111"}}
            )
        assert caught.value.code == "CARD_ENTRY_REFUSED"
        assert (await tasks.await_task({"id": view.id, "timeout_ms": 0})).status.state == (
            "needs_input"
        )
    assert len(runner.requests) == 1
