"""The runtime's gates on captured screens through the fake surface: what is pressed
without asking, what stops the run, and which failures wait for a person."""

from __future__ import annotations

import json
from pathlib import Path

from gofer.flow import parse_flow
from gofer.runtime import (
    RunRequest,
    RunResult,
    RunStatus,
    RuntimeSettings,
    StepOutcome,
    Workspace,
    run_flow,
)
from gofer.surfaces.screen import Box, Screen, TextLine, screen_from_dict
from gofer.surfaces.testing import FakeSurface
from gofer.tasks.budget import Spending
from gofer.tasks.cell import Segment
from gofer.tasks.contract import Failed, NeedsHuman, TaskBudget, TaskConstraints
from gofer.tasks.outcome import Outcome, interpret

SCREENS = Path(__file__).parent / "screens"
FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


def _screen(name: str) -> Screen:
    return screen_from_dict(json.loads((SCREENS / f"{name}.json").read_text()))


def _ref(screen: Screen, name: str, nth: int = 0) -> str:
    return [e.ref for e in screen.elements if e.display_name == name][nth]


def _page(title: str) -> Screen:
    return Screen(
        f"http://pages.test/{title.lower().replace(' ', '-')}",
        title,
        (TextLine(title, Box(0, 0, 300, 20), heading=1),),
        (),
    )


async def _run(page: FakeSurface, steps: list[dict[str, str]]) -> RunResult:
    return await run_flow(RunRequest(flow=parse_flow(steps)), Workspace.on(page), settings=FAST)


async def test_a_delete_link_goes_to_the_confirmation_whose_button_stops_the_run() -> None:
    record, confirm = _screen("gate_admin_record"), _screen("gate_confirm_delete")
    page = FakeSurface(
        record,
        after_click={
            _ref(record, "Delete"): confirm,
            _ref(confirm, "Yes, I’m sure"): _page("Deleted"),
        },
    )
    result = await _run(page, [{"click": "Delete"}, {"click": "Yes, I'm sure"}])
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None
    assert (result.gate.label, result.gate.consequence) == ("Yes, I’m sure", "irreversible")
    assert page.clicked == [_ref(record, "Delete")]
    assert page.url == confirm.url


async def test_a_delete_link_run_by_script_stops_the_run() -> None:
    record = _screen("gate_admin_record")
    page = FakeSurface(record)
    result = await _run(page, [{"click": "Delete note", "within": "Welcome call"}])
    assert result.status is RunStatus.GATED, result.failure
    assert page.clicked == []


async def test_removing_a_basket_line_and_going_to_checkout_need_no_approval() -> None:
    basket = _screen("gate_basket")
    removed = _page("Your basket is lighter")
    page = FakeSurface(basket, after_click={_ref(basket, "Remove", 1): removed})
    result = await _run(page, [{"click": "Remove", "within": "Canvas Tote"}])
    assert result.status is RunStatus.COMPLETED, result.failure
    assert page.clicked == [_ref(basket, "Remove", 1)]
    page = FakeSurface(basket, after_click={_ref(basket, "Proceed to checkout"): _page("Address")})
    result = await _run(page, [{"click": "Proceed to checkout"}])
    assert result.status is RunStatus.COMPLETED, result.failure
    assert page.url == "http://pages.test/address"


async def test_a_chips_remove_button_unselects_without_asking() -> None:
    chips = _screen("chips")
    german = _ref(chips, "Remove item: 'German'")
    page = FakeSurface(chips, after_click={german: _page("Languages: English, Italian")})
    result = await _run(page, [{"click": "Remove", "within": "German"}])
    assert result.status is RunStatus.COMPLETED, result.failure
    assert page.clicked == [german]


async def test_deleting_a_message_stops_the_run() -> None:
    inbox = _screen("gate_inbox")
    page = FakeSurface(inbox)
    result = await _run(page, [{"click": "Delete message", "within": "Ravi"}])
    assert result.status is RunStatus.GATED
    assert result.gate is not None and result.gate.consequence == "irreversible"
    assert page.clicked == []


async def test_continue_on_a_card_form_named_by_placeholders_is_a_payment() -> None:
    form = _screen("gate_card_placeholders")
    page = FakeSurface(form, after_click={_ref(form, "Continue"): _page("Paid")})
    result = await _run(page, [{"click": "Continue"}])
    assert result.status is RunStatus.GATED
    assert result.gate is not None
    assert (result.gate.consequence, result.gate.payment_screen) == ("payment", True)
    assert page.clicked == []


async def test_a_failure_beside_a_header_sign_in_link_stays_a_failure() -> None:
    page = FakeSurface(_screen("gate_signin_link"))
    result = await _run(page, [{"click": "Write a review"}])
    assert result.status is RunStatus.FAILED
    assert "Login or register" in result.screen_text
    assert result.wall is None
    status = _interpret(result).status
    assert isinstance(status, Failed) and status.recoverable


async def test_a_failure_on_a_sign_in_wall_waits_for_a_person() -> None:
    page = FakeSurface(_screen("gate_login_wall"))
    result = await _run(page, [{"click": "Your orders"}])
    assert result.status is RunStatus.FAILED
    assert result.wall == "a login wall"
    status = _interpret(result).status
    assert isinstance(status, NeedsHuman) and "login wall" in status.reason


async def test_a_step_that_ran_is_reported_done() -> None:
    basket = _screen("gate_basket")
    page = FakeSurface(basket, after_click={_ref(basket, "Clear basket"): _page("Empty")})
    result = await _run(page, [{"click": "Clear basket"}])
    assert [r.outcome for r in result.steps] == [StepOutcome.DONE]


def _interpret(result: RunResult) -> Outcome:
    flow = parse_flow([{"click": "x"}])
    return interpret(
        result,
        Segment(tuple(flow.steps), 0, False),
        [],
        TaskConstraints(),
        Spending(TaskBudget()),
        "",
    )
