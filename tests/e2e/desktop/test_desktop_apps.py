"""Flows on real Debian desktop applications under Xvfb, read and driven through AT-SPI:
a GTK3 editor (mousepad), a GTK4 calculator (gnome-calculator) and a zenity dialog.

Each test gets a virtual desktop of its own (its workspace's); the outcome is judged by
the application's own state (its accessible text, zenity's output), not by a step of
the flow.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import pytest

from gofer.flow import JSONValue, parse_flow
from gofer.runtime import RunRequest, RunResult, RunStatus, RuntimeSettings, Workspace, run_flow
from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.surfaces import BrowserOptions
from gofer.surfaces.desktop import DesktopSurface, desktop_available
from gofer.surfaces.live import KeyInput, LiveFrame, PointerInput

AVAILABLE, MISSING = desktop_available()
pytestmark = pytest.mark.skipif(not AVAILABLE, reason=f"no desktop here: {MISSING}")

SETTINGS = RuntimeSettings(target_timeout_ms=3_000, settle_timeout_ms=5_000, wait_timeout_ms=5_000)


@pytest.fixture
async def desktop_only() -> AsyncIterator[Workspace]:
    async with Workspace(None, BrowserOptions(), surfaces=("desktop",)) as workspace:
        yield workspace


async def run(
    workspace: Workspace,
    steps: Sequence[Mapping[str, Any]],
    variables: Mapping[str, JSONValue] | None = None,
) -> RunResult:
    request = RunRequest(flow=parse_flow(list(steps)), variables=dict(variables or {}))
    return await run_flow(request, workspace, settings=SETTINGS)


def failure(result: RunResult) -> str:
    return "" if result.failure is None else f"{result.failure.path}: {result.failure.reason}"


async def test_mousepad_takes_text_from_a_fact_and_reads_it_back(
    desktop_only: Workspace,
) -> None:
    note = "Pick up 3 parcels before noon"
    result = await run(
        desktop_only,
        [
            {"open": "Mousepad"},
            {"enter": "${note}", "into": "Untitled 1 - Mousepad"},
            {"read": "Untitled 1 - Mousepad", "as": "typed"},
        ],
        {"note": note},
    )
    assert result.status is RunStatus.COMPLETED, failure(result)
    assert note in str(result.variables["typed"])
    desktop = await desktop_only.desktop()
    screen = await desktop.snapshot()
    fields = [el for el in screen.elements if el.role == "textbox" and el.editable]
    assert [el.value for el in fields] == [note]


async def test_keys_typed_into_an_editor_as_a_person_would(desktop_only: Workspace) -> None:
    desktop = await desktop_only.desktop()
    await desktop.open("Mousepad")
    screen = await desktop.snapshot()
    field = next(el for el in screen.elements if el.role == "textbox" and el.editable)
    await desktop.type_keys(field.ref, "Dear Asha,")
    await desktop.press("Enter")
    await desktop.type_keys(field.ref, "see you at 5")
    assert await desktop.read_value(field.ref) == "Dear Asha,\nsee you at 5"


async def test_gnome_calculator_gtk4_multiplies(desktop_only: Workspace) -> None:
    result = await run(
        desktop_only,
        [
            {"open": "Calculator"},
            {"click": "7"},
            {"click": "Multiply"},
            {"click": "3"},
            {"click": "Calculate Result"},
        ],
    )
    assert result.status is RunStatus.COMPLETED, failure(result)
    desktop = await desktop_only.desktop()
    screen = await desktop.snapshot()
    display = [el for el in screen.elements if el.role == "textbox" and el.editable]
    assert [el.value for el in display] == ["21"]
    # GTK4 measures its extents from the window: corrected, the "=" button lies on the
    # window where the screen shows it, not at the top-left of the display
    window = next(el for el in screen.elements if el.name == "Close")
    equals = next(el for el in screen.elements if el.name == "=")
    assert window.box.x > 0 and window.box.y > 0
    assert equals.box.y > window.box.y


async def test_gnome_calculator_by_the_glyphs_on_its_buttons(desktop_only: Workspace) -> None:
    result = await run(
        desktop_only,
        [
            {"open": "Calculator"},
            {"click": "7"},
            {"click": "×"},
            {"click": "3"},
            {"click": "="},
            {"read": "the result", "as": "result"},
        ],
    )
    assert result.status is RunStatus.COMPLETED, failure(result)
    assert result.variables["result"] == "21"
    screen = await (await desktop_only.desktop()).snapshot()
    display = [el for el in screen.elements if el.role == "textbox" and el.editable]
    assert [el.value for el in display] == ["21"]


async def test_zenity_scale_set_and_confirmed(desktop_only: Workspace) -> None:
    desktop = await desktop_only.desktop()
    dialog = await desktop.launch(
        [
            "zenity",
            "--scale",
            "--title=Volume",
            "--text=Speaker volume",
            "--min-value=0",
            "--max-value=100",
            "--value=10",
        ],
        stdout=asyncio.subprocess.PIPE,
    )
    result = await run(
        desktop_only,
        [
            {"enter": "65", "into": "Speaker volume", "surface": "desktop"},
            {"click": "OK"},
        ],
    )
    assert result.status is RunStatus.COMPLETED, failure(result)
    stdout = dialog.process.stdout
    assert stdout is not None
    printed = await asyncio.wait_for(stdout.read(), 10)
    assert printed.decode().strip() == "65"
    assert await asyncio.wait_for(dialog.process.wait(), 10) == 0


async def test_a_menu_item_toggles_the_status_bar(desktop_only: Workspace) -> None:
    async def status_bars(desktop: DesktopSurface) -> int:
        reply = await desktop._ask({"op": "walk"})
        return sum(1 for node in reply["nodes"] if node["role"] == "status bar")

    result = await run(desktop_only, [{"open": "Mousepad"}])
    assert result.status is RunStatus.COMPLETED, failure(result)
    desktop = await desktop_only.desktop()
    before = await status_bars(desktop)
    # a second open (a resumed task runs it again) finds the editor already running
    result = await run(
        desktop_only, [{"open": "Mousepad"}, {"click": "View"}, {"click": "Statusbar"}]
    )
    assert result.status is RunStatus.COMPLETED, failure(result)
    assert await status_bars(desktop) == 1 - before


async def test_a_desktop_task_has_no_browser(desktop_only: Workspace) -> None:
    result = await run(desktop_only, [{"open": "Mousepad"}, {"browse": "https://example.org/"}])
    assert result.status is RunStatus.FAILED
    assert "may not use the browser" in failure(result)
    assert [r.outcome.value for r in result.steps] == ["done", "failed"]
    assert not desktop_only.has_browser


async def test_a_browser_task_gets_no_display() -> None:
    async with Workspace(None, BrowserOptions(), surfaces=("browser",)) as workspace:
        result = await run(workspace, [{"open": "Calculator"}])
        assert result.status is RunStatus.FAILED
        assert "may not use the desktop" in failure(result)
        assert not workspace.has_desktop


async def test_describe_reports_the_desktop_available() -> None:
    async with WorkspaceRunner() as runner:
        surfaces = runner.available_surfaces()
    assert surfaces["desktop"] is None, surfaces["desktop"]


async def test_stop_before_gates_an_irreversible_desktop_control(desktop_only: Workspace) -> None:
    desktop = await desktop_only.desktop()
    dialog = await desktop.launch(
        [
            "zenity",
            "--question",
            "--text=Delete the 3 selected photos?",
            "--ok-label=Delete",
            "--cancel-label=Keep",
        ]
    )
    result = await run(desktop_only, [{"stop_before": "deleting the photos", "surface": "desktop"}])
    assert result.status is RunStatus.GATED, failure(result)
    assert result.gate is not None
    assert dialog.running  # nothing pressed Delete: the dialog still waits
    # a click on it is gated too: the task did not allow what cannot be undone
    result = await run(desktop_only, [{"click": "Delete", "surface": "desktop"}])
    assert result.status is RunStatus.GATED, failure(result)
    assert dialog.running


async def test_a_secret_is_typed_but_never_shown(desktop_only: Workspace) -> None:
    canary = "canary-PIN-4417"
    desktop = await desktop_only.desktop()
    dialog = await desktop.launch(
        ["zenity", "--password", "--title=Unlock the vault"], stdout=asyncio.subprocess.PIPE
    )
    mask = lambda text: text.replace(canary, "••••")  # noqa: E731
    results = []
    for steps in (
        [{"enter": "${pin}", "into": "Password", "surface": "desktop"}],
        [{"click": "OK"}],
    ):
        request = RunRequest(
            flow=parse_flow(steps),
            variables={"pin": canary},
            private=frozenset({"pin"}),
            mask=mask,
        )
        results.append(await run_flow(request, desktop_only, settings=SETTINGS))
        assert results[-1].status is RunStatus.COMPLETED, failure(results[-1])
        if len(results) == 1:
            shown = [await desktop.snapshot(mask), await desktop.snapshot()]
            field = next(el for el in shown[0].elements if el.role == "textbox")
            assert field.input_type == "password" and field.value
    stdout = dialog.process.stdout
    assert stdout is not None
    assert (await asyncio.wait_for(stdout.read(), 10)).decode().strip() == canary
    for result in results:
        assert canary not in repr(result.steps) + repr(result.trace) + repr(result.changed)
    assert canary not in repr(shown)


async def test_a_wall_is_read_from_the_desktop_screen(desktop_only: Workspace) -> None:
    desktop = await desktop_only.desktop()
    await desktop.launch(
        ["zenity", "--entry", "--title=Sign in", "--text=Enter the one-time code we sent you"]
    )
    result = await run(desktop_only, [{"click": "Open my account", "surface": "desktop"}])
    assert result.status is RunStatus.FAILED
    assert result.wall is not None
    assert "one-time code" in result.screen_text


async def test_a_person_drives_the_desktop_through_its_live_view(
    desktop_only: Workspace,
) -> None:
    desktop = await desktop_only.desktop()
    await desktop.open("Calculator")
    screen = await desktop.snapshot()
    seven = next(el for el in screen.elements if el.name == "7")
    async with await desktop.live() as view:
        frames = view.frames()
        first = await anext(frames)
        assert isinstance(first, LiveFrame) and first.data.startswith(b"\x89PNG")
        assert (first.width, first.height) == view.size == (1280, 800)
        await view.pointer(PointerInput("down", seven.box.cx, seven.box.cy))
        await view.pointer(PointerInput("up", seven.box.cx, seven.box.cy))
        await view.key(KeyInput("down", "Shift"))
        await view.text("*6")
        await view.key(KeyInput("up", "Shift"))
        await view.key(KeyInput("down", "Enter"))
        await view.key(KeyInput("up", "Enter"))
        repainted = await asyncio.wait_for(anext(frames), 10)
        assert isinstance(repainted, LiveFrame) and repainted.data != first.data
    await desktop.settle(2000)
    screen = await desktop.snapshot()
    display = [el.value for el in screen.elements if el.role == "textbox" and el.editable]
    assert display == ["42"]


async def test_a_zenity_form_takes_a_choice_and_a_name(desktop_only: Workspace) -> None:
    desktop = await desktop_only.desktop()
    form = await desktop.launch(
        [
            "zenity",
            "--forms",
            "--title=Order",
            "--text=Your order",
            "--add-combo=Fruit",
            "--combo-values=Apple|Banana|Cherry",
            "--add-entry=Name",
        ],
        stdout=asyncio.subprocess.PIPE,
    )
    result = await run(
        desktop_only,
        [
            {"choose": "Banana", "in": "Fruit", "surface": "desktop"},
            {"enter": "Asha", "into": "Name"},
            {"click": "OK"},
        ],
    )
    assert result.status is RunStatus.COMPLETED, failure(result)
    stdout = form.process.stdout
    assert stdout is not None
    assert (await asyncio.wait_for(stdout.read(), 10)).decode().strip() == "Banana|Asha"
