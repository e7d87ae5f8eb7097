"""Calendars a date is picked in: opened from their field (or a button beside it), moved
to the date's month by their own month and year controls or by their arrows, the day
picked; a calendar already showing on the page is picked in where it stands."""

from __future__ import annotations

import time as clock
from datetime import date, datetime

from gofer.decide import (
    box_distance,
    calendar_controls,
    calendar_month,
    calendar_nav,
    calendar_target,
    date_order,
    day_cells,
    day_in_month,
    label_of,
    match_date_cell,
    may_open_picker,
    names_month,
    parse_when,
    part_option,
    part_shows,
    reread_date,
    shown_months,
    shows_calendar,
)
from gofer.decide.regions import days_near_field, field_frame
from gofer.runtime.context import StepContext, clicker, filler, selector
from gofer.runtime.signals import StepFailed, StepFinished
from gofer.surfaces.screen import Element, Screen

__all__ = [
    "OutOfReach",
    "calendar_shown",
    "in_shown_calendar",
    "open_calendar",
    "pick_date",
    "pick_shown",
]


class OutOfReach(StepFailed):
    """The calendar's own controls cannot show the date's month (its years stop short,
    the month is further than a person would step to, or it has no control to move it)."""


_FAR_MONTHS = 24
"""Beyond this many months from a calendar's last offered year, arrows are not tried."""


_NEAR_OPENER_PX = 40.0


async def open_calendar(run: StepContext, path: str, el: Element, before: Screen) -> bool:
    """Open the calendar of ``el``: click the field, else the button just beside it."""
    if shows_calendar(before) and days_near_field(el, before):
        # still open from the step before (a range picker stays open); one showing far
        # from the field (an inline calendar of the page's own) is not this field's
        return True
    browser = await run.browser()
    if el.on_top:
        await run.act(path, f"open the calendar of '{label_of(el)}'", clicker(browser, el.ref))
        if await calendar_shown(run, before):
            return True
    # a field drawn over its input (sections over a hidden one) has its button in its frame
    frame = field_frame(el, before)
    openers = sorted(
        (
            e
            for e in before.elements
            if e.visible
            and not e.disabled
            and e.ref != el.ref
            and e.role in ("button", "clickable", "link", "img")
            and may_open_picker(e)
            and min(box_distance(e.box, el.box), box_distance(e.box, frame)) <= _NEAR_OPENER_PX
        ),
        key=lambda e: (box_distance(e.box, frame), box_distance(e.box, el.box)),
    )
    for opener in openers[:1]:
        await run.act(
            path, f"open the calendar with '{label_of(opener)}'", clicker(browser, opener.ref)
        )
        if await calendar_shown(run, before):
            return True
    return False


async def calendar_shown(run: StepContext, before: Screen) -> bool:
    """Whether a calendar (a month heading or month and year selects) is showing now."""
    old = frozenset(e.ref for e in before.elements if e.visible)
    deadline = clock.perf_counter() + run.settings.change_grace_ms / 1000
    while True:
        if shows_calendar(await run.screen(), old):
            return True
        if not await run.wait_change(deadline):
            return False


async def pick_date(
    run: StepContext,
    path: str,
    target: date,
    before: frozenset[str] = frozenset(),
    words: str | None = None,
) -> tuple[Element, date]:
    """In an open date picker, move to the date's month and pick the day; returns the
    cell picked and the day it is.

    A calendar's own month and year controls (selects, or a year number field) are
    set when it has them; else it is moved month by month with its previous and
    next controls. ``words`` (the flow's own) let a date written without a year take
    its year from the month the calendar opened on.
    """
    browser = await run.browser()
    settings_left = 12  # a calendar whose controls do not move it is moved by its arrows
    for _ in range(36):
        screen = await run.screen()
        shown = calendar_month(screen, before)
        if words is not None and shown is not None:
            target, words = calendar_target(words, target, shown), None
        cells = day_cells([e for e in screen.elements if e.visible])
        enabled = [e for e in cells if not e.disabled]
        cell = match_date_cell(target, enabled)
        months = shown_months(screen)
        if len(months) > 1 and shown is not None:
            # A calendar showing several months at once: the day is picked under its
            # month's heading, and the calendar moves only when no shown month is it.
            shown_set = [m for m, _box in months]
            if (target.year, target.month) in shown_set:
                shown = (target.year, target.month)
                cell = match_date_cell(
                    target, [e for e in enabled if names_month(e, target)]
                ) or day_in_month(target, enabled, months)
            elif (target.year, target.month) > max(shown_set):
                shown = max(shown_set)
            else:
                shown = min(shown_set)
        month_el, year_el = calendar_controls(screen, before)
        if shown != (target.year, target.month) and (month_el or year_el) and settings_left:
            settings_left -= 1
            if await _set_calendar(run, path, target, shown, month_el, year_el, before):
                continue
        if cell is not None and (
            shown in (None, (target.year, target.month)) or names_month(cell, target)
        ):
            await run.act(path, f"pick day '{label_of(cell)}'", clicker(browser, cell.ref))
            return cell, target
        if shown is None:
            raise StepFailed(
                f"no calendar showing a month opened, so {target:%d %B %Y} cannot be picked"
            )
        if shown == (target.year, target.month):
            disabled = match_date_cell(target, cells)
            why = "is not offered (disabled)" if disabled is not None else "is not in it"
            raise StepFailed(f"the calendar shows {target:%B %Y}, but {target:%d %B %Y} {why}")
        forward = shown < (target.year, target.month)
        nav = calendar_nav(screen, forward, before)
        way = "forward" if forward else "back"
        if nav is None:
            raise OutOfReach(
                f"the calendar shows {_month_name(shown)} and has no control "
                f"to move it {way} to {target:%B %Y}"
            )
        if nav.disabled:
            raise StepFailed(
                f"the calendar goes no further than {_month_name(shown)}, "
                f"so {target:%d %B %Y} cannot be picked"
            )
        await run.act(
            path, f"move the calendar {way} with '{label_of(nav)}'", clicker(browser, nav.ref)
        )
    raise OutOfReach(f"could not reach {target:%B %Y} in the calendar")


def in_shown_calendar(el: Element, evidence: tuple[str, ...], screen: Screen) -> bool:
    """Whether the words found ``el`` by the name of the group it is in, a calendar
    showing on the page (an inline one, named by its container's caption)."""
    return (
        bool(el.group)
        and not el.editable
        and any(e.endswith("group name") for e in evidence)
        and shows_calendar(screen)
    )


async def pick_shown(
    run: StepContext, path: str, el: Element, screen: Screen, words: str, confidence: float
) -> StepFinished:
    """A date in a calendar that shows on the page without being opened: the calendar
    is moved and its day picked, and the day must then say it is picked."""
    when = parse_when(words, run.settings.today or date.today())
    day = when.date() if isinstance(when, datetime) else when
    if not isinstance(day, date):
        raise StepFailed(f"'{words}' is not a date", el)
    day = reread_date(words, date_order(el, screen)) or day
    cell, _ = await pick_date(run, path, day, words=words)
    now = (await run.screen()).element(cell.ref)
    if now is not None and now.visible and now.selected is False and now.checked is not True:
        raise StepFailed(
            f"picked '{label_of(cell)}', but the calendar does not show it picked", cell
        )
    return StepFinished(element=cell, confidence=confidence)


def _month_name(shown: tuple[int, int]) -> str:
    return f"{date(shown[0], shown[1], 1):%B %Y}"


async def _set_calendar(
    run: StepContext,
    path: str,
    target: date,
    shown: tuple[int, int] | None,
    month_el: Element | None,
    year_el: Element | None,
    before: frozenset[str] = frozenset(),
) -> bool:
    """Set a calendar's own year and month controls to ``target``'s; False when they
    cannot take it (then the calendar is moved with its arrows)."""
    browser = await run.browser()
    moved = False
    if year_el is not None and (shown is None or shown[0] != target.year):
        year = str(target.year)
        if year_el.tag == "select":
            if year not in year_el.options:
                return await _nearest_year(run, path, target, shown, year_el)
            await run.act(
                path, f"show {year} in the calendar", selector(browser, year_el.ref, year)
            )
        else:
            await run.act(path, f"show {year} in the calendar", filler(browser, year_el.ref, year))
            if calendar_month(await run.screen()) in (None, shown):
                # A year box that reads its value on a key (flatpickr's) takes Enter.
                await run.act(path, "press Enter in the year", lambda: browser.press("Enter"))
        moved = True
    if month_el is not None:
        screen = await run.screen()
        # A calendar drawn anew for the year has a month control of its own now.
        current = screen.element(month_el.ref) or calendar_controls(screen, before)[0]
        if current is None:
            return moved
        if not part_shows(current.value, "month", target.month):
            option = part_option(current.options, "month", target.month)
            if option is None:
                return moved
            await run.act(
                path, f"show {target:%B} in the calendar", selector(browser, current.ref, option)
            )
            moved = True
    return moved


async def _nearest_year(
    run: StepContext, path: str, target: date, shown: tuple[int, int] | None, year_el: Element
) -> bool:
    """A year select that does not offer the target's year: show the offered year
    nearest it (a select whose years follow the shown one offers more from there).
    Already there, the arrows may step a little further; a target further than
    :data:`_FAR_MONTHS` beyond is out of the calendar's reach."""
    years = sorted(int(o) for o in year_el.options if o.strip().isdigit())
    if not years:
        return False
    nearest = min(years, key=lambda y: abs(y - target.year))
    if shown is None or shown[0] != nearest:
        browser = await run.browser()
        await run.act(
            path, f"show {nearest} in the calendar", selector(browser, year_el.ref, str(nearest))
        )
        return True
    if abs((target.year - shown[0]) * 12 + target.month - shown[1]) > _FAR_MONTHS:
        raise OutOfReach(
            f"the calendar's years run from {years[0]} to {years[-1]}, so "
            f"{target:%B %Y} cannot be shown in it"
        )
    return False
