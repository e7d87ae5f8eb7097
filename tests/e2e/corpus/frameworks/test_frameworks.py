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

KNOWN: dict[str, str] = {}
"""Tasks that fail today, each with its cause (strict: one that passes must leave)."""


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
    app = request.getfixturevalue(framework)
    steps, want = KINDS[kind]
    await judge(app, steps, want, run_open)
