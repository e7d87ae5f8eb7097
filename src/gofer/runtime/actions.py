"""The acting steps: click, enter and stop_before (and ``do``; ``choose`` is
``runtime.choosing``'s, what stands around a target ``runtime.layers``').

Each grounds its target on a fresh screen, acts once through the browser
surface, and checks that the action took. Dates and times go into their
controls through ``runtime.pickers``.
"""

from __future__ import annotations

import time as clock
from dataclasses import replace
from datetime import time

from gofer.decide import (
    DATE_INPUTS,
    FIELD_ROLES,
    FOUND,
    MAX_OPENERS,
    SENDING_ROLES,
    Grounding,
    Query,
    Want,
    card_evidence,
    dismisser,
    form_errors,
    found_well,
    ground,
    judge,
    label_of,
    looks,
    opened_by,
    openers,
    option_refs,
    other_kind,
    pick_action,
    value_took,
)
from gofer.flow import Click, Do, Enter, StopBefore
from gofer.runtime.approvals import control_gate
from gofer.runtime.choosing import choose
from gofer.runtime.context import StepContext, clicker
from gofer.runtime.layers import close_opened, pick_suggestion, uncover
from gofer.runtime.listed import is_number, lists_times, pick_time, read_only, set_slider
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
from gofer.surfaces.screen import Element, Screen

__all__ = ["choose", "click", "do", "enter", "label_of", "stop_before"]


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
    el = await uncover(run, path, el, query)
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
        await close_opened(run, path, opener)
    return None


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


async def _type_in(
    run: StepContext,
    path: str,
    el: Element,
    value: str,
    query: Query,
    screen: Screen,
    before: set[str],
) -> Element:
    """Type ``value`` into the field (an autocomplete's suggestion picked after), once
    more after closing a prompt its focus opened; the field, which must show the value."""
    browser = await run.browser()
    typed = await run.act(path, f"type into '{label_of(el)}'", lambda: browser.fill(el.ref, value))
    shown = typed.value
    if el.role == "combobox" or el.expanded is not None:
        await pick_suggestion(run, path, el, value, before)
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
    return el


async def _submit_by_enter(run: StepContext, path: str, el: Element) -> None:
    """Press Enter in the field just filled, guarded like a click that sends its form."""
    browser = await run.browser()
    await run.check_ledger(path, f"pressing Enter in '{label_of(el)}'", leave=False)
    run.invalidate()
    sent = await run.screen()
    await run.guard_submit(path, sent, "Enter")
    pressed = await run.act(path, "press Enter", lambda: browser.press("Enter"))
    await _refused(run, sent, f"pressing Enter in '{label_of(el)}'", el, pressed)


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
    el = await uncover(run, path, el, query)
    if not step.submit:
        if el.input_type in DATE_INPUTS:
            return await set_native(run, path, el, value, grounding.confidence)
        when = when_words(run, value)
        if isinstance(when, time) and lists_times(el):
            # a time offered as a list to pick from (a time select): picked, else typed
            picked = await pick_time(run, path, el, when, grounding.confidence, typed=True)
            if picked is not None:
                return picked
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
        if el.tag == "input" and is_number(value):
            return await set_slider(run, path, el, value, grounding.confidence, held=True)
        raise read_only(el)
    el = await _type_in(run, path, el, value, query, screen, before)
    if typed_only:
        run.ledger.remember(path, el.ref, label_of(el), value, into)
    else:
        run.ledger.forget(el.ref)
    if step.submit:
        await _submit_by_enter(run, path, el)
    return StepFinished(element=el, confidence=grounding.confidence)


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
