"""The runtime on a scripted page (no browser): edge cases found in review."""

from __future__ import annotations

from typing import Any

from gofer.errors import SurfaceError
from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RuntimeSettings, run_flow
from gofer.runtime.types import RunBudget, RunStatus
from gofer.surfaces import ActionEffect
from gofer.surfaces.screen import Box, Element, Screen, TextLine

CARD_FORM = Screen(
    "https://shop.example.com/pay", "Pay",
    (TextLine("Card number", Box(10, 10, 100, 20)), TextLine("CVV", Box(10, 40, 100, 20))),
    (Element("e1", "textbox", "Card number", editable=True, box=Box(120, 10, 200, 20)),),
)

FAST = RuntimeSettings(target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50,
                       change_grace_ms=10)


class FakePage:
    """Just enough of a browser surface for the runtime: one screen, fields that keep values."""

    def __init__(self, screen: Screen, *, broken: bool = False) -> None:
        self.screen = screen
        self.broken = broken
        self.values: dict[str, str] = {}
        self.pressed: list[str] = []
        self.clicked: list[str] = []
        self.pages = 1
        self.blocked: list[str] = []
        self.url = screen.url

    async def snapshot(self, mask: Any = None) -> Screen:
        if self.broken:
            raise SurfaceError("could not read the page", code="SNAPSHOT_FAILED")
        return self.screen

    async def fill(self, ref: str, text: str) -> ActionEffect:
        self.values[ref] = text
        return ActionEffect(dom_changed=True)

    async def read_value(self, ref: str) -> str:
        return self.values.get(ref, "")

    async def click(self, ref: str) -> ActionEffect:
        self.clicked.append(ref)
        return ActionEffect(dom_changed=True)

    async def press(self, key: str) -> ActionEffect:
        self.pressed.append(key)
        return ActionEffect(dom_changed=True)

    async def wait_for_change(self, timeout_ms: int) -> bool:
        return False

    async def settle(self, timeout_ms: int) -> None:
        return None


class FakeWorkspace:
    def __init__(self, page: FakePage) -> None:
        self.page = page

    async def browser(self) -> FakePage:
        return self.page


async def run(steps: list[dict[str, Any]], page: FakePage, **request: Any) -> Any:
    req = RunRequest(flow=parse_flow(steps), **request)
    return await run_flow(req, FakeWorkspace(page), settings=FAST)  # type: ignore[arg-type]


async def test_enter_with_submit_on_a_card_form_stops_before_the_enter_key() -> None:
    page = FakePage(CARD_FORM)
    result = await run([{"enter": "4111 1111 1111 1111", "into": "Card number",
                         "submit": True}], page)
    assert result.status is RunStatus.GATED
    assert result.gate is not None
    assert (result.gate.key, result.gate.consequence, result.gate.path) == ("Enter", "payment",
                                                                           "0")
    assert page.pressed == []


async def test_pressing_enter_on_a_card_form_stops_before_the_key() -> None:
    page = FakePage(CARD_FORM)
    result = await run([{"press": "Enter"}], page)
    assert result.status is RunStatus.GATED
    assert result.gate is not None and result.gate.key == "Enter"
    approved = await run([{"press": "Enter"}], page, allow_destructive=True)
    assert approved.status is RunStatus.COMPLETED
    assert page.pressed == ["Enter"]


async def test_a_page_that_cannot_be_read_fails_the_step_not_the_whole_run() -> None:
    page = FakePage(CARD_FORM)
    result = await run([{"enter": "Asha", "into": "Card number"}], page)
    assert result.status is RunStatus.COMPLETED
    page.broken = True
    result = await run([{"press": "Tab"}, {"verify": {"shows": "Thank you"}}], page)
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and result.failure.path == "1"
    assert "could not read the page" in result.failure.reason
    assert result.spend.actions == 1
    assert [r.outcome for r in result.steps] == ["done", "failed"]


class CountingDecider:
    def __init__(self) -> None:
        self.asked = 0

    async def choose(self, query: Any, screen: Screen, grounding: Any) -> Element | None:
        self.asked += 1
        return grounding.candidates[-1].element

    async def judge(self, condition: str, screen: Screen) -> bool:
        self.asked += 1
        return True


TWO_CONTINUES = Screen(
    "https://shop.example.com/", "Shop", (),
    (Element("e1", "button", "Continue", box=Box(0, 0, 80, 20)),
     Element("e2", "button", "Continue", box=Box(0, 50, 80, 20))),
)


async def test_with_no_model_calls_left_a_doubtful_grounding_goes_on_without_the_decider() -> None:
    decider = CountingDecider()
    page = FakePage(TWO_CONTINUES)
    req = RunRequest(flow=parse_flow([{"click": "Continue"}]),
                     budget=RunBudget(max_model_calls=0))
    result = await run_flow(req, FakeWorkspace(page), settings=FAST,  # type: ignore[arg-type]
                            decider=decider)
    assert result.status is RunStatus.COMPLETED
    assert (decider.asked, page.clicked) == (0, ["e1"])
    # With calls left, the decider is asked.
    req = RunRequest(flow=parse_flow([{"click": "Continue"}]), budget=RunBudget(max_model_calls=1))
    result = await run_flow(req, FakeWorkspace(page), settings=FAST,  # type: ignore[arg-type]
                            decider=decider)
    assert result.status is RunStatus.COMPLETED
    assert decider.asked == 1 and result.spend.model_calls == 1


async def test_a_judged_item_inside_all_or_any_is_one_item_not_the_whole_condition() -> None:
    decider = CountingDecider()  # judges every condition in words as holding
    page = FakePage(TWO_CONTINUES)
    both = {"all": ["a cookie banner is showing", {"shows": "Order placed"}]}
    either = {"any": [{"shows": "Order placed"}, "a cookie banner is showing"]}
    result = await run_flow(RunRequest(flow=parse_flow([{"verify": both}])),
                            FakeWorkspace(page), settings=FAST,  # type: ignore[arg-type]
                            decider=decider)
    assert result.status is RunStatus.FAILED
    result = await run_flow(RunRequest(flow=parse_flow([{"verify": either}])),
                            FakeWorkspace(page), settings=FAST,  # type: ignore[arg-type]
                            decider=decider)
    assert result.status is RunStatus.COMPLETED
    asked = decider.asked
    result = await run_flow(RunRequest(flow=parse_flow([{"verify": {"all": [
        {"shows": "Order placed"}, "a cookie banner is showing"]}}])),
        FakeWorkspace(page), settings=FAST, decider=decider)  # type: ignore[arg-type]
    assert result.status is RunStatus.FAILED and decider.asked == asked  # no call needed
