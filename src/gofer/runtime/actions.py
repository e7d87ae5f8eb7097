"""The acting steps: click, enter, choose and stop_before.

Each grounds its target on a fresh screen, acts once through the browser
surface, and checks that the action took.
"""

from __future__ import annotations

import re
import time as clock
from collections.abc import Awaitable, Callable
from datetime import date, datetime, time

from gofer.decide import (
    Grounding,
    Query,
    Want,
    ground,
    match_date_cell,
    match_option,
    normalise,
    parse_when,
    resolve_regions,
)
from gofer.decide.controls import (
    DATE_INPUTS,
    FIELD_ROLES,
    OPTION_ROLES,
    appeared,
    group_members,
    label_of,
    looks,
    option_refs,
    pick_action,
    value_took,
)
from gofer.decide.dates import (
    calendar_controls,
    calendar_month,
    calendar_nav,
    calendar_target,
    day_cells,
    day_in_month,
    format_date,
    format_hint,
    format_time,
    is_date_words,
    may_open_picker,
    month_of,
    names_month,
    native_value,
    shown_months,
    shows_calendar,
    shows_date,
    shows_time,
    time_hint,
)
from gofer.decide.feedback import SENDING_ROLES, form_errors
from gofer.decide.gates import card_evidence, judge
from gofer.decide.hidden import FOUND, MAX_OPENERS, found_well, openers
from gofer.decide.overlays import covering, dismisser
from gofer.decide.prepared import box_distance
from gofer.decide.split import (
    SplitFields,
    part_option,
    part_shows,
    part_values,
    parts_among,
    split_fields,
)
from gofer.errors import SurfaceError
from gofer.flow import Choose, Click, Do, Enter, StopBefore
from gofer.runtime.context import RangeStart, StepContext
from gofer.runtime.signals import Done, Gated, StepFailed
from gofer.runtime.types import Gate, StepOutcome
from gofer.safety import Consequence, human_wall, screen_payment_evidence
from gofer.surfaces import ActionEffect, Surface
from gofer.surfaces.screen import Element, Screen

__all__ = ["choose", "click", "do", "enter", "label_of", "stop_before"]

_MOST_DISMISSALS = 3  # layers closed for one target (a consent wall, then a popup)


async def _uncover(run: StepContext, path: str, el: Element, query: Query) -> Element:
    """Get what covers the target out of the way, and find the target again.

    Escape first; a layer that stays is closed with its least-consenting control
    ("Reject all" before "Close"). A wall only a person can pass, a card form, or a
    layer with no such control fails the step at once, saying what is in the way.
    """
    if el.on_top:
        return el
    browser = await run.browser()
    await run.act(
        path, "press Escape to close what covers the target", lambda: browser.press("Escape")
    )
    again, screen, _ = await run.find(path, query)
    for _ in range(_MOST_DISMISSALS):
        if again.on_top:
            return again
        cover = covering(screen, again)
        if cover is None:
            return again  # nothing on the screen says what covers it: let the click try
        shape = "a dialog" if screen.dialog_open else "a popup"
        what = f"'{label_of(again)}' is covered by {shape} ('{run.mask(cover.name)}')"
        wall = human_wall(cover.text)
        if wall is not None:
            raise StepFailed(f"{what} that is {wall}; a person has to get past it", again)
        if screen_payment_evidence(cover.text):
            raise StepFailed(f"{what} asking for card details; the flow does not say to pay", again)
        closer = dismisser(cover)
        if closer is None:
            raise StepFailed(f"{what}; the flow does not say how to close it", again)
        run.event(path, "dismiss", cover=cover.name, control=label_of(closer))
        await run.act(
            path, f"close '{cover.name}' with '{label_of(closer)}'", _clicker(browser, closer.ref)
        )
        again, screen, _ = await run.find(path, query)
    if again.on_top:
        return again
    raise StepFailed(
        f"'{label_of(again)}' is still covered after closing {_MOST_DISMISSALS} dialogs over it",
        again,
    )


# ------------------------------------------------------------------ click


async def click(run: StepContext, path: str, step: Click) -> Done:
    words = run.sub(step.target)
    within = run.sub(step.within) if step.within else None
    return await _press(run, path, Query(words, Want.CLICK, within, kind="click"), words)


async def do(run: StepContext, path: str, step: Do) -> Done:
    """A ``do`` step: press the one control the model decider picks for its words (or
    the one a hint remembers from an earlier run), guarded like any click."""
    words = run.sub(step.instruction)
    return await _press(run, path, Query(words, Want.CLICK, kind="do"), words)


async def _press(run: StepContext, path: str, query: Query, words: str) -> Done:
    revealed = await _reveal(run, path, query) if query.kind == "click" else None
    if revealed is not None:
        el, grounding = revealed
    else:
        el, _, grounding = await run.find(path, query)
    el = await _uncover(run, path, el, query)
    before = await run.screen()
    run.guard(path, el, before, words)
    browser = await run.browser()
    effect = await run.act(path, f"click {el.role} '{label_of(el)}'", _clicker(browser, el.ref))
    if not effect.changed and not await _late_change(run, before):
        raise StepFailed(
            f"clicking '{label_of(el)}' changed nothing on the page "
            "(no navigation, no change on the page, no new focus)",
            el,
        )
    if el.role in SENDING_ROLES or el.input_type in ("submit", "image"):
        await _refused(run, before, f"clicking '{label_of(el)}'", el, effect)
    return Done(element=el, confidence=grounding.confidence)


async def _reveal(run: StepContext, path: str, query: Query) -> tuple[Element, Grounding] | None:
    """Find a control out of sight: open the closed menus or sections that may hold it.

    Only when the words name nothing on the screen well. Each opener (a collapsed
    control, a "More actions" or "⋯" menu; inside the ``within`` record when there is
    one) is opened in turn and the words are grounded among what it showed; one that
    did not show the control is closed again. None when nothing was found this way.
    """
    screen = await run.screen()
    first = ground(query, screen)
    if found_well(first):
        return None
    shown = frozenset(e.ref for e in screen.elements if e.visible)
    browser = await run.browser()
    tried = 0
    for opener in openers(screen, query.within):
        if tried == MAX_OPENERS:
            break
        if judge(opener, screen) is not Consequence.REVERSIBLE:
            continue
        tried += 1
        run.event(path, "reveal", opener=label_of(opener), words=query.words)
        effect = await run.act(
            path,
            f"open '{label_of(opener)}' to look for '{query.words}'",
            _clicker(browser, opener.ref),
        )
        if effect.navigated or effect.new_page:
            raise StepFailed(
                f"opening '{label_of(opener)}' to look for '{query.words}' went to another page",
                opener,
            )
        now = await run.screen()
        inside = Query(
            query.words,
            query.want,
            kind=query.kind,
            exclude=shown | {opener.ref},
            option=query.option,
        )
        found = ground(inside, now)
        if (
            found_well(found)
            and found.element is not None
            and (first.element is None or found.confidence > first.confidence)
        ):
            return found.element, found
        await _close(run, path, opener)
    return None


async def _close(run: StepContext, path: str, opener: Element) -> None:
    """Close what ``opener`` opened: Escape, then the opener again if it stays open."""
    browser = await run.browser()
    await run.act(path, "press Escape to close it", lambda: browser.press("Escape"))
    again = (await run.screen()).element(opener.ref)
    if again is not None and again.expanded is True and again.visible:
        await run.act(path, f"close '{label_of(opener)}'", _clicker(browser, opener.ref))


async def _refused(
    run: StepContext, before: Screen, what: str, el: Element, effect: ActionEffect
) -> None:
    """Fail the step when the page showed its form again with field errors."""
    problems = form_errors(before, await run.screen(), reloaded=effect.navigated)
    if problems:
        raise StepFailed(f"{what} brought the form back with errors: " + "; ".join(problems), el)


async def _late_change(run: StepContext, before: Screen) -> bool:
    """Whether the page changes within the grace after an action that seemed to do nothing.

    Pages that answer a click from a timer (a debounce, a spinner first) change a
    little after the page looked settled; a change that came before the wait began
    shows in a screen that differs from the one before the click.
    """
    deadline = clock.perf_counter() + run.settings.change_grace_ms / 1000
    if await run.wait_change(deadline):
        browser = await run.browser()
        await browser.settle(run.settings.settle_timeout_ms)
        return True
    return looks(await run.screen()) != looks(before)


# ------------------------------------------------------------------ enter


async def _pick_suggestion(
    run: StepContext, path: str, field: Element, value: str, before: set[str]
) -> Element | None:
    """After typing into an autocomplete, pick the suggestion that matches the value.

    Options that were already showing before typing (another open list on the page)
    are passed over while new ones appeared.
    """
    screen = await run.screen()
    options = appeared(
        [e for e in screen.elements if e.visible and e.role in OPTION_ROLES and not e.disabled],
        before,
    )
    if not options:
        return None
    best = match_option(value, [label_of(o) for o in options])
    if best is None:
        return None
    option = options[best[0]]
    browser = await run.browser()
    await run.act(path, f"pick suggestion '{label_of(option)}'", lambda: browser.click(option.ref))
    return option


async def enter(run: StepContext, path: str, step: Enter) -> Done:
    into = run.sub(step.into)
    within = run.sub(step.within) if step.within else None
    value = run.sub(step.value)
    query = Query(into, Want.FIELD, within, kind="enter")
    when = None if step.submit else _when_words(run, value)
    if when is not None:
        fields = await _split_target(run, into, within, value, when)
        if fields is not None:
            return await _set_split(run, path, fields, when)
    el, screen, grounding = await run.find(path, query)
    before = option_refs(screen)
    if not (el.editable or el.role in FIELD_ROLES):
        raise StepFailed(f"'{label_of(el)}' is a {el.role}, not a field one can type into")
    el = await _uncover(run, path, el, query)
    browser = await run.browser()
    if not step.submit:
        if el.input_type in DATE_INPUTS:
            return await _set_native(run, path, el, value, grounding.confidence)
        when = _when_words(run, value)
        if when is not None and el.tag == "input":
            return await _date_field(run, path, el, screen, when, grounding.confidence, value)
    if el.value and not step.submit and value_took(value, el.value):
        return Done(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=grounding.confidence)
    if not el.editable and el.tag in ("input", "textarea"):
        raise StepFailed(f"'{label_of(el)}' is read-only and nothing on the page fills it", el)
    await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, value))
    if el.role == "combobox" or el.expanded is not None:
        await _pick_suggestion(run, path, el, value, before)
    shown = await browser.read_value(el.ref)
    if not value_took(value, shown):
        holds = f": it shows '{shown}'" if run.mask(value) == value else ""
        raise StepFailed(
            f"typed into '{label_of(el)}', but the field does not show what was typed{holds}", el
        )
    if step.submit:
        run.invalidate()
        sent = await run.screen()
        run.guard_submit(path, sent, "Enter")
        pressed = await run.act(path, "press Enter", lambda: browser.press("Enter"))
        await _refused(run, sent, f"pressing Enter in '{label_of(el)}'", el, pressed)
    return Done(element=el, confidence=grounding.confidence)


# ------------------------------------------------------------------ dates and times

When = date | time | datetime


def _when_words(run: StepContext, words: str) -> When | None:
    """The date or time ``words`` name, or None (a bare number or plain text)."""
    if re.fullmatch(r"\s*\d+\s*", words):
        return None
    return parse_when(words, run.settings.today or date.today()) or month_of(words)


async def _set_native(
    run: StepContext, path: str, el: Element, words: str, confidence: float
) -> Done:
    """A native date, time or month input: its value in the format the input takes."""
    when = parse_when(words, run.settings.today or date.today()) or month_of(words)
    if when is None:
        raise StepFailed(f"'{words}' is not a date or time", el)
    text = native_value(el.input_type, when)
    if text is None:
        raise StepFailed(f"'{words}' is not a {el.input_type} for '{label_of(el)}'", el)
    browser = await run.browser()
    if el.value == text:
        return Done(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
    await run.act(path, f"set '{label_of(el)}' to {text}", lambda: browser.fill(el.ref, text))
    shown = await browser.read_value(el.ref)
    if shown != text:
        raise StepFailed(f"set '{label_of(el)}' to {text}, but it shows '{shown}'", el)
    return Done(element=el, confidence=confidence)


def _written(when: When) -> str:
    if isinstance(when, datetime):
        return f"{when:%d %B %Y %H:%M}"
    return f"{when:%H:%M}" if isinstance(when, time) else f"{when:%d %B %Y}"


async def _date_field(
    run: StepContext,
    path: str,
    el: Element,
    screen: Screen,
    when: When,
    confidence: float,
    words: str | None = None,
) -> Done:
    """A date or time into a text field, whichever way the page takes it, read back after.

    A field that says its format is typed in that format; otherwise a calendar that
    the field (or a button beside it) opens is used, and a field with neither is
    typed as written. A time goes into a read-only field through the hour and
    minute controls of the picker it opens. Then the field must hold the date or
    time, or the step fails saying what it shows.
    """
    browser = await run.browser()
    if isinstance(when, time):
        if not el.editable:
            return await _time_picker(run, path, el, screen, when, confidence)
        text = format_time(when, time_hint(el))
        await run.act(
            path, f"type {text} into '{label_of(el)}'", lambda: browser.fill(el.ref, text)
        )
        shown = await browser.read_value(el.ref)
        if not shows_time(shown, when):
            raise StepFailed(f"typed {text} into '{label_of(el)}', but it shows '{shown}'", el)
        return Done(element=el, confidence=confidence)
    day = when.date() if isinstance(when, datetime) else when
    hint = format_hint(el, screen)
    if el.value and shows_date(el.value, day, hint) and not isinstance(when, datetime):
        return Done(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
    picked = False
    if el.editable and hint:
        text = format_date(day, hint)
        await run.act(
            path, f"type {text} into '{label_of(el)}'", lambda: browser.fill(el.ref, text)
        )
    else:
        picked = await _open_calendar(run, path, el, screen)
        if picked:
            shown_before = frozenset(e.ref for e in screen.elements if e.visible)
            _cell, day = await _pick_date(run, path, day, shown_before, words)
            if isinstance(when, datetime):
                when = datetime.combine(day, when.time())
                await _picker_time(run, path, el, shown_before, when.time())
        elif el.editable:
            # No format asked for and no calendar: the words go in as the flow wrote them.
            text = words if words is not None else _written(when)
            await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, text))
            if words is not None:
                if not value_took(words, await browser.read_value(el.ref)):
                    raise StepFailed(
                        f"typed into '{label_of(el)}', but the field does not show what was typed",
                        el,
                    )
                return Done(element=el, confidence=confidence)
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
        return Done(
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
    return Done(element=el, confidence=confidence)


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
        if not (
            left - _BESIDE_DAYS_PX <= b.cx <= right + _BESIDE_DAYS_PX
            and top - _BESIDE_DAYS_PX <= b.cy <= bottom + _BESIDE_DAYS_PX
        ):
            continue
        browser = await run.browser()
        await run.act(path, f"apply the pick with '{label_of(el)}'", _clicker(browser, el.ref))
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
) -> Done:
    """A read-only time field: open its picker, set the picker's hour, minute and AM/PM
    controls, and read the field back."""
    browser = await run.browser()
    if el.value and shows_time(el.value, at):
        return Done(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
    old = frozenset(e.ref for e in before.elements if e.visible)
    await run.act(path, f"open the time picker of '{label_of(el)}'", _clicker(browser, el.ref))
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
    return Done(element=el, confidence=confidence)


async def _picker_time(
    run: StepContext, path: str, el: Element, before: frozenset[str], at: time
) -> bool:
    """Set the hour and minute controls a picker shows (those not in ``before``) to
    ``at``; False when the picker has none. A picker that takes its controls' values
    when they lose focus gets a Tab when the field does not show the time yet."""
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
    await _set_split(run, path, found[0], at)
    browser = await run.browser()
    if not shows_time(await browser.read_value(el.ref), at):
        await run.act(path, "press Tab to leave the time controls", lambda: browser.press("Tab"))
    return True


_NEAR_OPENER_PX = 40.0


async def _open_calendar(run: StepContext, path: str, el: Element, before: Screen) -> bool:
    """Open the calendar of ``el``: click the field, else the button just beside it."""
    if shows_calendar(before):
        return True  # still open from the step before (a range picker stays open)
    browser = await run.browser()
    await run.act(path, f"open the calendar of '{label_of(el)}'", _clicker(browser, el.ref))
    if await _calendar_shown(run, before):
        return True
    openers = sorted(
        (
            e
            for e in before.elements
            if e.visible
            and not e.disabled
            and e.ref != el.ref
            and e.role in ("button", "clickable", "link", "img")
            and may_open_picker(e)
            and box_distance(e.box, el.box) <= _NEAR_OPENER_PX
        ),
        key=lambda e: box_distance(e.box, el.box),
    )
    for opener in openers[:1]:
        await run.act(
            path, f"open the calendar with '{label_of(opener)}'", _clicker(browser, opener.ref)
        )
        if await _calendar_shown(run, before):
            return True
    return False


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


async def _split_target(
    run: StepContext, words: str, within: str | None, written: str, when: When
) -> SplitFields | None:
    """The day, month and year (or hour, minute and AM/PM) controls ``words`` name,
    when they are on the screen and no single control is named better."""
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


async def _set_split(run: StepContext, path: str, fields: SplitFields, when: When) -> Done:
    """Put each part of ``when`` into its own control, then check that each shows it."""
    values = part_values(fields, when)
    browser = await run.browser()
    screen = await run.screen()
    first = fields.members[0]
    name = fields.name or label_of(first)

    def now(el: Element, scr: Screen) -> Element:
        return scr.element(el.ref) or el

    def shows(el: Element, part: str) -> bool:
        return part_shows(el.value or el.text or el.name, part, values[part])

    if all(shows(now(el, screen), part) for part, el in fields.parts.items()):
        return Done(outcome=StepOutcome.ALREADY_DONE, element=first, confidence=fields.score)
    for part, el in fields.parts.items():
        current = now(el, screen)
        if shows(current, part):
            continue
        want = values[part]
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
                _selector(browser, current.ref, option),
            )
        elif current.role in ("button", "clickable"):
            await run.act(
                path,
                f"switch '{label_of(current)}' to {str(want).upper()}",
                _clicker(browser, current.ref),
            )
        elif current.tag not in ("input", "textarea") and (
            current.editable or current.role == "spinbutton"
        ):
            # A segment drawn without an input (React Aria's, MUI's) takes keys, not a
            # value: each part typed whole, so the segment moves on by itself.
            text = f"{want:02d}" if isinstance(want, int) and part != "year" else str(want)
            await run.act(
                path, f"type {text} into '{label_of(current)}'", _typer(browser, current.ref, text)
            )
        elif current.editable or current.role == "spinbutton":
            text = f"{want:02d}" if part == "minute" and isinstance(want, int) else str(want)
            await run.act(
                path, f"type {text} into '{label_of(current)}'", _filler(browser, current.ref, text)
            )
        else:
            raise StepFailed(f"'{label_of(current)}' cannot be set to {want}", current)
        screen = await run.screen()
    screen = await run.screen()
    for part, el in fields.parts.items():
        current = now(el, screen)
        if not shows(current, part):
            shown = current.value or current.text
            raise StepFailed(
                f"set '{name}' to {_written(when)}, but '{label_of(current)}' shows '{shown}'",
                current,
            )
    return Done(element=first, confidence=fields.score)


# ------------------------------------------------------------------ choose


async def _pick_date(
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
    settings_left = 2  # a calendar whose controls do not move it is moved by its arrows
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
            await run.act(path, f"pick day '{label_of(cell)}'", _clicker(browser, cell.ref))
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
            path, f"move the calendar {way} with '{label_of(nav)}'", _clicker(browser, nav.ref)
        )
    raise StepFailed(f"could not reach {target:%B %Y} in the calendar")


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
                return False
            await run.act(
                path, f"show {year} in the calendar", _selector(browser, year_el.ref, year)
            )
        else:
            await run.act(path, f"show {year} in the calendar", _filler(browser, year_el.ref, year))
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
                path, f"show {target:%B} in the calendar", _selector(browser, current.ref, option)
            )
            moved = True
    return moved


def _selector(browser: Surface, ref: str, label: str) -> Callable[[], Awaitable[ActionEffect]]:
    return lambda: browser.select_option(ref, label)


def _filler(browser: Surface, ref: str, text: str) -> Callable[[], Awaitable[ActionEffect]]:
    return lambda: browser.fill(ref, text)


def _typer(browser: Surface, ref: str, text: str) -> Callable[[], Awaitable[ActionEffect]]:
    return lambda: browser.type_keys(ref, text)


def _clicker(browser: Surface, ref: str) -> Callable[[], Awaitable[ActionEffect]]:
    return lambda: browser.click(ref)


async def _choose_among(run: StepContext, path: str, members: list[Element], option: str) -> Done:
    best = match_option(option, [label_of(m) for m in members])
    if best is None:
        names = ", ".join(label_of(m) for m in members[:8])
        raise StepFailed(f"no option matches '{option}' (there are: {names})")
    chosen = members[best[0]]
    if chosen.checked or chosen.selected:
        return Done(outcome=StepOutcome.ALREADY_DONE, element=chosen, confidence=best[1])
    browser = await run.browser()
    await run.act(path, f"choose '{label_of(chosen)}'", lambda: browser.click(chosen.ref))
    await _took_pick(run, chosen)
    return Done(element=chosen, confidence=best[1])


async def _took_pick(run: StepContext, chosen: Element) -> None:
    """Fail when a radio, checkbox, tab or option that says its state is still not picked.

    One the page took away (a popup that closed, a page that reloaded) cannot say.
    """
    attr = "checked" if chosen.checked is not None else "selected"
    if getattr(chosen, attr) is None:
        return
    now = (await run.screen()).element(chosen.ref)
    if now is not None and now.visible and getattr(now, attr) is False:
        raise StepFailed(
            f"clicked '{label_of(chosen)}', but it is still not "
            f"{'ticked' if attr == 'checked' else 'selected'}",
            chosen,
        )


async def choose(run: StepContext, path: str, step: Choose) -> Done:
    option = run.sub(step.option)
    target = run.sub(step.in_)
    within = run.sub(step.within) if step.within else None
    query = Query(target, Want.CONTROL, within, kind="choose", option=option)
    when = _when_words(run, option)
    if when is not None:
        fields = await _split_target(run, target, within, option, when)
        if fields is not None:
            return await _set_split(run, path, fields, when)
    el, screen, grounding = await run.find(path, query)
    el = await _uncover(run, path, el, query)
    browser = await run.browser()

    if el.tag == "select" or el.options:
        return await _choose_in_select(run, path, el, option, grounding.confidence)

    if el.input_type in DATE_INPUTS:
        return await _set_native(run, path, el, option, grounding.confidence)
    if when is not None and el.tag == "input":
        return await _date_field(run, path, el, screen, when, grounding.confidence, option)
    if (
        when is not None
        and el.role in ("button", "link", "clickable", "menuitem")
        and not (may_open_picker(el) or normalise(label_of(el)) == normalise(target))
    ):
        # "Birthday" matched the form's "Save birthday": pressing it would submit the
        # form, not pick a date.
        raise StepFailed(
            f"'{label_of(el)}' is a {el.role}, not a date or time control: pressing it "
            f"would not put {option} anywhere",
            el,
        )

    if el.role in ("checkbox", "switch"):
        members = group_members(screen, el)
        if len(members) > 1 and el.group:
            return await _choose_among(run, path, members, option)
        if el.checked:
            return Done(StepOutcome.ALREADY_DONE, element=el, confidence=grounding.confidence)
        await run.act(path, f"tick '{label_of(el)}'", lambda: browser.click(el.ref))
        await _took_pick(run, el)
        return Done(element=el, confidence=grounding.confidence)

    if el.role in ("radio", "tab"):
        return await _choose_among(run, path, group_members(screen, el), option)

    if el.role in OPTION_ROLES and el.visible and el.expanded is None:
        # An option of a list that shows its options: the list itself was meant.
        return await _choose_among(run, path, [el], option)

    # A custom control: open it, then pick from what appears (suggestions, a list,
    # a calendar). An editable one is typed into to filter its suggestions.
    date_like = is_date_words(option, run.settings.today or date.today())
    popup_roles = OPTION_ROLES | {"radio", "tab", "menuitemcheckbox"}
    before = option_refs(await run.screen(), popup_roles)
    if el.editable and not date_like and el.input_type not in ("date",):
        await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, option))
        picked = await _pick_suggestion(run, path, el, option, before)
        shown = await browser.read_value(el.ref)
        if picked is None and not value_took(option, shown):
            raise StepFailed(f"no suggestion for '{option}' appeared under '{label_of(el)}'")
        return Done(element=picked or el, confidence=grounding.confidence)

    if not el.expanded:
        await run.act(path, f"open '{label_of(el)}'", lambda: browser.click(el.ref))
    if date_like:
        when = parse_when(option, run.settings.today or date.today())
        day = when.date() if isinstance(when, datetime) else when
        if not isinstance(day, date):
            raise StepFailed(f"'{option}' is not a date")
        cell, _ = await _pick_date(run, path, day, words=option)
        return Done(element=cell, confidence=grounding.confidence)
    deadline = clock.perf_counter() + run.settings.target_timeout_ms / 1000
    while True:
        screen = await run.screen()
        options = appeared(
            [e for e in screen.elements if e.visible and e.role in popup_roles], before
        )
        if options:
            return await _choose_among(run, path, options, option)
        if not await run.wait_change(deadline):
            raise StepFailed(
                f"opening '{label_of(el)}' showed no options to choose '{option}' from"
            )


async def _choose_in_select(
    run: StepContext, path: str, el: Element, option: str, confidence: float
) -> Done:
    """A native select: pick the option; in a multiple select, add it to those picked."""
    best = match_option(option, el.options)
    if best is None:
        names = ", ".join(el.options[:8])
        raise StepFailed(f"'{label_of(el)}' has no option like '{option}' (there are: {names})")
    index, label = best[0], el.options[best[0]]
    browser = await run.browser()
    state = await browser.selection(el.ref)
    if index in state.selected and (state.multiple or len(state.selected) == 1):
        return Done(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
    if state.multiple:
        await run.act(
            path,
            f"add '{label}' to what is selected",
            lambda: browser.select_option(el.ref, label, add=True),
        )
    else:
        await run.act(path, f"select '{label}'", lambda: browser.select_option(el.ref, label))
    after = await browser.selection(el.ref)
    if index not in after.selected:
        shown = ", ".join(el.options[i] for i in after.selected if i < len(el.options))
        raise StepFailed(
            f"selected '{label}' in '{label_of(el)}', but it shows '{shown or 'nothing'}'", el
        )
    return Done(element=el, confidence=confidence)


# ------------------------------------------------------------------ stop_before


async def stop_before(run: StepContext, path: str, step: StopBefore) -> Done:
    words = run.sub(step.action)
    deadline = clock.perf_counter() + run.settings.target_timeout_ms / 1000
    # A control in a closed menu is found by opening the menu (reversible); it is
    # still only stopped in front of.
    found = pick_action(words, await run.screen())
    revealed = None
    if found is None or found[1] < FOUND:
        revealed = await _reveal(run, path, Query(words, Want.ACTION, kind="stop_before"))
    if revealed is not None:
        found = (revealed[0], revealed[1].confidence)
        screen = await run.screen()
    while revealed is None:
        screen = await run.screen()
        found = pick_action(words, screen)
        if found is not None:
            break
        if not await run.wait_change(deadline):
            raise StepFailed(f"found no control on the screen for '{words}'")
    assert found is not None
    el, confidence = found
    if run.allow_destructive:
        if el.disabled:
            raise StepFailed(f"the control for '{words}', '{label_of(el)}', is disabled")
        browser = await run.browser()
        effect = await run.act(path, f"press '{label_of(el)}'", lambda: browser.click(el.ref))
        await _refused(run, screen, f"pressing '{label_of(el)}'", el, effect)
        return Done(element=el, confidence=confidence)
    run.guard(path, el, screen, words)
    # A reversible control the flow still asked to stop before: stop all the same.
    raise Gated(
        Gate(
            path=path,
            action=words,
            label=run.mask(label_of(el)),
            consequence=judge(el, screen).value,
            payment_screen=bool(card_evidence(screen)),
            url=run.mask(screen.url),
        ),
        el,
    )
