"""Dates and times into the controls a page offers for them.

A date or time goes into whatever the page has for it: a native date or time
input, a text field that says its format, a calendar the field (or a button
beside it) opens, moved by its own month and year controls or by its arrows,
a range picker that fills its fields once the range's end is picked, a time
picker's hour and minute controls, or separate day, month and year (hour,
minute, AM/PM) controls. Each way reads the control back after, so a step that
did not take fails saying what the page shows. The acting steps
(``runtime.actions``) hand dates and times here.
"""

from __future__ import annotations

import re
import time as clock
from datetime import date, datetime, time
from functools import partial

from gofer.decide import (
    DATE_INPUTS,
    Query,
    SplitFields,
    Want,
    box_distance,
    calendar_controls,
    calendar_month,
    calendar_nav,
    calendar_target,
    date_order,
    day_cells,
    day_in_month,
    format_date,
    format_hint,
    format_time,
    ground,
    label_of,
    match_date_cell,
    may_open_picker,
    month_of,
    names_month,
    native_value,
    normalise,
    page_clock,
    parse_when,
    part_option,
    part_shows,
    part_values,
    parts_among,
    reread_date,
    resolve_regions,
    shown_months,
    shows_calendar,
    shows_date,
    shows_time,
    split_fields,
    time_hint,
    value_took,
)
from gofer.decide.regions import days_near_field, field_frame
from gofer.errors import SurfaceError
from gofer.runtime.context import RangeStart, StepContext, clicker, filler, selector, typer
from gofer.runtime.signals import StepFailed, StepFinished
from gofer.runtime.types import StepOutcome
from gofer.surfaces.screen import Element, Screen

__all__ = [
    "When",
    "date_field",
    "in_shown_calendar",
    "pick_date",
    "pick_shown",
    "set_native",
    "set_split",
    "split_target",
    "when_words",
]

When = date | time | datetime


class OutOfReach(StepFailed):
    """The calendar's own controls cannot show the date's month (its years stop short,
    or the month is further than a person would step to)."""


_FAR_MONTHS = 24
"""Beyond this many months from a calendar's last offered year, arrows are not tried."""


def when_words(run: StepContext, words: str) -> When | None:
    """The date or time ``words`` name, or None (a bare number or plain text)."""
    if re.fullmatch(r"\s*\d+\s*", words):
        return None
    return parse_when(words, run.settings.today or date.today()) or month_of(words)


async def set_native(
    run: StepContext, path: str, el: Element, words: str, confidence: float
) -> StepFinished:
    """A native date, time or month input: its value in the format the input takes."""
    when = parse_when(words, run.settings.today or date.today()) or month_of(words)
    if when is None:
        raise StepFailed(f"'{words}' is not a date or time", el)
    text = native_value(el.input_type, when)
    if text is None:
        raise StepFailed(f"'{words}' is not a {el.input_type} for '{label_of(el)}'", el)
    browser = await run.browser()
    if el.value == text:
        return StepFinished(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
    effect = await run.act(
        path, f"set '{label_of(el)}' to {text}", lambda: browser.fill(el.ref, text)
    )
    shown = effect.value if effect.value is not None else await browser.read_value(el.ref)
    if shown != text:
        raise StepFailed(f"set '{label_of(el)}' to {text}, but it shows '{shown}'", el)
    return StepFinished(element=el, confidence=confidence)


def _written(when: When) -> str:
    if isinstance(when, datetime):
        return f"{when:%d %B %Y %H:%M}"
    return f"{when:%H:%M}" if isinstance(when, time) else f"{when:%d %B %Y}"


async def date_field(
    run: StepContext,
    path: str,
    el: Element,
    screen: Screen,
    when: When,
    confidence: float,
    words: str | None = None,
) -> StepFinished:
    """A date or time into a text field, whichever way the page takes it, read back after.

    A field that says its format is typed in that format; otherwise a calendar that
    the field (or a button beside it) opens is used, and a field with neither is
    typed as written. A time goes into a read-only field through the hour and
    minute controls of the picker it opens. Then the field must hold the date or
    time, or the step fails saying what it shows.
    """
    browser = await run.browser()
    if words is not None and isinstance(when, date) and not isinstance(when, datetime):
        # "03/04/2027" is read the way this field writes dates, never in a fixed order.
        when = reread_date(words, date_order(el, screen)) or when
    if isinstance(when, time):
        fields = await _shown_sections(run, path, el, screen, when)
        if fields is not None:
            return await set_split(run, path, fields, when)
        if not el.editable:
            return await _time_picker(run, path, el, screen, when, confidence)
        # The clock the field asks for, else the page's; with neither said, the other
        # clock is tried when the field did not take the first.
        said = time_hint(el)
        first = said or page_clock(screen) or "24h"
        clocks = [first] if said else [first, "24h" if first == "12h" else "12h"]
        for clock_kind in clocks:
            text = format_time(when, clock_kind)
            await run.act(
                path,
                f"type {text} into '{label_of(el)}'",
                partial(browser.fill, el.ref, text),
            )
            shown = await _leave(run, path, el)
            if shows_time(shown, when):
                return StepFinished(element=el, confidence=confidence)
        raise StepFailed(f"typed {text} into '{label_of(el)}', but it shows '{shown}'", el)
    day = when.date() if isinstance(when, datetime) else when
    hint = format_hint(el, screen)
    if el.value and shows_date(el.value, day, hint) and not isinstance(when, datetime):
        return StepFinished(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
    picked = False
    if el.editable and hint:
        text = format_date(day, hint)
        await run.act(
            path, f"type {text} into '{label_of(el)}'", lambda: browser.fill(el.ref, text)
        )
        if not shows_date(await _leave(run, path, el), day, hint):
            await _type_again(run, path, el, text)
    else:
        picked = await _open_calendar(run, path, el, screen)
        if picked:
            shown_before = frozenset(e.ref for e in screen.elements if e.visible)
            try:
                _cell, day = await pick_date(run, path, day, shown_before, words)
            except OutOfReach:
                if not el.editable:
                    raise
                # The calendar cannot show the date, but its field takes typing: closed,
                # the field is typed into as a person would.
                await run.act(path, "close the calendar", lambda: browser.press("Escape"))
                picked = False
                if await _typed(run, path, el, screen, when, words):
                    return StepFinished(element=el, confidence=confidence)
            else:
                if isinstance(when, datetime):
                    when = datetime.combine(day, when.time())
                    await _picker_time(run, path, el, shown_before, when.time())
        elif el.editable:
            if await _typed(run, path, el, screen, when, words):
                return StepFinished(element=el, confidence=confidence)
        else:
            raise StepFailed(
                f"'{label_of(el)}' is read-only and no calendar opened to pick {day:%d %B %Y}", el
            )
    shown = await browser.read_value(el.ref)
    page_refs = frozenset(e.ref for e in screen.elements if e.visible)
    if picked and not shown.strip() and await _apply_pick(run, path, el):
        shown = await browser.read_value(el.ref)
    if (
        picked
        and not shown.strip()
        and not isinstance(when, datetime)
        and shows_calendar(await run.screen(), page_refs)
    ):
        # Still open and the field still empty: a range picker holding the range's start
        # until its end is picked (the field that shares the calendar comes next).
        run.ranges.append(RangeStart(path, el.ref, label_of(el), day, hint))
        return StepFinished(
            element=el,
            confidence=confidence,
            reason=f"the calendar holds {day:%d %B %Y} as the start of a range; "
            f"'{label_of(el)}' shows it once the range's end is picked",
        )
    if not shows_date(shown, day, hint) or (
        isinstance(when, datetime) and picked and not shows_time(shown, when.time())
    ):
        how = "picked" if picked else "typed"
        raise StepFailed(f"{how} {_written(when)} for '{label_of(el)}', but it shows '{shown}'", el)
    if picked:
        await _ranges_shown(run, el)
        if shows_calendar(await run.screen(), page_refs) and await _apply_pick(run, path, el):
            # a picker that shows the pick at once and stays open until its own OK
            shown = await browser.read_value(el.ref)
            if not shows_date(shown, day, hint):
                raise StepFailed(
                    f"pressed OK for {_written(when)}, but '{label_of(el)}' shows '{shown}'", el
                )
    return StepFinished(element=el, confidence=confidence)


async def _typed(
    run: StepContext, path: str, el: Element, screen: Screen, when: When, words: str | None
) -> bool:
    """No format asked for and no calendar to use: the words go in as the flow wrote
    them, then, if the field did not take them, in the page's order of day and month.
    True when the field took the flow's own words; else the caller reads it back."""
    browser = await run.browser()
    day = when.date() if isinstance(when, datetime) else when
    assert isinstance(day, date)
    text = words if words is not None else _written(when)
    await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, text))
    shown = await _leave(run, path, el)
    if words is not None and value_took(words, shown):
        return True
    order = date_order(el, screen, run.settings.today or date.today())
    if order in ("DMY", "MDY"):
        text = format_date(day, "MM/DD/YYYY" if order == "MDY" else "DD/MM/YYYY")
        await run.act(
            path, f"type {text} into '{label_of(el)}'", lambda: browser.fill(el.ref, text)
        )
        if not shows_date(await _leave(run, path, el), day):
            await _type_again(run, path, el, text)
    elif words is not None:
        raise StepFailed(
            f"typed into '{label_of(el)}', but the field does not show what was typed", el
        )
    return False


async def _type_again(run: StepContext, path: str, el: Element, text: str) -> str:
    """A field that reads what is typed on its key presses puts its old value back when
    the text came at once: cleared and typed again as a person types, then left."""
    browser = await run.browser()
    await run.act(path, f"clear '{label_of(el)}'", lambda: browser.fill(el.ref, ""))
    await run.act(
        path, f"type {text} into '{label_of(el)}' key by key", typer(browser, el.ref, text)
    )
    return await _leave(run, path, el)


async def _leave(run: StepContext, path: str, el: Element) -> str:
    """Leaves a field typed into as a person does (Tab) and reads what it holds then: a
    widget takes typed text only once its field loses focus, or puts back what it had
    (the echo of the typing is never the value)."""
    browser = await run.browser()
    await run.act(path, f"leave '{label_of(el)}'", lambda: browser.press("Tab"))
    return await browser.read_value(el.ref)


_APPLY_WORDS = frozenset({"apply", "done", "ok", "okay", "select", "set", "use"})
_BESIDE_DAYS_PX = 120.0


async def _apply_pick(run: StepContext, path: str, field: Element) -> bool:
    """A picker that fills its field only when told to (an "Apply", "Done" or "OK" of
    its own, enabled once the pick is whole): press it. Only a control beside the
    calendar's days counts, never one elsewhere on the page. False when there is none."""
    screen = await run.screen()
    days = [
        e.box
        for e in screen.elements
        if e.visible
        and e.ref != field.ref
        and normalise(e.display_name).isdigit()
        and len(normalise(e.display_name)) <= 2
    ]
    if len(days) < 28:
        return False
    left, top = min(b.x for b in days), min(b.y for b in days)
    right = max(b.x + b.width for b in days)
    bottom = max(b.y + b.height for b in days)
    found = []
    for el in screen.elements:
        words = normalise(el.display_name).split()
        if (
            el.ref == field.ref
            or not el.visible
            or el.disabled
            or not words
            or el.role not in ("button", "clickable", "link")
            or len(words) > 3
            or words[0] not in _APPLY_WORDS
        ):
            continue
        b = el.box
        if (
            left - _BESIDE_DAYS_PX <= b.cx <= right + _BESIDE_DAYS_PX
            and top - _BESIDE_DAYS_PX <= b.cy <= bottom + _BESIDE_DAYS_PX
        ):
            found.append(el)
    # A bar holding the picker's buttons ("Apply Cancel") is not its "Apply": its
    # middle may be the button beside it.
    for el in found:
        if any(o.ref != el.ref and el.box.contains(o.box) for o in found):
            continue
        browser = await run.browser()
        await run.act(path, f"apply the pick with '{label_of(el)}'", clicker(browser, el.ref))
        return True
    return False


async def _ranges_shown(run: StepContext, el: Element) -> None:
    """After a pick that ended a range: every range start picked before must now show in
    its field, or this step fails saying what that field shows."""
    browser = await run.browser()
    for start in list(run.ranges):
        run.ranges.remove(start)
        try:
            shown = await browser.read_value(start.ref)
        except SurfaceError:
            continue  # the field went with its page: nothing left to judge
        if not shows_date(shown, start.day, start.hint):
            raise StepFailed(
                f"picked the end of the range, but '{start.label}' shows '{shown}', not its "
                f"start {start.day:%d %B %Y}",
                el,
            )


async def _time_picker(
    run: StepContext, path: str, el: Element, before: Screen, at: time, confidence: float
) -> StepFinished:
    """A read-only time field: open its picker, set the picker's hour, minute and AM/PM
    controls, and read the field back."""
    browser = await run.browser()
    if el.value and shows_time(el.value, at):
        return StepFinished(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
    old = frozenset(e.ref for e in before.elements if e.visible)
    await run.act(path, f"open the time picker of '{label_of(el)}'", clicker(browser, el.ref))
    if not await _picker_time(run, path, el, old, at):
        raise StepFailed(
            f"'{label_of(el)}' is read-only and no time picker with hour and "
            f"minute controls opened to set {at:%H:%M}",
            el,
        )
    shown = await browser.read_value(el.ref)
    if not shows_time(shown, at):
        raise StepFailed(
            f"set {at:%H:%M} in the time picker of '{label_of(el)}', but the field shows '{shown}'",
            el,
        )
    return StepFinished(element=el, confidence=confidence)


async def _picker_time(
    run: StepContext, path: str, el: Element, before: frozenset[str], at: time
) -> bool:
    """Set the hour and minute controls a picker shows (those not in ``before``) to
    ``at``; False when the picker has none. A picker that takes its controls' values
    when they lose focus gets a Tab when the field does not show the time yet, unless
    the picker has an "Apply" of its own to press."""
    deadline = clock.perf_counter() + run.settings.change_grace_ms / 1000
    while True:
        screen = await run.screen()
        found = [
            f for f in parts_among(e for e in screen.elements if e.ref not in before) if f.holds(at)
        ]
        if found:
            break
        if not await run.wait_change(deadline):
            return False
    await set_split(run, path, found[0], at)
    browser = await run.browser()
    if not shows_time(await browser.read_value(el.ref), at) and not await _apply_pick(
        run, path, el
    ):
        await run.act(path, "press Tab to leave the time controls", lambda: browser.press("Tab"))
    return True


_NEAR_OPENER_PX = 40.0


async def _open_calendar(run: StepContext, path: str, el: Element, before: Screen) -> bool:
    """Open the calendar of ``el``: click the field, else the button just beside it."""
    if shows_calendar(before) and days_near_field(el, before):
        # still open from the step before (a range picker stays open); one showing far
        # from the field (an inline calendar of the page's own) is not this field's
        return True
    browser = await run.browser()
    if el.on_top:
        await run.act(path, f"open the calendar of '{label_of(el)}'", clicker(browser, el.ref))
        if await _calendar_shown(run, before):
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
        if await _calendar_shown(run, before):
            return True
    return False


async def _shown_sections(
    run: StepContext, path: str, el: Element, screen: Screen, when: When
) -> SplitFields | None:
    """A field drawn as sections (spin buttons) over a hidden input, that shows them only
    once focused: its frame is clicked, and the sections it then shows, if they hold
    ``when`` between them, are the field."""
    if el.on_top:
        return None
    frame = field_frame(el, screen)
    hidden = [
        e
        for e in screen.elements
        if e.role == "spinbutton" and not e.visible and frame.contains(e.box)
    ]
    opener = next(
        (
            e
            for e in screen.elements
            if e.ref != el.ref and e.box == frame and e.visible and e.on_top and not e.disabled
        ),
        None,
    )
    if not hidden or opener is None:
        return None
    browser = await run.browser()
    await run.act(path, f"focus '{label_of(el)}'", clicker(browser, opener.ref))
    return await split_target(run, label_of(el), None, _written(when), when)


async def _calendar_shown(run: StepContext, before: Screen) -> bool:
    """Whether a calendar (a month heading or month and year selects) is showing now."""
    old = frozenset(e.ref for e in before.elements if e.visible)
    deadline = clock.perf_counter() + run.settings.change_grace_ms / 1000
    while True:
        if shows_calendar(await run.screen(), old):
            return True
        if not await run.wait_change(deadline):
            return False


# ------------------------------------------------------------------ split dates and times


async def split_target(
    run: StepContext,
    words: str,
    within: str | None,
    written: str,
    when: When,
    screen: Screen | None = None,
) -> SplitFields | None:
    """The day, month and year (or hour, minute and AM/PM) controls ``words`` name,
    when they are on ``screen`` (by default the page as it is) and no single control
    is named better."""
    if screen is None:
        screen = await run.screen()
    keep = None
    if within:
        regions = [r for r in resolve_regions(within, screen) if r.kind != "near"]
        if regions:
            keep = regions[0].contains
    fields = split_fields(words, screen, keep)
    month_only = parse_when(written, run.settings.today or date.today()) is None
    if fields is None or not fields.holds(when, month_only=month_only):
        return None
    single = ground(Query(words, Want.CONTROL, within, kind="choose"), screen)
    el = single.element
    if (
        el is not None
        and el not in fields.members
        and single.confidence > fields.score
        and (el.tag in ("input", "textarea") or el.input_type in DATE_INPUTS)
    ):
        return None
    return fields


async def set_split(run: StepContext, path: str, fields: SplitFields, when: When) -> StepFinished:
    """Put each part of ``when`` into its own control, then check that each shows it."""
    values = part_values(fields, when)
    screen = await run.screen()
    first = fields.members[0]
    name = fields.name or label_of(first)

    def now(el: Element, part: str, scr: Screen) -> Element:
        found = scr.element(el.ref)
        if found is not None:
            return found
        # A picker drawn anew once a part is set (its minutes after its hour): the same
        # part of the controls standing where it stood.
        again = [group.parts[part] for group in parts_among(scr.elements) if part in group.parts]
        return min(again, key=lambda e: box_distance(e.box, el.box), default=el)

    def shows(el: Element, part: str) -> bool:
        return part_shows(el.value or el.text or el.name, part, values[part])

    if all(shows(now(el, part, screen), part) for part, el in fields.parts.items()):
        return StepFinished(
            outcome=StepOutcome.ALREADY_DONE, element=first, confidence=fields.score
        )
    # A part the page puts back (an app that echoes the picker's value a moment later,
    # its minutes still the old ones) is set once more.
    for _round in range(2):
        for part, el in fields.parts.items():
            current = now(el, part, screen)
            if shows(current, part):
                continue
            await _set_part(run, path, current, part, values[part])
            screen = await run.screen()
        if all(shows(now(el, part, screen), part) for part, el in fields.parts.items()):
            break
    for part, el in fields.parts.items():
        current = now(el, part, screen)
        if not shows(current, part):
            shown = current.value or current.text
            raise StepFailed(
                f"set '{name}' to {_written(when)}, but '{label_of(current)}' shows '{shown}'",
                current,
            )
    return StepFinished(element=first, confidence=fields.score)


async def _set_part(
    run: StepContext, path: str, current: Element, part: str, want: int | str
) -> None:
    """Put one part of a date or time (``part`` is "day", "hour", "half" ...) into the
    control that holds it: a select's option, a toggle's press, typed keys or a value."""
    browser = await run.browser()
    if current.tag == "select":
        option = part_option(current.options, part, want)
        if option is None:
            names = ", ".join(o for o in current.options[:8] if o.strip())
            raise StepFailed(
                f"'{label_of(current)}' has no option for {part} {want} (there are: {names})",
                current,
            )
        await run.act(
            path,
            f"select '{option}' in '{label_of(current)}'",
            selector(browser, current.ref, option),
        )
    elif current.role in ("button", "clickable"):
        await run.act(
            path,
            f"switch '{label_of(current)}' to {str(want).upper()}",
            clicker(browser, current.ref),
        )
    elif current.tag not in ("input", "textarea") and (
        current.editable or current.role == "spinbutton"
    ):
        # A segment drawn without an input (React Aria's, MUI's) takes keys, not a
        # value: each part typed whole, so the segment moves on by itself.
        text = f"{want:02d}" if isinstance(want, int) and part != "year" else str(want)
        await run.act(
            path,
            f"type {text} into '{label_of(current)}'",
            typer(browser, current.ref, text),
        )
    elif current.editable or current.role == "spinbutton":
        text = f"{want:02d}" if part == "minute" and isinstance(want, int) else str(want)
        await run.act(
            path,
            f"type {text} into '{label_of(current)}'",
            filler(browser, current.ref, text),
        )
    else:
        raise StepFailed(f"'{label_of(current)}' cannot be set to {want}", current)


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
            raise StepFailed(
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
