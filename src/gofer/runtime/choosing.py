"""The ``choose`` step: an option picked in whatever control offers it."""

from __future__ import annotations

import time as clock
from datetime import date, datetime, time

from gofer.decide import (
    DATE_INPUTS,
    OPTION_ROLES,
    Query,
    Want,
    choice_members,
    date_order,
    filtered_rows,
    is_date_words,
    label_of,
    match_option,
    may_open_picker,
    normalise,
    offering_beside,
    option_refs,
    parse_when,
    popup_choices,
    pressable,
    reread_date,
    rows_under,
    shows_choice,
    tick_state,
    value_took,
)
from gofer.flow import Choose
from gofer.runtime.calendars import in_shown_calendar, pick_date, pick_shown
from gofer.runtime.context import StepContext, clicker, typer
from gofer.runtime.layers import leave_closed, pick_suggestion, uncover
from gofer.runtime.listed import choose_in_select, lists_times, pick_time, set_slider
from gofer.runtime.pickers import (
    date_field,
    set_native,
    set_split,
    split_target,
    when_words,
)
from gofer.runtime.redrawn import click_redrawn
from gofer.runtime.signals import StepFailed, StepFinished
from gofer.runtime.types import StepOutcome
from gofer.surfaces.screen import Element, Screen

__all__ = ["choose"]

_MOST_PAGES = 40  # pages of one list scrolled through looking for an option


async def _choose_among(
    run: StepContext,
    path: str,
    members: list[Element],
    option: str,
    opener: Element | None = None,
) -> StepFinished:
    """Pick the member ``option`` names. One that says it is picked already is left as it
    is; in a list ``opener`` opened, only when the opener shows it too (some lists mark
    the row under the pointer as selected)."""
    best = match_option(option, [label_of(m) for m in members])
    if best is None:
        names = ", ".join(label_of(m) for m in members[:8])
        raise StepFailed(f"no option matches '{option}' (there are: {names})")
    chosen = members[best[0]]
    if (chosen.checked or chosen.selected) and (
        opener is None or shows_choice(await run.screen(), opener, label_of(chosen))
    ):
        return StepFinished(outcome=StepOutcome.ALREADY_DONE, element=chosen, confidence=best[1])

    async def again() -> Element:
        # the same option, redrawn: one of its role and words on the page now
        same = [
            e
            for e in (await run.screen()).elements
            if e.role == chosen.role and label_of(e) == label_of(chosen) and e.visible
        ]
        if len(same) != 1:
            raise StepFailed(f"'{label_of(chosen)}' was redrawn and is not on the page", chosen)
        return same[0]

    chosen, _ = await click_redrawn(run, path, f"choose '{label_of(chosen)}'", chosen, again)
    await _took_pick(run, chosen)
    return StepFinished(element=chosen, confidence=best[1])


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


async def choose(run: StepContext, path: str, step: Choose) -> StepFinished:
    """A ``choose`` step: pick an option in the control its words name.

    Whatever the control is: a native select, a radio or tab group, a checkbox, a
    date or time control (``runtime.pickers``), or a custom one that shows its
    options once opened (typed into first when it filters as one types). An option
    already picked is left as it is; a pick the control does not show fails.
    """
    option = run.sub(step.option)
    target = run.sub(step.in_)
    within = run.sub(step.within) if step.within else None
    query = Query(target, Want.CONTROL, within, kind="choose", option=option)
    when = when_words(run, option)
    if when is not None:
        fields = await split_target(run, target, within, option, when)
        if fields is not None:
            return await set_split(run, path, fields, when)
    el, screen, grounding = await run.find(path, query)
    el = await uncover(run, path, el, query)
    if when is None and el.editable and el.role in ("textbox", "searchbox") and not el.expanded:
        # a text box and a select under one label: the select offers the option
        el = offering_beside(screen, el, option) or el

    if el.tag == "select" or el.options:
        return await choose_in_select(run, path, el, option, grounding.confidence)

    if el.input_type in DATE_INPUTS:
        return await set_native(run, path, el, option, grounding.confidence)
    if el.role == "slider" or el.input_type == "range":
        return await set_slider(run, path, el, option, grounding.confidence)
    if isinstance(when, time) and lists_times(el):
        picked = await pick_time(run, path, el, when, grounding.confidence)
        assert picked is not None  # a choose never falls back to typing
        return picked
    if when is not None and el.tag == "input":
        return await date_field(run, path, el, screen, when, grounding.confidence, option)
    if when is not None and in_shown_calendar(el, grounding.evidence, screen):
        return await pick_shown(run, path, el, screen, option, grounding.confidence)
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

    members = choice_members(screen, el, option)
    if pressable(el) and len(members) > 1:
        return await _choose_among(run, path, members, option)
    if el.role in ("checkbox", "switch") or pressable(el):
        return await _choose_toggle(run, path, el, members, option, target, grounding.confidence)

    if el.role in ("radio", "tab"):
        return await _choose_among(run, path, choice_members(screen, el, option), option)

    if el.role in OPTION_ROLES and el.visible and el.expanded is None:
        # An option of a list that shows its options: the list itself was meant.
        return await _choose_among(run, path, [el], option)

    return await _choose_custom(run, path, el, screen, option, grounding.confidence)


async def _choose_toggle(
    run: StepContext,
    path: str,
    el: Element,
    members: list[Element],
    option: str,
    target: str,
    confidence: float,
) -> StepFinished:
    """A checkbox, switch or pressed-state button: ticked or unticked as the option says,
    or one of its group chosen when the option names another member."""
    browser = await run.browser()
    # the option names the box by its label, or by the words that found it (a
    # column's header: "Remove?" in "Remove?")
    wanted = tick_state(option, label_of(el))
    if wanted is None and normalise(option) == normalise(target):
        wanted = True
    named = match_option(target, [label_of(el)]) is not None
    if len(members) > 1 and el.group and not (wanted is not None and named):
        return await _choose_among(run, path, members, option)
    if wanted is None:
        raise StepFailed(
            f"'{option}' names neither '{label_of(el)}' nor a state of it "
            "(ticked, unticked, on, off)",
            el,
        )
    ticked = wanted
    if bool(el.checked) == ticked:
        return StepFinished(StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
    verb = "tick" if ticked else "untick"
    await run.act(path, f"{verb} '{label_of(el)}'", lambda: browser.click(el.ref))
    now = (await run.screen()).element(el.ref)
    if now is not None and now.visible and now.checked is not None and now.checked != ticked:
        # a switch drawn apart from the box that takes clicks: a focused one turns on
        # Space, as the keyboard turns every switch and box
        await run.act(path, f"focus '{label_of(el)}'", lambda: browser.focus(el.ref))
        await run.act(path, f"press Space on '{label_of(el)}'", lambda: browser.press(" "))
        now = (await run.screen()).element(el.ref)
    if now is not None and now.visible and now.checked is not None and now.checked != ticked:
        raise StepFailed(f"clicked '{label_of(el)}', but it is still not {verb}ed", el)
    return StepFinished(element=el, confidence=confidence)


async def _choose_custom(
    run: StepContext, path: str, el: Element, screen: Screen, option: str, confidence: float
) -> StepFinished:
    """A custom control: opened, then the option picked from what appears (suggestions,
    a list, a calendar); an editable one is typed into to filter its suggestions."""
    browser = await run.browser()
    date_like = is_date_words(option, run.settings.today or date.today())
    popup_roles = OPTION_ROLES | {"radio", "tab", "menuitemcheckbox"}
    screen = await run.screen()
    before = option_refs(screen, popup_roles | {"clickable"})
    if el.editable and not date_like and el.input_type not in ("date",):
        rows = {e.ref for e in rows_under(screen, el)}
        await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, option))
        wait = run.settings.target_timeout_ms
        picked = await pick_suggestion(run, path, el, option, before, wait_ms=wait, drawn=True)
        if picked is None and el.role != "combobox":
            # a box whose suggestions come on key presses (not on the value set at once)
            # gets the words again as a person types them
            await run.act(path, f"clear '{label_of(el)}'", lambda: browser.fill(el.ref, ""))
            await run.act(
                path, f"type into '{label_of(el)}' key by key", typer(browser, el.ref, option)
            )
            picked = await pick_suggestion(run, path, el, option, before, wait_ms=wait, drawn=True)
        if picked is None and rows:
            picked = await _pick_filtered(run, path, el, option, rows)
        datalist = el.tag == "input" and el.role == "combobox" and el.expanded is None
        if picked is None and datalist and value_took(option, await browser.read_value(el.ref)):
            # A native input with a list of values takes the typed value as its own.
            return StepFinished(element=el, confidence=confidence)
        if picked is None:
            # Typed text left in the field is not a choice: only a suggestion picked is.
            raise StepFailed(
                f"no suggestion for '{option}' appeared under '{label_of(el)}' to pick; "
                "the typed text alone is not a choice",
                el,
            )
        await leave_closed(run, path, el, before, popup_roles)
        return StepFinished(element=picked, confidence=confidence)

    if not el.expanded:
        await run.act(path, f"open '{label_of(el)}'", lambda: browser.click(el.ref))
    if date_like:
        when = parse_when(option, run.settings.today or date.today())
        day = when.date() if isinstance(when, datetime) else when
        if not isinstance(day, date):
            raise StepFailed(f"'{option}' is not a date")
        day = reread_date(option, date_order(el, screen)) or day
        cell, _ = await pick_date(run, path, day, words=option)
        return StepFinished(element=cell, confidence=confidence)
    deadline = clock.perf_counter() + run.settings.target_timeout_ms / 1000
    seen: set[str] = set()
    while True:
        screen = await run.screen()
        options = popup_choices(screen, before, popup_roles)
        missing = options and match_option(option, [label_of(o) for o in options]) is None
        if missing and await _scroll_on(run, path, options, seen):
            continue
        if options:
            finished = await _choose_among(run, path, options, option, el)
            await leave_closed(run, path, el, before, popup_roles, options)
            return finished
        if not await run.wait_change(deadline):
            raise StepFailed(
                f"opening '{label_of(el)}' showed no options to choose '{option}' from"
            )


async def _pick_filtered(
    run: StepContext, path: str, field: Element, option: str, rows: set[str]
) -> Element | None:
    """A filter box over a list that shows all along (a search field over its rows):
    the typing narrowed the list, and the row left that the option names is clicked."""
    left = filtered_rows(await run.screen(), field, rows)
    best = match_option(option, [label_of(r) for r in left]) if left else None
    if best is None:
        return None
    row = left[best[0]]
    browser = await run.browser()
    await run.act(
        path, f"pick '{label_of(row)}' from the list it narrowed", clicker(browser, row.ref)
    )
    return row


async def _scroll_on(run: StepContext, path: str, options: list[Element], seen: set[str]) -> bool:
    """Scroll the open list on by a page when the option asked for is not among those in
    sight: rows clipped by the list's own box, or not drawn at all by a virtual list,
    come into view. False once a scroll shows no row that was not seen before (the
    list's end), or after ``_MOST_PAGES``."""
    names = {label_of(o) for o in options}
    if names <= seen or len(seen) > _MOST_PAGES * len(names):
        return False
    seen |= names
    last = max(options, key=lambda o: o.box.y + o.box.height)
    top = min(o.box.y for o in options)
    page = max(last.box.y + last.box.height - top, last.box.height)
    browser = await run.browser()
    await run.act(
        path, f"scroll the list on past '{label_of(last)}'", lambda: browser.wheel(last.ref, page)
    )
    run.invalidate()
    return True
