"""Every widget kind of the trip request on Python app frameworks, run as a user writes
the flow (the same tasks as the component kits), judged by what each app recorded.
Added with their first run recorded before any engine change for them (the closing
note of the session that added them)."""

from __future__ import annotations

from typing import Any

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener
from ..bundles import ACTION_TIMEOUT_MS
from ..kits.tasks import KINDS, SUBMIT
from ..tasks import expect_known
from .conftest import App

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

FRAMEWORKS = (
    "nicegui", "streamlit", "gradio", "dash", "shiny", "panel", "solara", "mesop", "taipy",
)  # fmt: skip

KNOWN: dict[str, str] = {
    "dash-date": "Dash 4's date picker (a Radix popover over its input, DD/MM/YYYY): the "
    "calendar does not open under gofer's clicks and the date typed as written is thrown "
    "away ('the field does not show what was typed'); typed as 14/10/2027 it holds",
    "solara-slider": "Solara's SliderInt (Vuetify 2's v-slider): the role=slider element that "
    "carries the aria-label is the thumb's container, a 0x0 box (the 12 px thumb drawn is its "
    "child), and the caption's label points at a display:none read-only input, so gofer sees no "
    "slider and only the caption as a weak 'clickable' ('the best match for ... is weak "
    "(0.30)'); a person drags the thumb, or clicks it and presses the arrow keys",
    "taipy-searchable-select": "Taipy's selector with its filter (not a dropdown: Taipy labels "
    "only those) is a 'Search field' input named by its placeholder alone over a <ul> of "
    "role=button rows (no listbox, no options), captioned by a plain text above; gofer finds "
    "nothing named 'Destination', takes the unnamed MUI combobox further down (Interests) and "
    "says 'no option matches 'Lisbon' (there are: Museums, Food, Hiking, Nightlife, Beaches)'; "
    "a person types Lis into the search field under the caption and clicks Lisbon",
}
"""Tasks that fail today, each with its cause (strict: one that passes must leave)."""

RACING: dict[str, str] = {
    "mesop-slider": "Mesop's slider (an MDC <input type=range>) sends its value 300 ms after its "
    "last change (debounceTime in Mesop's component, then an HTTP event, no socket): gofer "
    "pressed ArrowRight until it read 250 and clicked 'Send request' within those 300 ms, so "
    "the send reached the app first (budget 100) and the slider's 250 came after, refused as "
    "'Unknown handler id' (the form was gone), yet gofer said done: WRONG DONE on some runs; "
    "a person looks at the slider before sending",
}
"""Tasks that fail on some runs only, each with its cause (not strict: a race)."""


async def judge(
    app: App, steps: list[dict[str, Any]], want: dict[str, str], run_open: Opener
) -> None:
    mark = len(app.posted)
    flow = [{"browse": app.url}, *steps, SUBMIT]
    async with run_open(flow, allow_destructive=True, action_timeout_ms=ACTION_TIMEOUT_MS) as done:
        result = done.result
    posted = app.posted[mark:]
    if result.status is RunStatus.COMPLETED:
        assert len(posted) == 1, posted
        got = {key: posted[0].get(key) for key in want}
        assert got == want, f"done with the wrong values: {posted[0]}"
    assert result.status is RunStatus.COMPLETED, result.failure or (
        result.status.value,
        result.gate,
    )


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("framework", FRAMEWORKS)
async def test_a_trip_request_field(
    framework: str, kind: str, run_open: Opener, request: pytest.FixtureRequest
) -> None:
    expect_known(request, KNOWN, f"{framework}-{kind}")
    if f"{framework}-{kind}" in RACING:
        request.applymarker(pytest.mark.xfail(reason=RACING[f"{framework}-{kind}"], strict=False))
    app = request.getfixturevalue(framework)
    steps, want = KINDS[kind]
    await judge(app, steps, want, run_open)
