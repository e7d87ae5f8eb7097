"""The fake surface (``gofer.surfaces.testing``) and the one map of Playwright's errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from gofer.errors import BlockedOrigin, SurfaceError, SurfaceTimeout
from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunStatus, RuntimeSettings, Workspace, run_flow
from gofer.surfaces import Surface
from gofer.surfaces.failures import playwright_errors, surface_error
from gofer.surfaces.screen import Box, Element, Screen, TextLine
from gofer.surfaces.testing import FakeSurface

SCREENS = Path(__file__).parent / "screens"
FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)

FORM = Screen(
    "https://example.com/form",
    "Form",
    (TextLine("Sign up", Box(0, 0, 100, 20), heading=1),),
    (
        Element("e1", "textbox", "Name", editable=True, box=Box(0, 30, 200, 20)),
        Element("e2", "checkbox", "Newsletter", checked=False, box=Box(0, 60, 20, 20)),
        Element(
            "e3",
            "combobox",
            "Plan",
            tag="select",
            value="Free",
            options=("Free", "Pro"),
            box=Box(0, 90, 200, 20),
        ),
        Element("e4", "button", "Next", box=Box(0, 120, 80, 20)),
        Element("e5", "button", "Does nothing", box=Box(100, 120, 80, 20)),
    ),
)
SENT = Screen("https://example.com/sent", "Sent", (TextLine("Thank you", Box(0, 0, 100, 20)),), ())


def test_the_fake_is_a_surface() -> None:
    assert isinstance(FakeSurface(FORM), Surface)


async def test_a_run_on_the_fake_changes_what_its_page_shows() -> None:
    page = FakeSurface(FORM, after_click={"e4": SENT})
    flow = parse_flow(
        [
            {"enter": "Asha", "into": "Name"},
            {"choose": "Newsletter", "in": "Newsletter"},
            {"choose": "Pro", "in": "Plan"},
            {"verify": {"shows": "Asha"}},
        ]
    )
    result = await run_flow(RunRequest(flow=flow), Workspace.on(page), settings=FAST)
    assert result.status is RunStatus.COMPLETED, result.failure
    shown = await page.snapshot()
    assert [(e.value, e.checked) for e in shown.elements[:3]] == [
        ("Asha", None),
        ("", True),
        ("Pro", None),
    ]
    result = await run_flow(
        RunRequest(flow=parse_flow([{"click": "Next"}])), Workspace.on(page), settings=FAST
    )
    assert result.status is RunStatus.COMPLETED and page.url == SENT.url


async def test_the_fake_reads_several_values_at_once() -> None:
    page = FakeSurface(FORM)
    await page.fill("e1", "Asha")
    assert await page.read_values(["e1", "e2", "e99"]) == ["Asha", "false", None]


async def test_a_click_the_fake_does_not_know_changes_nothing() -> None:
    page = FakeSurface(FORM)
    result = await run_flow(
        RunRequest(flow=parse_flow([{"click": "Does nothing"}])), Workspace.on(page), settings=FAST
    )
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and "changed nothing" in result.failure.reason
    assert page.clicked == ["e5"]


async def test_the_fake_masks_its_snapshot_and_reads_values_unmasked() -> None:
    page = FakeSurface(FORM)
    await page.fill("e1", "s3cret-canary")
    masked = await page.snapshot(lambda s: s.replace("s3cret-canary", "[secret]"))
    assert masked.elements[0].value == "[secret]"
    assert await page.read_value("e1") == "s3cret-canary"


async def test_the_fake_refuses_what_a_page_would() -> None:
    page = FakeSurface(
        FORM, sites={"https://example.com/sent": SENT}, origins=("https://example.com",)
    )
    with pytest.raises(SurfaceError) as stale:
        await page.click("e99")
    assert stale.value.code == "STALE_REF"
    with pytest.raises(BlockedOrigin):
        await page.goto("https://elsewhere.example.org/")
    assert page.blocked == ["https://elsewhere.example.org/"]
    await page.goto("https://example.com/sent")
    assert (await page.snapshot()).text == "Thank you"


def test_a_captured_screen_loads_into_the_fake() -> None:
    page = FakeSurface.captured(SCREENS / "login.json")
    assert page.url.startswith("http") and page.screen.elements


def test_playwright_errors_map_to_gofer_errors_with_their_first_line() -> None:
    timeout = surface_error(
        PlaywrightTimeout("Timeout 50ms exceeded.\n=== logs ==="),
        "could not click e1",
        code="ACTION_FAILED",
        timeout_code="ACTION_TIMEOUT",
        ref="e1",
    )
    assert isinstance(timeout, SurfaceTimeout)
    assert (timeout.code, timeout.message) == (
        "ACTION_TIMEOUT",
        "could not click e1: Timeout 50ms exceeded.",
    )
    assert timeout.details == {"reason": "Timeout 50ms exceeded.", "ref": "e1"}
    other = surface_error(
        PlaywrightError("Target closed"), "could not load x", code="NAVIGATION_FAILED"
    )
    assert type(other) is SurfaceError and other.code == "NAVIGATION_FAILED"
    with (
        pytest.raises(SurfaceError) as raised,
        playwright_errors(
            "element e2 is no longer on the page", code="STALE_REF", show_reason=False
        ),
    ):
        raise PlaywrightError("Execution context was destroyed")
    assert raised.value.message == "element e2 is no longer on the page"
    assert isinstance(raised.value.__cause__, PlaywrightError)
