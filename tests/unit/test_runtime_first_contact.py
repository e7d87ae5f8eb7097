"""The runtime on the first-contact screens (issue 28) through the fake surface: no
``done`` on weak evidence, state words on the box they name, each choice read back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunResult, RunStatus, RuntimeSettings, Workspace, run_flow
from gofer.surfaces import Selection
from gofer.surfaces.screen import Box, Screen, TextLine
from gofer.surfaces.testing import FakeSurface

SCREENS = Path(__file__).parent / "screens"
FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


def _page(name: str, **kwargs: Any) -> FakeSurface:
    return FakeSurface.captured(SCREENS / f"{name}.json", **kwargs)


async def _run(page: FakeSurface, steps: list[dict[str, str]]) -> RunResult:
    request = RunRequest(flow=parse_flow(steps))
    return await run_flow(request, Workspace.on(page), settings=FAST)


async def test_ticked_acts_on_the_one_box_of_a_fieldset_the_words_name() -> None:
    page = _page("fc_preferences")
    result = await _run(page, [{"choose": "ticked", "in": "Mark all edits minor by default"}])
    assert result.status is RunStatus.COMPLETED, result.failure
    assert [await page.read_value(r) for r in ("e1", "e2", "e3")] == ["true", "true", "true"]
    result = await _run(page, [{"choose": "unticked", "in": "Show edit toolbar"}])
    assert result.status is RunStatus.COMPLETED, result.failure
    assert await page.read_value("e2") == "false"


async def test_an_option_that_names_neither_the_box_nor_a_state_is_never_done() -> None:
    page = _page("fc_booking")
    result = await _run(page, [{"choose": "Parking", "in": "Breakfast"}])
    assert result.status is RunStatus.FAILED
    assert page.clicked == []


async def test_two_boxes_of_a_captioned_group_are_each_ticked() -> None:
    page = _page("fc_booking")
    result = await _run(
        page,
        [{"choose": "Breakfast", "in": "Extras"}, {"choose": "Parking", "in": "Extras"}],
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert [await page.read_value(r) for r in ("e9", "e10", "e11")] == ["true", "true", "false"]


async def test_a_click_on_part_of_the_words_is_refused_with_no_decider() -> None:
    page = _page("fc_wiki_edit")
    result = await _run(page, [{"click": "Publish page"}])
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and "weak" in result.failure.reason
    assert page.clicked == []


async def test_a_bare_confirm_on_a_reversible_form_is_pressed() -> None:
    done = Screen(
        "http://pages.test/saved", "Saved", (TextLine("Saved", Box(0, 0, 100, 20), 1),), ()
    )
    page = _page("fc_protect", after_click={"e3": done})
    result = await _run(page, [{"click": "Confirm"}])
    assert result.status is RunStatus.COMPLETED, result.failure
    assert page.clicked == ["e3"]


class _TakesEverything(FakeSurface):
    """A multiple select whose page selects every option once one is chosen."""

    taken: frozenset[str] = frozenset()

    async def selection(self, ref: str) -> Selection:
        el = self.screen.element(ref)
        assert el is not None
        if ref in self.taken:
            return Selection(True, tuple(range(len(el.options))))
        return Selection(True, ())

    async def select_option(self, ref: str, label: str, *, add: bool = False) -> Any:
        self.taken = self.taken | {ref}
        return await super().select_option(ref, label, add=add)


async def test_a_multiple_select_that_took_every_option_fails_the_step() -> None:
    page = _TakesEverything.captured(SCREENS / "fc_preferences.json")
    result = await _run(page, [{"choose": "python", "in": "Tags"}])
    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert "python, rust, go, java, ruby" in result.failure.reason
