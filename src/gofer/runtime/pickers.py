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
    date_order,
    format_date,
    format_hint,
    format_time,
    ground,
    label_of,
    month_of,
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
    shows_calendar,
    shows_date,
    shows_time,
    split_fields,
    time_hint,
    value_took,
)
from gofer.decide.regions import field_frame
from gofer.errors import SurfaceError
from gofer.runtime.calendars import OutOfReach, open_calendar, pick_date
from gofer.runtime.context import RangeStart, StepContext, clicker, filler, selector, typer
from gofer.runtime.signals import StepFailed, StepFinished
from gofer.runtime.steppers import step_time
from gofer.runtime.types import StepOutcome
from gofer.surfaces.screen import Element, Screen

__all__ = [
    "When",
    "date_field",
    "set_native",
    "set_split",
    "split_target",
    "when_words",
]

When = date | time | datetime


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
        return await _time_field(run, path, el, screen, when, confidence)
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
        picked = await open_calendar(run, path, el, screen)
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
                if await _typed(run, path, el, screen, when, words, ordered=True):
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
    return await _read_back(run, path, el, screen, when, day, hint, picked, confidence)


async def _time_field(
    run: StepContext, path: str, el: Element, screen: Screen, when: time, confidence: float
) -> StepFinished:
    """A time into a text field: its shown sections, the picker a read-only one opens, or
    typed on the clock the field or the page asks for (the other clock tried when neither
    says and the first was not taken)."""
    browser = await run.browser()
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
    # a field that throws typed times away: set through the panel its click opens
    await run.act(path, f"open the time panel of '{label_of(el)}'", clicker(browser, el.ref))
    if await step_time(run, path, when):
        shown = await _leave(run, path, el)
        if shows_time(shown, when):
            return StepFinished(element=el, confidence=confidence)
    raise StepFailed(f"typed {text} into '{label_of(el)}', but it shows '{shown}'", el)


async def _read_back(
    run: StepContext,
    path: str,
    el: Element,
    screen: Screen,
    when: When,
    day: date,
    hint: str | None,
    picked: bool,
    confidence: float,
) -> StepFinished:
    """After ``day`` was typed or picked: the field must show it (a picker's own OK pressed
    when it waits for one; a range's start held until its end is picked)."""
    browser = await run.browser()
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
    run: StepContext,
    path: str,
    el: Element,
    screen: Screen,
    when: When,
    words: str | None,
    ordered: bool = False,
) -> bool:
    """No format asked for and no calendar to use: the words go in as the flow wrote
    them, then, if the field did not take them, in the page's order of day and month
    (with ``ordered``, a field whose calendar could not be used, in that order at once).
    True when the field took the flow's own words; else the caller reads it back."""
    browser = await run.browser()
    day = when.date() if isinstance(when, datetime) else when
    assert isinstance(day, date)
    order = date_order(el, screen, run.settings.today or date.today())
    if not ordered or order not in ("DMY", "MDY"):
        text = words if words is not None else _written(when)
        await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, text))
        shown = await _leave_typed(run, path, el, screen)
        took = words is not None and value_took(words, shown)
        if took and not (ordered and await _marked_wrong(run, el)):
            return True
    if order not in ("DMY", "MDY") and day.day > 12:
        # the page says no order, but this date reads one way only (day 14 is no month):
        # each order in turn, the one the field keeps without marking it wrong
        order, ordered = "DMY", True
    if order in ("DMY", "MDY"):
        # A field whose calendar could not be used may write dates its own way, not the
        # page's: one that marks the date wrong once left is typed in the other order.
        orders = [order, "DMY" if order == "MDY" else "MDY"] if ordered else [order]
        for each in orders:
            text = format_date(day, "MM/DD/YYYY" if each == "MDY" else "DD/MM/YYYY")
            await run.act(
                path, f"type {text} into '{label_of(el)}'", partial(browser.fill, el.ref, text)
            )
            if shows_date(await _leave_typed(run, path, el, screen), day):
                if not ordered or not await _marked_wrong(run, el):
                    break
            elif each == orders[-1]:
                await _type_again(run, path, el, text)
    elif words is not None:
        raise StepFailed(
            f"typed into '{label_of(el)}', but the field does not show what was typed", el
        )
    return False


async def _marked_wrong(run: StepContext, el: Element) -> bool:
    """Whether the page marks the field's value as wrong now (it kept text it did not take)."""
    now = (await run.screen()).element(el.ref)
    return now is not None and now.invalid


async def _leave_typed(run: StepContext, path: str, el: Element, before: Screen) -> str:
    """Leaves a date field typed into; one whose calendar opened as it was typed into
    takes the date with Enter, as a person closes it (leaving it, the focus would go
    into the calendar and the field keep its old date)."""
    if shows_calendar(await run.screen(), frozenset(e.ref for e in before.elements if e.visible)):
        browser = await run.browser()
        await run.act(path, f"press Enter in '{label_of(el)}'", lambda: browser.press("Enter"))
    return await _leave(run, path, el)


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
