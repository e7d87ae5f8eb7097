"""The acting steps: click, enter, choose and stop_before (and ``do``).

Each grounds its target on a fresh screen, acts once through the browser
surface, and checks that the action took. Dates and times go into their
controls through ``runtime.pickers``.
"""

from __future__ import annotations

import time as clock
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime, time

from gofer.decide import (
    DATE_INPUTS,
    FIELD_ROLES,
    FOUND,
    MAX_OPENERS,
    OPTION_ROLES,
    SENDING_ROLES,
    Grounding,
    Query,
    Want,
    card_evidence,
    choice_members,
    covering,
    date_order,
    dismisser,
    form_errors,
    found_well,
    ground,
    is_date_words,
    judge,
    label_of,
    looks,
    match_option,
    may_open_picker,
    normalise,
    offering_beside,
    opened_by,
    openers,
    option_refs,
    other_kind,
    parse_when,
    pick_action,
    popup_choices,
    pressable,
    reread_date,
    shows_choice,
    tick_state,
    value_took,
)
from gofer.flow import Choose, Click, Do, Enter, StopBefore
from gofer.runtime.approvals import control_gate
from gofer.runtime.calendars import in_shown_calendar, pick_date, pick_shown
from gofer.runtime.context import StepContext, clicker, typer
from gofer.runtime.listed import choose_in_select, lists_times, pick_time, set_slider
from gofer.runtime.pickers import (
    date_field,
    set_native,
    set_split,
    split_target,
    when_words,
)
from gofer.runtime.redrawn import click_redrawn
from gofer.runtime.signals import Gated, StepFailed, StepFinished
from gofer.runtime.types import StepOutcome
from gofer.safety import Consequence, human_wall, screen_payment_evidence
from gofer.surfaces import ActionEffect
from gofer.surfaces.screen import Box, Element, Screen

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
            path, f"close '{cover.name}' with '{label_of(closer)}'", clicker(browser, closer.ref)
        )
        again, screen, _ = await run.find(path, query)
    if again.on_top:
        return again
    raise StepFailed(
        f"'{label_of(again)}' is still covered after closing {_MOST_DISMISSALS} dialogs over it",
        again,
    )


async def _close_prompt(run: StepContext, path: str, el: Element, before: Screen) -> bool:
    """Close the popup that acting on ``el`` opened (a prompt on the field's focus that
    keeps it from taking what is typed) with its least-consenting control. True when
    one was closed, so the step may be tried once more."""
    run.invalidate()
    cover = opened_by(before, await run.screen(), el)
    if cover is None:
        return False
    what = f"typing into '{label_of(el)}' opened a popup ('{run.mask(cover.name)}')"
    wall = human_wall(cover.text)
    if wall is not None:
        raise StepFailed(f"{what} that is {wall}; a person has to get past it", el)
    if screen_payment_evidence(cover.text):
        raise StepFailed(f"{what} asking for card details; the flow does not say to pay", el)
    closer = dismisser(cover)
    if closer is None:
        return False
    browser = await run.browser()
    run.event(path, "dismiss", cover=cover.name, control=label_of(closer))
    await run.act(
        path, f"close '{cover.name}' with '{label_of(closer)}'", clicker(browser, closer.ref)
    )
    return True


# ------------------------------------------------------------------ click


_ONE_OF_A_GROUP = frozenset({"radio", "menuitemradio"})
"""Controls a click only ever chooses: clicking the chosen one again changes nothing."""


async def click(run: StepContext, path: str, step: Click) -> StepFinished:
    """A ``click`` step: press the control its words name.

    A control in a closed menu or section is revealed first, and what covers it
    (a popup, a consent wall) is closed. A control that pays or cannot be undone
    stops the run at a gate unless the caller allowed it. The click must change
    the page, and a form it sends must not come back with errors.
    """
    words = run.sub(step.target)
    within = run.sub(step.within) if step.within else None
    return await _press(run, path, Query(words, Want.CLICK, within, kind="click"), words)


async def do(run: StepContext, path: str, step: Do) -> StepFinished:
    """A ``do`` step: press the one control the model decider picks for its words (or
    the one a hint remembers from an earlier run), guarded like any click."""
    words = run.sub(step.instruction)
    return await _press(run, path, Query(words, Want.CLICK, kind="do"), words)


async def _press(run: StepContext, path: str, query: Query, words: str) -> StepFinished:
    revealed = await _reveal(run, path, query) if query.kind == "click" else None
    if revealed is not None:
        el, grounding = revealed
    else:
        el, _, grounding = await run.find(path, query)
    el = await _uncover(run, path, el, query)
    if el.role in _ONE_OF_A_GROUP and el.checked:
        # an option already chosen (a guest checkout's radio, chosen by the page)
        return StepFinished(
            outcome=StepOutcome.ALREADY_DONE, element=el, confidence=grounding.confidence
        )
    before = await run.screen()
    await run.guard(path, el, before, words)
    browser = await run.browser()
    if el.role in SENDING_ROLES or el.input_type in ("submit", "image"):
        await run.check_ledger(path, f"clicking '{label_of(el)}'")
    # An "are you sure?" the click raises is answered yes only for a caller who allowed
    # what cannot be undone (the guard let the click through); otherwise no.
    browser.answer_confirms(run.allow_destructive)
    pending = [e.label for e in run.ledger.unsent()]

    async def again() -> Element:
        found, _, _ = await run.find(path, query)
        await run.guard(path, found, await run.screen(), words)
        return found

    try:
        el, effect = await click_redrawn(run, path, f"click {el.role} '{label_of(el)}'", el, again)
    finally:
        browser.answer_confirms(False)
    if effect.declined and not (effect.navigated or effect.new_page):
        # The question was answered no: what the click was for (deleting, leaving,
        # sending) did not happen, whatever else the page redrew.
        raise StepFailed(
            f"clicking '{label_of(el)}' asked '{run.mask(effect.declined[-1])}', which gofer "
            "answers no unless the task allows actions that cannot be undone",
            el,
        )
    if not effect.changed and not await _late_change(run, before):
        raise StepFailed(
            f"clicking '{label_of(el)}' changed nothing on the page "
            "(no navigation, no change on the page, no new focus)",
            el,
        )
    if pending and el.href and effect.navigated:
        # a plain link sends no form: what the fields held is gone with their page
        raise StepFailed(
            f"clicking '{label_of(el)}' left the page without sending what was typed into "
            f"'{run.mask(pending[0])}'",
            el,
        )
    if el.role in SENDING_ROLES or el.input_type in ("submit", "image"):
        await _refused(run, before, f"clicking '{label_of(el)}'", el, effect)
        if not el.href:
            run.ledger.sending()
    return StepFinished(element=el, confidence=grounding.confidence)


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
            clicker(browser, opener.ref),
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
        await run.act(path, f"close '{label_of(opener)}'", clicker(browser, opener.ref))


async def _leave_closed(
    run: StepContext,
    path: str,
    opener: Element,
    before: set[str],
    roles: frozenset[str],
    picked_from: Sequence[Element] = (),
) -> None:
    """Close the list a choice left open (a multiple select keeps its options showing
    after each pick), as a person does once done, so it covers nothing after: an opener
    that says it is expanded with new options showing, or any opener while a list drawn
    against it still shows rows that came when it opened (those of ``picked_from``, else
    any new option or clickable)."""
    screen = await run.screen()
    now = screen.element(opener.ref)
    if now is None:
        return
    showing = [e for e in screen.elements if e.visible and e.role in roles and e.ref not in before]
    if now.expanded is True and showing:
        await _close(run, path, now)
        return
    came = {o.ref for o in picked_from if o.ref not in before} if picked_from else None
    rows = [
        e
        for e in screen.elements
        if e.visible
        and e.on_top
        and e.ref not in before
        and (e.ref in came if came is not None else e.role in roles | {"clickable"})
        and not now.box.contains(e.box)
    ]
    if now.expanded is not False and len(rows) > 1 and _against(rows, now.box):
        await _close(run, path, now)


_LIST_GAP_PX = 48.0


def _against(rows: list[Element], box: Box) -> bool:
    """Whether rows form a list drawn against ``box``: just above or below it, across it."""
    top = min(r.box.y for r in rows)
    bottom = max(r.box.y + r.box.height for r in rows)
    across = any(r.box.x < box.x + box.width and r.box.x + r.box.width > box.x for r in rows)
    below = -_LIST_GAP_PX <= top - (box.y + box.height) <= _LIST_GAP_PX
    above = -_LIST_GAP_PX <= box.y - bottom <= _LIST_GAP_PX
    return across and (below or above)


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
    run: StepContext,
    path: str,
    field: Element,
    value: str,
    before: set[str],
    wait_ms: int = 0,
    drawn: bool = False,
) -> Element | None:
    """After typing into an autocomplete, pick the suggestion that matches the value.

    Options that were already showing before typing (another open list on the page)
    are passed over while new ones appeared. With ``wait_ms``, suggestions that come
    late (a debounced lookup) are waited for that long, as long as the page changes.
    With ``drawn``, role-less clickables that appeared count as suggestions too
    (``before`` then holds the clickables showing before typing).
    """
    deadline = clock.perf_counter() + wait_ms / 1000
    while True:
        screen = await run.screen()
        options = popup_choices(screen, before, drawn=drawn)
        best = match_option(value, [label_of(o) for o in options]) if options else None
        if best is not None:
            break
        if not wait_ms or not await run.wait_change(deadline):
            return None
    option = options[best[0]]
    browser = await run.browser()
    await run.act(path, f"pick suggestion '{label_of(option)}'", lambda: browser.click(option.ref))
    return option


async def enter(run: StepContext, path: str, step: Enter) -> StepFinished:
    """An ``enter`` step: put a value into the field its words name, and read it back.

    A date or time goes in however the page takes it (``runtime.pickers``); an
    autocomplete's matching suggestion is picked; a field that already shows the
    value is left as it is. With ``submit``, Enter is pressed after, guarded like a
    click that pays on a card form.
    """
    into = run.sub(step.into)
    within = run.sub(step.within) if step.within else None
    value = await run.typed(path, step.value)
    query = Query(into, Want.FIELD, within, kind="enter")
    when = None if step.submit else when_words(run, value)
    if when is not None:
        fields = await split_target(run, into, within, value, when)
        if fields is not None:
            return await set_split(run, path, fields, when)
    el, screen, grounding = await run.find(path, query)
    wrong = other_kind(when, screen.elements) if when is not None else frozenset()
    if el.ref in wrong:
        # a date never goes into a time's parts nor a time into a date's: the field the
        # words name is waited for (a page that draws its time field before its date's)
        query = replace(query, exclude=query.exclude | wrong)
        el, screen, grounding = await run.find(path, query)
    if when is not None and el.tag not in ("input", "textarea"):
        # a field drawn as parts only once the page had drawn it (a script's form):
        # the parts that stand now are set as parts, never typed into the first one
        fields = await split_target(run, into, within, value, when, screen)
        if fields is not None:
            return await set_split(run, path, fields, when)
    before = option_refs(screen)
    if el.role == "slider" or el.input_type == "range":
        return await set_slider(run, path, el, value, grounding.confidence)
    if not (el.editable or el.role in FIELD_ROLES):
        raise StepFailed(f"'{label_of(el)}' is a {el.role}, not a field one can type into")
    taken = run.ledger.taken(el.ref, into)
    if taken is not None and not value_took(value, taken.value):
        raise StepFailed(
            f"the best match for '{into}' is '{label_of(el)}', which already holds "
            f"'{taken.value}' that step {taken.path} entered for '{taken.words}'; typing "
            "here would overwrite it, and no other field is named so",
            el,
        )
    el = await _uncover(run, path, el, query)
    browser = await run.browser()
    if not step.submit:
        if el.input_type in DATE_INPUTS:
            return await set_native(run, path, el, value, grounding.confidence)
        when = when_words(run, value)
        if when is not None and el.tag == "input":
            return await date_field(run, path, el, screen, when, grounding.confidence, value)
    typed_only = el.role != "combobox" and el.expanded is None
    if el.value and not step.submit and value_took(value, el.value):
        if typed_only:
            run.ledger.remember(path, el.ref, label_of(el), value, into)
        return StepFinished(
            outcome=StepOutcome.ALREADY_DONE, element=el, confidence=grounding.confidence
        )
    if not el.editable and el.tag in ("input", "textarea"):
        raise StepFailed(f"'{label_of(el)}' is read-only and nothing on the page fills it", el)
    typed = await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, value))
    shown = typed.value
    if el.role == "combobox" or el.expanded is not None:
        await _pick_suggestion(run, path, el, value, before)
        shown = None
    if shown is None:
        shown = await browser.read_value(el.ref)
    if not value_took(value, shown) and await _close_prompt(run, path, el, screen):
        el, _, _ = await run.find(path, query)
        typed = await run.act(
            path, f"type into '{label_of(el)}' again", lambda: browser.fill(el.ref, value)
        )
        shown = typed.value if typed.value is not None else await browser.read_value(el.ref)
    if not value_took(value, shown) and not shown:
        # a field that hands its focus to a twin it draws for typing (sao's numbers)
        # shows the value once left, as a person leaves it
        await run.act(path, f"leave '{label_of(el)}'", lambda: browser.press("Tab"))
        shown = await browser.read_value(el.ref)
    if not value_took(value, shown):
        holds = f": it shows '{shown}'" if run.mask(value) == value else ""
        raise StepFailed(
            f"typed into '{label_of(el)}', but the field does not show what was typed{holds}", el
        )
    if typed_only:
        run.ledger.remember(path, el.ref, label_of(el), value, into)
    else:
        run.ledger.forget(el.ref)
    if step.submit:
        await run.check_ledger(path, f"pressing Enter in '{label_of(el)}'", leave=False)
        run.invalidate()
        sent = await run.screen()
        await run.guard_submit(path, sent, "Enter")
        pressed = await run.act(path, "press Enter", lambda: browser.press("Enter"))
        await _refused(run, sent, f"pressing Enter in '{label_of(el)}'", el, pressed)
    return StepFinished(element=el, confidence=grounding.confidence)


# ------------------------------------------------------------------ choose


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
    el = await _uncover(run, path, el, query)
    browser = await run.browser()
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
        return await pick_time(run, path, el, when, grounding.confidence)
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
            return StepFinished(
                StepOutcome.ALREADY_DONE, element=el, confidence=grounding.confidence
            )
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
        return StepFinished(element=el, confidence=grounding.confidence)

    if el.role in ("radio", "tab"):
        return await _choose_among(run, path, choice_members(screen, el, option), option)

    if el.role in OPTION_ROLES and el.visible and el.expanded is None:
        # An option of a list that shows its options: the list itself was meant.
        return await _choose_among(run, path, [el], option)

    # A custom control: open it, then pick from what appears (suggestions, a list,
    # a calendar). An editable one is typed into to filter its suggestions.
    date_like = is_date_words(option, run.settings.today or date.today())
    popup_roles = OPTION_ROLES | {"radio", "tab", "menuitemcheckbox"}
    before = option_refs(await run.screen(), popup_roles | {"clickable"})
    if el.editable and not date_like and el.input_type not in ("date",):
        await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, option))
        wait = run.settings.target_timeout_ms
        picked = await _pick_suggestion(run, path, el, option, before, wait_ms=wait, drawn=True)
        if picked is None and el.role != "combobox":
            # a box whose suggestions come on key presses (not on the value set at once)
            # gets the words again as a person types them
            await run.act(path, f"clear '{label_of(el)}'", lambda: browser.fill(el.ref, ""))
            await run.act(
                path, f"type into '{label_of(el)}' key by key", typer(browser, el.ref, option)
            )
            picked = await _pick_suggestion(run, path, el, option, before, wait_ms=wait, drawn=True)
        datalist = el.tag == "input" and el.role == "combobox" and el.expanded is None
        if picked is None and datalist and value_took(option, await browser.read_value(el.ref)):
            # A native input with a list of values takes the typed value as its own.
            return StepFinished(element=el, confidence=grounding.confidence)
        if picked is None:
            # Typed text left in the field is not a choice: only a suggestion picked is.
            raise StepFailed(
                f"no suggestion for '{option}' appeared under '{label_of(el)}' to pick; "
                "the typed text alone is not a choice",
                el,
            )
        await _leave_closed(run, path, el, before, popup_roles)
        return StepFinished(element=picked, confidence=grounding.confidence)

    if not el.expanded:
        await run.act(path, f"open '{label_of(el)}'", lambda: browser.click(el.ref))
    if date_like:
        when = parse_when(option, run.settings.today or date.today())
        day = when.date() if isinstance(when, datetime) else when
        if not isinstance(day, date):
            raise StepFailed(f"'{option}' is not a date")
        day = reread_date(option, date_order(el, screen)) or day
        cell, _ = await pick_date(run, path, day, words=option)
        return StepFinished(element=cell, confidence=grounding.confidence)
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
            await _leave_closed(run, path, el, before, popup_roles, options)
            return finished
        if not await run.wait_change(deadline):
            raise StepFailed(
                f"opening '{label_of(el)}' showed no options to choose '{option}' from"
            )


_MOST_PAGES = 40  # pages of one list scrolled through looking for an option


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


# ------------------------------------------------------------------ stop_before


async def stop_before(run: StepContext, path: str, step: StopBefore) -> StepFinished:
    """A ``stop_before`` step: find the control its words name and stop in front of it
    (a gate the caller answers), without pressing it.

    A control in a closed menu is revealed first. When the caller allowed controls
    that pay or cannot be undone, the control is pressed instead.
    """
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
        await run.guard(path, el, screen, words)  # lets it through, told to the press hook
        browser = await run.browser()
        effect = await run.act(path, f"press '{label_of(el)}'", lambda: browser.click(el.ref))
        await _refused(run, screen, f"pressing '{label_of(el)}'", el, effect)
        return StepFinished(element=el, confidence=confidence)
    await run.guard(path, el, screen, words)
    # A reversible control the flow still asked to stop before: stop all the same.
    raise Gated(
        control_gate(
            path,
            words,
            el,
            screen,
            consequence=judge(el, screen).value,
            payment_screen=bool(card_evidence(screen)),
            mask=run.mask,
        ),
        el,
    )
