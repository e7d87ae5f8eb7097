"""The runtime on a scripted page (no browser): edge cases found in review."""

from __future__ import annotations

from typing import Any

from gofer.decider import VotingDecider
from gofer.flow import parse_flow
from gofer.models import ScriptedModel
from gofer.runtime import RunRequest, RuntimeSettings, Workspace, run_flow
from gofer.runtime.types import RunBudget, RunStatus
from gofer.surfaces.screen import Box, Element, Screen, TextLine
from gofer.surfaces.testing import FakeSurface

CARD_FORM = Screen(
    "https://shop.example.com/pay",
    "Pay",
    (TextLine("Card number", Box(10, 10, 100, 20)), TextLine("CVV", Box(10, 40, 100, 20))),
    (Element("e1", "textbox", "Card number", editable=True, box=Box(120, 10, 200, 20)),),
)

FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


async def run(steps: list[dict[str, Any]], page: FakeSurface, **request: Any) -> Any:
    req = RunRequest(flow=parse_flow(steps), **request)
    return await run_flow(req, Workspace.on(page), settings=FAST)


async def test_enter_with_submit_on_a_card_form_stops_before_the_enter_key() -> None:
    page = FakeSurface(CARD_FORM)
    result = await run(
        [{"enter": "4111 1111 1111 1111", "into": "Card number", "submit": True}], page
    )
    assert result.status is RunStatus.GATED
    assert result.gate is not None
    assert (result.gate.key, result.gate.consequence, result.gate.path) == ("Enter", "payment", "0")
    assert page.pressed == []


async def test_pressing_enter_on_a_card_form_stops_before_the_key() -> None:
    page = FakeSurface(CARD_FORM)
    result = await run([{"press": "Enter"}], page)
    assert result.status is RunStatus.GATED
    assert result.gate is not None and result.gate.key == "Enter"
    approved = await run([{"press": "Enter"}], page, allow_destructive=True)
    assert approved.status is RunStatus.COMPLETED
    assert page.pressed == ["Enter"]


async def test_a_page_that_cannot_be_read_fails_the_step_not_the_whole_run() -> None:
    page = FakeSurface(CARD_FORM)
    result = await run([{"enter": "Asha", "into": "Card number"}], page)
    assert result.status is RunStatus.COMPLETED
    page.unreadable = True
    result = await run([{"press": "Tab"}, {"verify": {"shows": "Thank you"}}], page)
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and result.failure.path == "1"
    assert "the page could not be read" in result.failure.reason
    assert result.spend.actions == 1
    assert [r.outcome for r in result.steps] == ["done", "failed"]


def counting_decider(*answers: str) -> tuple[VotingDecider, ScriptedModel]:
    """A real decider on a scripted model (which counts what it was asked)."""
    model = ScriptedModel(answers)
    return VotingDecider(model), model


TWO_CONTINUES = Screen(
    "https://shop.example.com/",
    "Shop",
    (),
    (
        Element("e1", "button", "Continue", box=Box(0, 0, 80, 20)),
        Element("e2", "button", "Continue", box=Box(0, 50, 80, 20)),
    ),
)
DETAILS = Screen(
    "https://shop.example.com/details",
    "Your details",
    (TextLine("Your details", Box(0, 0, 200, 20), heading=1),),
    (),
)


def shop() -> FakeSurface:
    """The shop's first page, where either Continue leads to the details page."""
    return FakeSurface(TWO_CONTINUES, after_click={"e1": DETAILS, "e2": DETAILS})


async def test_with_no_model_calls_left_a_doubtful_grounding_goes_on_without_the_decider() -> None:
    decider, model = counting_decider('{"choice": 2}')
    page = shop()
    req = RunRequest(flow=parse_flow([{"click": "Continue"}]), budget=RunBudget(max_model_calls=0))
    result = await run_flow(req, Workspace.on(page), settings=FAST, decider=decider)
    assert result.status is RunStatus.COMPLETED
    assert (len(model.calls), page.clicked, page.url) == (0, ["e1"], DETAILS.url)
    # With one call left, the vote steps down to a single one (and picks the other Continue).
    page = shop()
    req = RunRequest(flow=parse_flow([{"click": "Continue"}]), budget=RunBudget(max_model_calls=1))
    result = await run_flow(req, Workspace.on(page), settings=FAST, decider=decider)
    assert result.status is RunStatus.COMPLETED
    assert len(model.calls) == 1 and result.spend.model_calls == 1
    assert result.steps[0].model_calls == 1
    assert page.clicked == ["e2"]


async def test_a_judged_item_inside_all_or_any_is_one_item_not_the_whole_condition() -> None:
    holds = '{"holds": true}'
    model = ScriptedModel([holds] * 14)  # judges every condition in words as holding
    decider = VotingDecider(model, votes=1)
    page = FakeSurface(TWO_CONTINUES)
    both = {"all": ["a cookie banner is showing", {"shows": "Order placed"}]}
    either = {"any": [{"shows": "Order placed"}, "a cookie banner is showing"]}
    result = await run_flow(
        RunRequest(flow=parse_flow([{"verify": both}])),
        Workspace.on(page),
        settings=FAST,
        decider=decider,
    )
    assert result.status is RunStatus.FAILED
    result = await run_flow(
        RunRequest(flow=parse_flow([{"verify": either}])),
        Workspace.on(page),
        settings=FAST,
        decider=decider,
    )
    assert result.status is RunStatus.COMPLETED
    asked = len(model.calls)
    result = await run_flow(
        RunRequest(
            flow=parse_flow(
                [{"verify": {"all": [{"shows": "Order placed"}, "a cookie banner is showing"]}}]
            )
        ),
        Workspace.on(page),
        settings=FAST,
        decider=decider,
    )
    assert result.status is RunStatus.FAILED and len(model.calls) == asked  # no call needed
