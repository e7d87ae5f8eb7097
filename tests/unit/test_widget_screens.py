"""Date widgets of real libraries, on screens captured from the widget corpus
(``tools/capture_screens.py``: jQuery UI's datepicker, flatpickr, Litepicker, cally
and daterangepicker open, separate day/month/year selects, React Aria-style date segments): what the
screen rules read on them, and what the runtime does through the fake surface."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

from gofer.decide.dates import (
    calendar_controls,
    calendar_month,
    calendar_nav,
    day_cells,
    day_in_month,
    shown_months,
    shows_calendar,
)
from gofer.decide.options import match_date_cell
from gofer.decide.split import part_values, split_fields
from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunStatus, RuntimeSettings, Workspace, run_flow
from gofer.surfaces.screen import Box, Element, Screen
from gofer.surfaces.testing import FakeSurface

SCREENS = Path(__file__).parent / "screens"
FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


def _captured(name: str) -> Screen:
    return FakeSurface.captured(SCREENS / f"{name}.json").screen


def _page_fields(screen: Screen) -> frozenset[str]:
    """The refs of the page's own controls (those before the calendar opened)."""
    return frozenset(e.ref for e in screen.elements if e.role in ("textbox", "button") and e.name)


def _cell(screen: Screen, day: date) -> Element | None:
    cells = day_cells([e for e in screen.elements if e.visible and not e.disabled])
    return match_date_cell(day, cells)


def test_jquery_ui_datepicker_shows_its_month_its_arrows_and_its_selects() -> None:
    screen = _captured("widget_jqui_datepicker")
    page = _page_fields(screen)
    assert shows_calendar(screen, page)
    assert calendar_month(screen, page) == (2016, 10)
    forward, back = calendar_nav(screen, True, page), calendar_nav(screen, False, page)
    assert forward is not None and forward.name == "Next"
    assert back is not None and back.name == "Prev"
    month, year = calendar_controls(screen, page)
    assert month is not None and month.name == "Select month" and month.value == "Oct"
    assert year is not None and year.value == "2016"
    cell = _cell(screen, date(2016, 10, 14))
    assert cell is not None and cell.display_name == "14"


def test_flatpickr_is_read_by_its_month_select_and_year_field() -> None:
    screen = _captured("widget_flatpickr")
    page = _page_fields(screen)
    assert shows_calendar(screen, page)
    assert calendar_month(screen, page) == (2016, 10)
    month, year = calendar_controls(screen, page)
    assert month is not None and month.value == "October"
    assert year is not None and year.role == "spinbutton" and year.value == "2016"
    cell = _cell(screen, date(2016, 10, 14))
    assert cell is not None and "October 14, 2016" in cell.name
    forward, back = calendar_nav(screen, True, page), calendar_nav(screen, False, page)
    assert forward is not None and back is not None
    assert forward.box.x > back.box.x


def test_litepicker_shows_two_months_side_by_side() -> None:
    screen = _captured("widget_litepicker_range")
    page = _page_fields(screen)
    months = shown_months(screen)
    assert [m for m, _box in months] == [(2026, 12), (2027, 1)]
    assert shows_calendar(screen, page)
    enabled = [e for e in screen.elements if e.visible and not e.disabled]
    december = day_in_month(date(2026, 12, 12), enabled, months)
    january = day_in_month(date(2027, 1, 12), enabled, months)
    assert december is not None and january is not None and december.ref != january.ref
    # each lies in its own month's column
    (_, dec_head), (_, jan_head) = months
    assert abs(december.box.cx - dec_head.cx) < abs(december.box.cx - jan_head.cx)
    assert abs(january.box.cx - jan_head.cx) < abs(january.box.cx - dec_head.cx)
    assert day_in_month(date(2027, 2, 12), enabled, months) is None
    # The only arrow showing is the forward one, past the second month's heading; the
    # back one is hidden (no day before today is offered).
    forward = calendar_nav(screen, True, page)
    assert forward is not None and forward.box.x > months[1][1].x + months[1][1].width
    assert calendar_nav(screen, False, page) is None


def test_separate_selects_take_a_date_written_in_words() -> None:
    screen = _captured("widget_split_date")
    fields = split_fields("Birthday", screen)
    assert fields is not None
    assert {p: e.name for p, e in fields.parts.items()} == {
        "day": "Day",
        "month": "Month",
        "year": "Year",
    }
    assert part_values(fields, date(2016, 10, 14)) == {"day": 14, "month": 10, "year": 2016}


async def test_the_runtime_sets_each_select_of_a_split_date() -> None:
    page = FakeSurface.captured(SCREENS / "widget_split_date.json")
    result = await run_flow(
        RunRequest(flow=parse_flow([{"choose": "14 October 2016", "in": "Birthday"}])),
        Workspace.on(page),
        settings=FAST,
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    shown = {e.name: e.value for e in page.screen.elements if e.tag == "select"}
    assert shown == {"Day": "14", "Month": "October", "Year": "2016"}


def test_date_segments_are_one_split_field_each_group() -> None:
    screen = _captured("widget_segments")
    birth = split_fields("Date of birth", screen)
    expiry = split_fields("Passport expiry", screen)
    assert birth is not None and expiry is not None
    assert {p: e.ref for p, e in birth.parts.items()} == {"month": "e1", "day": "e2", "year": "e3"}
    assert {p: e.ref for p, e in expiry.parts.items()} == {"day": "e4", "month": "e5", "year": "e6"}


async def test_the_runtime_types_each_segment_its_part() -> None:
    page = FakeSurface.captured(SCREENS / "widget_segments.json")
    result = await run_flow(
        RunRequest(flow=parse_flow([{"enter": "2031-01-02", "into": "Passport expiry"}])),
        Workspace.on(page),
        settings=FAST,
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert [await page.read_value(ref) for ref in ("e4", "e5", "e6")] == ["02", "01", "2031"]
    assert [await page.read_value(ref) for ref in ("e1", "e2", "e3")] == ["mm", "dd", "yyyy"]


def test_a_calendar_in_shadow_roots_with_its_year_over_the_months_name() -> None:
    # cally: <calendar-date> and <calendar-month> each draw in a shadow root of their
    # own; the header shows "2016" (hidden from screen readers, not from the eye) over
    # the grid's "October", and its arrows are slotted spans.
    screen = _captured("widget_cally")
    page = frozenset(
        e.ref for e in screen.elements if e.name in ("Return date", "Choose date", "Save trip")
    )
    assert len(page) == 3
    assert calendar_month(screen, page) == (2016, 10)
    assert shows_calendar(screen, page)
    forward, back = calendar_nav(screen, True, page), calendar_nav(screen, False, page)
    assert forward is not None and forward.name == "›"
    assert back is not None and back.name == "‹"
    cell = _cell(screen, date(2016, 10, 14))
    assert cell is not None and cell.name == "October 14"


def _due_date_open() -> Screen:
    return _captured("widget_daterangepicker")


async def test_a_picker_that_fills_its_field_on_apply_is_applied() -> None:
    shown = _due_date_open()
    day = next(e for e in shown.elements if e.name == "14")
    apply = next(e for e in shown.elements if e.name == "Apply")
    filled = replace(
        shown,
        elements=tuple(
            replace(e, value="10/14/2016") if e.name == "Due date" else e
            for e in shown.elements
            if e.name == "Due date" or e.ref in ("e1", "e3")
        ),
    )
    page = FakeSurface(shown, after_click={apply.ref: filled})
    result = await run_flow(
        RunRequest(flow=parse_flow([{"choose": "14 October 2016", "in": "Due date"}])),
        Workspace.on(page),
        settings=FAST,
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert page.clicked[-2:] == [day.ref, apply.ref]
    assert await page.read_value("e2") == "10/14/2016"


async def test_a_pick_no_field_ever_shows_fails_and_no_button_elsewhere_is_pressed() -> None:
    shown = _due_date_open()
    # No Apply of its own; a "Select" button of the page's, far from the calendar.
    far = Element(
        "e90", "button", "Select plan", tag="button", text="Select plan", box=Box(20, 760, 120, 30)
    )
    page = FakeSurface(
        replace(
            shown, elements=(*[e for e in shown.elements if e.name not in ("Apply", "Cancel")], far)
        )
    )
    result = await run_flow(
        RunRequest(flow=parse_flow([{"choose": "14 October 2016", "in": "Due date"}])),
        Workspace.on(page),
        settings=FAST,
    )
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and result.failure.path == "0"
    assert "14 October 2016" in result.failure.reason
    assert result.failure.reason.endswith("shows ''")
    assert "e90" not in page.clicked
    assert await page.read_value("e2") == ""


async def test_time_segments_take_the_hour_minute_and_half_of_the_day() -> None:
    screen = _captured("widget_segments")
    fields = split_fields("Arrival time", screen)
    assert fields is not None
    assert {p: e.ref for p, e in fields.parts.items()} == {
        "hour": "e7",
        "minute": "e8",
        "half": "e9",
    }
    page = FakeSurface(screen)
    result = await run_flow(
        RunRequest(flow=parse_flow([{"choose": "8:04 PM", "in": "Arrival time"}])),
        Workspace.on(page),
        settings=FAST,
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert [await page.read_value(ref) for ref in ("e7", "e8", "e9")] == ["08", "04", "pm"]
