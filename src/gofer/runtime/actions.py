"""The acting steps: click, enter, choose and stop_before.

Each grounds its target on a fresh screen, acts once through the browser
surface, and checks that the action took.
"""

from __future__ import annotations

import time as clock
from collections.abc import Awaitable, Callable
from datetime import date, datetime

from gofer.decide import Query, Want, ground, match_date_cell, match_option, parse_when
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
from gofer.decide.dates import is_date_words, names_month, native_value, shown_month
from gofer.decide.overlays import covering, dismisser
from gofer.flow import Choose, Click, Enter, StopBefore
from gofer.runtime.context import StepContext
from gofer.runtime.signals import Done, Gated, StepFailed
from gofer.runtime.types import Gate, StepOutcome
from gofer.safety import consequence, human_wall, screen_payment_evidence
from gofer.surfaces import ActionEffect, Surface
from gofer.surfaces.screen import Element, Screen

__all__ = ["choose", "click", "enter", "label_of", "stop_before"]

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


async def click(run: StepContext, path: str, step: Click) -> Done:
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
    options = appeared([
        e for e in screen.elements if e.visible and e.role in OPTION_ROLES and not e.disabled
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


async def _shown_value(run: StepContext, el: Element, value: str) -> str:
    """What ``el`` holds, to compare with ``value``: the screen's copy unless it is masked.

    The screen hides secrets behind markers; only for a secret value is the field
    read from the page itself.
    """
    if run.mask(value) == value:
        return el.value
    browser = await run.browser()
    return await browser.read_value(el.ref)


async def enter(run: StepContext, path: str, step: Enter) -> Done:
    into = run.sub(step.into)
    within = run.sub(step.within) if step.within else None
    value = run.sub(step.value)
    query = Query(into, Want.FIELD, within, kind="enter")
    el, screen, grounding = await run.find(path, query)
    before = option_refs(screen)
    if not (el.editable or el.role in FIELD_ROLES):
        raise StepFailed(f"'{label_of(el)}' is a {el.role}, not a field one can type into")
    el = await _uncover(run, path, el, query)
    browser = await run.browser()
    if el.value and not step.submit and value_took(value, await _shown_value(run, el, value)):
        return Done(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=grounding.confidence)
    await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, value))
    if el.role == "combobox" or el.expanded is not None:
        await _pick_suggestion(run, path, el, value, before)
    shown = await browser.read_value(el.ref)
    if not value_took(value, shown):
        raise StepFailed(f"typed into '{label_of(el)}', but the field does not show what was typed")
    if step.submit:
        run.invalidate()
        run.guard_submit(path, await run.screen(), "Enter")
        await run.act(path, "press Enter", lambda: browser.press("Enter"))
    return Done(element=el, confidence=grounding.confidence)


# ------------------------------------------------------------------ choose


async def _pick_date(run: StepContext, path: str, words: str) -> Element:
    """In an open date picker, move month by month to the date and pick the day."""
    browser = await run.browser()
    screen = await run.screen()
    shown = shown_month(screen)
    today = run.settings.today or date.today()
    reference = date(shown[0], shown[1], 1) if shown else today
    when = parse_when(words, reference)
    if when is None:
        raise StepFailed(f"'{words}' is not a date")
    target = when.date() if isinstance(when, datetime) else when
    if not isinstance(target, date):
        raise StepFailed(f"'{words}' is not a date")
    for _ in range(36):
        screen = await run.screen()
        cells = [e for e in screen.elements if e.visible and not e.disabled]
        cell = match_date_cell(target, cells)
        shown = shown_month(screen)
        if cell is not None and (
            shown in (None, (target.year, target.month)) or names_month(cell, target)
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
    return Done(element=chosen, confidence=best[1])


async def choose(run: StepContext, path: str, step: Choose) -> Done:
    option = run.sub(step.option)
    target = run.sub(step.in_)
    within = run.sub(step.within) if step.within else None
    query = Query(target, Want.CONTROL, within, kind="choose")
    el, screen, grounding = await run.find(path, query)
    el = await _uncover(run, path, el, query)
    browser = await run.browser()

    if el.tag == "select" or el.options:
        return await _choose_in_select(run, path, el, option, grounding.confidence)

    if el.input_type in DATE_INPUTS:
        when = parse_when(option, run.settings.today or date.today())
        if when is None:
            raise StepFailed(f"'{option}' is not a date or time")
        text = native_value(el.input_type, when)
        if text is None:
            raise StepFailed(f"'{option}' is not a {el.input_type} for '{label_of(el)}'")
        await run.act(path, f"set '{label_of(el)}' to {text}", lambda: browser.fill(el.ref, text))
        return Done(element=el, confidence=grounding.confidence)

    if el.role in ("checkbox", "switch"):
        members = group_members(screen, el)
        if len(members) > 1 and el.group:
            return await _choose_among(run, path, members, option)
        if el.checked:
            return Done(StepOutcome.ALREADY_DONE, element=el, confidence=grounding.confidence)
        await run.act(path, f"tick '{label_of(el)}'", lambda: browser.click(el.ref))
        return Done(element=el, confidence=grounding.confidence)

    if el.role in ("radio", "tab"):
        return await _choose_among(run, path, group_members(screen, el), option)

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
        cell = await _pick_date(run, path, option)
        return Done(element=cell, confidence=grounding.confidence)
    deadline = clock.perf_counter() + run.settings.target_timeout_ms / 1000
    while True:
        screen = await run.screen()
        options = appeared(
            [e for e in screen.elements if e.visible and e.role in popup_roles], before)
        if options:
            return await _choose_among(run, path, options, option)
        if not await run.wait_change(deadline):
            raise StepFailed(
                f"opening '{label_of(el)}' showed no options to choose '{option}' from")


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
        await run.act(path, f"add '{label}' to what is selected",
                      lambda: browser.select_option(el.ref, label, add=True))
    else:
        await run.act(path, f"select '{label}'", lambda: browser.select_option(el.ref, label))
    return Done(element=el, confidence=confidence)


# ------------------------------------------------------------------ stop_before

async def stop_before(run: StepContext, path: str, step: StopBefore) -> Done:
    words = run.sub(step.action)
    deadline = clock.perf_counter() + run.settings.target_timeout_ms / 1000
    while True:
        screen = await run.screen()
        found = pick_action(words, screen)
        if found is not None:
            break
        if not await run.wait_change(deadline):
            raise StepFailed(f"found no control on the screen for '{words}'")
    el, confidence = found
    if run.allow_destructive:
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
