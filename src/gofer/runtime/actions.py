"""The acting steps: click, enter, choose and stop_before.

Each grounds its target on a fresh screen, acts once through the browser
surface, and checks that the action took.
"""

from __future__ import annotations

import contextlib
import re
import time as clock
from collections.abc import Awaitable, Callable
from datetime import date, datetime, time
from typing import TYPE_CHECKING

from playwright.async_api import Error as PlaywrightError

from gofer.decide import Query, Want, ground, match_date_cell, match_option, normalise, parse_when
from gofer.decide.when import MONTHS
from gofer.errors import SurfaceError
from gofer.flow import Choose, Click, Enter, StopBefore
from gofer.runtime.overlays import covering, dismisser
from gofer.runtime.signals import Done, Gated, StepFailed
from gofer.runtime.types import Gate, StepOutcome
from gofer.safety import Consequence, consequence, human_wall, screen_payment_evidence
from gofer.surfaces import ActionEffect, BrowserSurface
from gofer.surfaces.screen import Element, Screen

if TYPE_CHECKING:
    from gofer.runtime.run import Run

_FIELD_ROLES = {"textbox", "searchbox", "combobox", "spinbutton"}
_OPTION_ROLES = {"option", "menuitemradio", "menuitem", "gridcell", "treeitem"}
_MONTH_HEADING = re.compile(
    r"\b(" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?,?\s+(\d{4})\b",
    re.IGNORECASE,
)
_DIGITS = re.compile(r"\d")


def label_of(el: Element) -> str:
    """The words a person would call ``el`` by, for reports and reasons."""
    return el.name or el.label or el.text or el.placeholder or el.title or el.role


_MOST_DISMISSALS = 3  # layers closed for one target (a consent wall, then a popup)


async def _uncover(run: Run, path: str, el: Element, query: Query) -> Element:
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
            raise StepFailed(f"{what} asking for card details; the flow does not say to pay",
                             again)
        closer = dismisser(cover)
        if closer is None:
            raise StepFailed(f"{what}; the flow does not say how to close it", again)
        run.event(path, "dismiss", cover=cover.name, control=label_of(closer))
        await run.act(path, f"close '{cover.name}' with '{label_of(closer)}'",
                      _clicker(browser, closer.ref))
        again, screen, _ = await run.find(path, query)
    if again.on_top:
        return again
    raise StepFailed(f"'{label_of(again)}' is still covered after closing "
                     f"{_MOST_DISMISSALS} dialogs over it", again)


# ------------------------------------------------------------------ click


async def click(run: Run, path: str, step: Click) -> Done:
    words = run.sub(step.target)
    within = run.sub(step.within) if step.within else None
    query = Query(words, Want.CLICK, within, kind="click")
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
    return Done(element=el, confidence=grounding.confidence)


def _looks(screen: Screen) -> tuple[object, ...]:
    """What a person would notice of a screen: its address, text and control states."""
    return (
        screen.url,
        screen.text,
        screen.dialog_open,
        tuple(
            (e.role, e.name, e.value, e.checked, e.selected, e.expanded, e.disabled, e.visible)
            for e in screen.elements
        ),
    )


async def _late_change(run: Run, before: Screen) -> bool:
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
    return _looks(await run.screen()) != _looks(before)


# ------------------------------------------------------------------ enter


def _value_took(wanted: str, shown: str) -> bool:
    if not wanted:
        return not shown
    if _DIGITS.search(wanted) and len(re.sub(r"\D", "", wanted)) >= 6:
        digits_w, digits_s = re.sub(r"\D", "", wanted), re.sub(r"\D", "", shown)
        return digits_w == digits_s or digits_s.endswith(digits_w) or digits_w.endswith(digits_s)
    w, s = normalise(wanted), normalise(shown)
    return w == s or (bool(s) and (w in s or s in w))


def _option_refs(screen: Screen, roles: frozenset[str] | set[str] = _OPTION_ROLES) -> set[str]:
    return {e.ref for e in screen.elements if e.visible and e.role in roles}


def _appeared(options: list[Element], before: set[str]) -> list[Element]:
    """The options that appeared since ``before`` (the popup just opened), else all."""
    fresh = [o for o in options if o.ref not in before]
    return fresh or options


async def _pick_suggestion(
    run: Run, path: str, field: Element, value: str, before: set[str]
) -> Element | None:
    """After typing into an autocomplete, pick the suggestion that matches the value.

    Options that were already showing before typing (another open list on the page)
    are passed over while new ones appeared.
    """
    screen = await run.screen()
    options = _appeared([
        e for e in screen.elements if e.visible and e.role in _OPTION_ROLES and not e.disabled
    ], before)
    if not options:
        return None
    best = match_option(value, [label_of(o) for o in options])
    if best is None:
        return None
    option = options[best[0]]
    browser = await run.browser()
    await run.act(path, f"pick suggestion '{label_of(option)}'", lambda: browser.click(option.ref))
    return option


async def _shown_value(run: Run, el: Element, value: str) -> str:
    """What ``el`` holds, to compare with ``value``: the screen's copy unless it is masked.

    The screen hides secrets behind markers; only for a secret value is the field
    read from the page itself.
    """
    if run.mask(value) == value:
        return el.value
    browser = await run.browser()
    return await browser.read_value(el.ref)


async def enter(run: Run, path: str, step: Enter) -> Done:
    into = run.sub(step.into)
    within = run.sub(step.within) if step.within else None
    value = run.sub(step.value)
    query = Query(into, Want.FIELD, within, kind="enter")
    el, screen, grounding = await run.find(path, query)
    before = _option_refs(screen)
    if not (el.editable or el.role in _FIELD_ROLES):
        raise StepFailed(f"'{label_of(el)}' is a {el.role}, not a field one can type into")
    el = await _uncover(run, path, el, query)
    browser = await run.browser()
    if el.value and not step.submit and _value_took(value, await _shown_value(run, el, value)):
        return Done(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=grounding.confidence)
    await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, value))
    if el.role == "combobox" or el.expanded is not None:
        await _pick_suggestion(run, path, el, value, before)
    shown = await browser.read_value(el.ref)
    if not _value_took(value, shown):
        raise StepFailed(f"typed into '{label_of(el)}', but the field does not show what was typed")
    if step.submit:
        run.invalidate()
        run.guard_submit(path, await run.screen(), "Enter")
        await run.act(path, "press Enter", lambda: browser.press("Enter"))
    return Done(element=el, confidence=grounding.confidence)


# ------------------------------------------------------------------ choose


_ISO_DATE = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{1,2}):(\d{2}))?\s*$")


def when_of(words: str, today: date) -> date | time | datetime | None:
    """A date or time in any common written form; ISO dates are year-month-day."""
    iso = _ISO_DATE.match(words)
    if iso:
        y, m, d, hh, mm = iso.groups()
        try:
            day = date(int(y), int(m), int(d))
            if hh is not None:
                return datetime(day.year, day.month, day.day, int(hh), int(mm))
        except ValueError:
            return None
        return day
    return parse_when(words, today)


def _is_date_words(words: str, today: date) -> bool:
    when = when_of(words, today)
    return isinstance(when, date) and not re.fullmatch(r"\s*\d+\s*", words)


def _shown_month(screen: Screen) -> tuple[int, int] | None:
    for line in screen.lines:
        m = _MONTH_HEADING.search(line.text)
        if m:
            return int(m.group(2)), MONTHS[m.group(1).casefold()]
    return None


async def _pick_date(run: Run, path: str, words: str) -> Element:
    """In an open date picker, move month by month to the date and pick the day."""
    browser = await run.browser()
    screen = await run.screen()
    shown = _shown_month(screen)
    today = run.settings.today or date.today()
    reference = date(shown[0], shown[1], 1) if shown else today
    when = when_of(words, reference)
    if when is None:
        raise StepFailed(f"'{words}' is not a date")
    target = when.date() if isinstance(when, datetime) else when
    if not isinstance(target, date):
        raise StepFailed(f"'{words}' is not a date")
    for _ in range(36):
        screen = await run.screen()
        cells = [e for e in screen.elements if e.visible and not e.disabled]
        cell = match_date_cell(target, cells)
        shown = _shown_month(screen)
        if cell is not None and (
            shown in (None, (target.year, target.month)) or _names_month(cell, target)
        ):
            await run.act(path, f"pick day '{label_of(cell)}'", _clicker(browser, cell.ref))
            return cell
        if shown is None:
            raise StepFailed(
                f"no calendar showing a month opened, so {target:%d %B %Y} cannot be picked"
            )
        forward = (shown[0], shown[1]) < (target.year, target.month)
        words_nav = "Next month" if forward else "Previous month"
        g = ground(Query(words_nav, Want.CLICK, kind="choose"), screen)
        if g.element is None:
            raise StepFailed(f"the calendar has no '{words_nav}' control")
        await run.act(path, words_nav, _clicker(browser, g.element.ref))
    raise StepFailed(f"could not reach {target:%B %Y} in the calendar")


def _names_month(cell: Element, day: date) -> bool:
    """Whether the cell's own words or its grid's name say which month it is in."""
    words = " ".join((cell.name, cell.label, cell.title, cell.text, cell.group, cell.section))
    tokens = set(normalise(words).split())
    month = f"{day:%B}".casefold()
    return bool(tokens & {month, month[:3]}) or day.isoformat() in words


def _clicker(browser: BrowserSurface, ref: str) -> Callable[[], Awaitable[ActionEffect]]:
    return lambda: browser.click(ref)


def _group_members(screen: Screen, el: Element) -> list[Element]:
    if el.group:
        return [e for e in screen.elements if e.group == el.group and e.role == el.role]
    return [el]


async def _choose_among(run: Run, path: str, members: list[Element], option: str) -> Done:
    best = match_option(option, [label_of(m) for m in members])
    if best is None:
        names = ", ".join(label_of(m) for m in members[:8])
        raise StepFailed(f"no option matches '{option}' (there are: {names})")
    chosen = members[best[0]]
    if chosen.checked or chosen.selected:
        return Done(outcome=StepOutcome.ALREADY_DONE, element=chosen, confidence=best[1])
    browser = await run.browser()
    await run.act(path, f"choose '{label_of(chosen)}'", lambda: browser.click(chosen.ref))
    return Done(element=chosen, confidence=best[1])


async def choose(run: Run, path: str, step: Choose) -> Done:
    option = run.sub(step.option)
    target = run.sub(step.in_)
    within = run.sub(step.within) if step.within else None
    query = Query(target, Want.CONTROL, within, kind="choose")
    el, screen, grounding = await run.find(path, query)
    el = await _uncover(run, path, el, query)
    browser = await run.browser()

    if el.tag == "select" or el.options:
        return await _choose_in_select(run, path, el, option, grounding.confidence)

    if el.input_type in ("date", "time", "datetime-local", "month"):
        when = when_of(option, run.settings.today or date.today())
        if when is None:
            raise StepFailed(f"'{option}' is not a date or time")
        text = _native_value(el.input_type, when)
        if text is None:
            raise StepFailed(f"'{option}' is not a {el.input_type} for '{label_of(el)}'")
        await run.act(path, f"set '{label_of(el)}' to {text}", lambda: browser.fill(el.ref, text))
        return Done(element=el, confidence=grounding.confidence)

    if el.role in ("checkbox", "switch"):
        members = _group_members(screen, el)
        if len(members) > 1 and el.group:
            return await _choose_among(run, path, members, option)
        if el.checked:
            return Done(StepOutcome.ALREADY_DONE, element=el, confidence=grounding.confidence)
        await run.act(path, f"tick '{label_of(el)}'", lambda: browser.click(el.ref))
        return Done(element=el, confidence=grounding.confidence)

    if el.role in ("radio", "tab"):
        return await _choose_among(run, path, _group_members(screen, el), option)

    # A custom control: open it, then pick from what appears (suggestions, a list,
    # a calendar). An editable one is typed into to filter its suggestions.
    date_like = _is_date_words(option, run.settings.today or date.today())
    popup_roles = _OPTION_ROLES | {"radio", "tab", "menuitemcheckbox"}
    before = _option_refs(await run.screen(), popup_roles)
    if el.editable and not date_like and el.input_type not in ("date",):
        await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, option))
        picked = await _pick_suggestion(run, path, el, option, before)
        shown = await browser.read_value(el.ref)
        if picked is None and not _value_took(option, shown):
            raise StepFailed(f"no suggestion for '{option}' appeared under '{label_of(el)}'")
        return Done(element=picked or el, confidence=grounding.confidence)

    if not el.expanded:
        await run.act(path, f"open '{label_of(el)}'", lambda: browser.click(el.ref))
    if date_like:
        cell = await _pick_date(run, path, option)
        return Done(element=cell, confidence=grounding.confidence)
    deadline = clock.perf_counter() + run.settings.target_timeout_ms / 1000
    while True:
        screen = await run.screen()
        options = _appeared(
            [e for e in screen.elements if e.visible and e.role in popup_roles], before)
        if options:
            return await _choose_among(run, path, options, option)
        if not await run.wait_change(deadline):
            raise StepFailed(
                f"opening '{label_of(el)}' showed no options to choose '{option}' from")


def _native_value(input_type: str, when: date | time | datetime) -> str | None:
    """The value a native date or time input takes, or None when ``when`` lacks a part."""
    if input_type == "time":
        return when.strftime("%H:%M") if isinstance(when, (datetime, time)) else None
    if isinstance(when, time):
        return None
    if input_type == "datetime-local":
        at = when if isinstance(when, datetime) else datetime.combine(when, time())
        return at.strftime("%Y-%m-%dT%H:%M")
    day = when.date() if isinstance(when, datetime) else when
    return day.strftime("%Y-%m") if input_type == "month" else day.isoformat()


_SELECTED = """(s) => ({
  multiple: s.multiple,
  selected: Array.from(s.options).flatMap((o, i) => o.selected ? [i] : []),
})"""


async def _choose_in_select(
    run: Run, path: str, el: Element, option: str, confidence: float
) -> Done:
    """A native select: pick the option; in a multiple select, add it to those picked."""
    best = match_option(option, el.options)
    if best is None:
        names = ", ".join(el.options[:8])
        raise StepFailed(f"'{label_of(el)}' has no option like '{option}' (there are: {names})")
    index, label = best[0], el.options[best[0]]
    browser = await run.browser()
    try:
        handle = await browser.element(el.ref)
    except SurfaceError as exc:
        raise StepFailed(exc.message) from exc
    try:
        state = await handle.evaluate(_SELECTED)
        selected = [int(i) for i in state["selected"]]
        if index in selected and (state["multiple"] or len(selected) == 1):
            return Done(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
        if not state["multiple"]:
            await run.act(path, f"select '{label}'", lambda: browser.select_option(el.ref, label))
            return Done(element=el, confidence=confidence)
        wanted = [*selected, index]

        async def add() -> ActionEffect:
            await handle.select_option(index=wanted, timeout=run.settings.target_timeout_ms)
            return ActionEffect(dom_changed=True)

        await run.act(path, f"add '{label}' to what is selected", add)
    except PlaywrightError as exc:
        raise StepFailed(f"could not choose '{label}' in '{label_of(el)}': {exc.message}") from exc
    finally:
        with contextlib.suppress(PlaywrightError):
            await handle.dispose()
    return Done(element=el, confidence=confidence)


# ------------------------------------------------------------------ stop_before

_ACTION_ROLES = {"button", "link", "clickable", "menuitem"}


def _pick_action(words: str, screen: Screen) -> tuple[Element, float] | None:
    """The control that does the action ``words`` describe."""
    g = ground(Query(words, Want.ACTION, kind="stop_before"), screen)
    if g.element is not None and not g.low_confidence:
        return g.element, g.confidence
    wants_payment = any(
        w in words.casefold() for w in ("pay", "purchase", "checkout", "check out", "buy", "order")
    ) or consequence(words) is Consequence.PAYMENT
    ranked: list[tuple[int, float, Element]] = []
    scores = {c.element.ref: c.score for c in g.candidates}
    for el in screen.elements:
        if not el.visible or (el.role not in _ACTION_ROLES and el.input_type not in ("submit",)):
            continue
        kind = consequence(label_of(el))
        if kind is Consequence.REVERSIBLE:
            continue
        rank = 2 if (kind is Consequence.PAYMENT) == wants_payment else 1
        ranked.append((rank, scores.get(el.ref, 0.0), el))
    if ranked:
        ranked.sort(key=lambda r: (r[0], not r[2].disabled, r[1]), reverse=True)
        return ranked[0][2], 0.6 if ranked[0][0] == 2 else 0.4
    if g.element is not None:
        return g.element, g.confidence
    return None


async def stop_before(run: Run, path: str, step: StopBefore) -> Done:
    words = run.sub(step.action)
    deadline = clock.perf_counter() + run.settings.target_timeout_ms / 1000
    while True:
        screen = await run.screen()
        found = _pick_action(words, screen)
        if found is not None:
            break
        if not await run.wait_change(deadline):
            raise StepFailed(f"found no control on the screen for '{words}'")
    el, confidence = found
    if run.request.allow_destructive:
        if el.disabled:
            raise StepFailed(f"the control for '{words}', '{label_of(el)}', is disabled")
        browser = await run.browser()
        await run.act(path, f"press '{label_of(el)}'", lambda: browser.click(el.ref))
        return Done(element=el, confidence=confidence)
    run.guard(path, el, screen, words)
    # A reversible control the flow still asked to stop before: stop all the same.
    raise Gated(
        Gate(path=path, action=words, label=run.mask(label_of(el)),
             consequence=consequence(label_of(el)).value,
             payment_screen=bool(screen_payment_evidence(screen.text)), url=screen.url),
        el,
    )
