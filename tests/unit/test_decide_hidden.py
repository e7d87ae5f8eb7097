"""Controls out of sight on a captured admin list: which closed menus may hold a
control, the runtime opening them for click and stop_before, and table values read by
their row and column."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from gofer.decide import read_value
from gofer.decide.hidden import openers
from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunStatus, RuntimeSettings, Workspace, run_flow
from gofer.surfaces.screen import Box, Element, Screen
from gofer.surfaces.testing import FakeSurface

SCREENS = Path(__file__).parent / "screens"
FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


def _invoices() -> Screen:
    return FakeSurface.captured(SCREENS / "invoices.json").screen


def _menu_open(screen: Screen, kebab: str, items: tuple[str, ...]) -> Screen:
    """``screen`` after the row menu ``kebab`` opened, showing ``items`` under it."""
    opener = screen.element(kebab)
    assert opener is not None
    shown = tuple(
        Element(
            f"m{i}",
            "menuitem",
            name,
            tag="button",
            text=name,
            record=opener.record,
            box=Box(opener.box.x - 80, opener.box.y + 24 + 22 * i, 110, 20),
        )
        for i, name in enumerate(items)
    )
    elements = tuple(replace(e, expanded=True) if e.ref == kebab else e for e in screen.elements)
    return replace(screen, elements=elements + shown)


def test_openers_are_menus_first_then_collapsed_sections_and_stay_within_a_record() -> None:
    screen = _invoices()
    assert [e.ref for e in openers(screen)] == ["e1", "e2", "e4", "e6", "e7"]
    assert [e.ref for e in openers(screen, "invoice 42")] == ["e4"]
    assert [e.ref for e in openers(screen, "Chen Li")] == ["e6"]
    assert openers(screen, "invoice 99") == []


def test_a_table_value_is_read_by_its_row_and_column_words() -> None:
    screen = _invoices()
    assert read_value("the Status of invoice 42", screen) == "Overdue"
    assert read_value("the status of invoice #43", screen) == "Paid"
    assert read_value("Amount for Chen Li", screen) == "$310.00"
    assert read_value("invoice 41's status", screen) == "Archived"
    assert read_value("the Customer of the last row", screen) == "Chen Li"


async def test_a_click_opens_the_records_menu_and_presses_the_control_in_it() -> None:
    screen = _invoices()
    opened = _menu_open(screen, "e4", ("Download PDF", "Send reminder", "Delete invoice"))
    done = _menu_open(opened, "e4", ())
    page = FakeSurface(screen, after_click={"e4": opened, "m0": done})
    flow = parse_flow([{"click": "Download PDF", "within": "invoice 42"}])
    result = await run_flow(RunRequest(flow=flow), Workspace.on(page), settings=FAST)
    assert result.status is RunStatus.COMPLETED, result.failure
    assert page.clicked == ["e4", "m0"]
    assert any(e.event == "reveal" and e.detail["opener"] == "Row actions" for e in result.trace)


async def test_a_menu_that_does_not_hold_the_control_is_closed_and_the_next_tried() -> None:
    screen = _invoices()
    bulk = _menu_open(screen, "e1", ("Export CSV",))
    row = _menu_open(screen, "e2", ("Download PDF",))
    page = FakeSurface(screen, after_click={"e1": bulk, "e2": row})
    flow = parse_flow([{"stop_before": "Download PDF"}])
    result = await run_flow(RunRequest(flow=flow), Workspace.on(page), settings=FAST)
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None and result.gate.label == "Download PDF"
    assert page.clicked[:2] == ["e1", "e1"]  # opened, did not hold it, closed again
    assert page.pressed == ["Escape"]
    assert "m0" not in page.clicked  # stopped in front of it, never pressed
