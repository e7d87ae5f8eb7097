"""Values a control offers as a list, picked and read back: a native select (several
at once in a multiple one), a time in a combobox (a time picker that lists "7:00am",
"7:30am" ...) and a slider.

Picked means committed: a time in a control that offers a list is done only when an
option showing that time was picked and the control shows it after; a slider is set by
its keys (or a range input's value) and read back through its value.
"""

from __future__ import annotations

import re
import time as clock
from datetime import time
from functools import partial

from gofer.decide import (
    OPTION_ROLES,
    label_of,
    match_option,
    option_refs,
    popup_choices,
    shows_choice,
    shows_time,
)
from gofer.errors import SurfaceError
from gofer.runtime.context import SOCKETS_QUIET_MS, StepContext, clicker
from gofer.runtime.signals import StepFailed, StepFinished
from gofer.runtime.types import StepOutcome
from gofer.surfaces.screen import Element

__all__ = [
    "choose_in_select",
    "is_number",
    "lists_times",
    "pick_time",
    "read_only",
    "set_slider",
]


def lists_times(el: Element) -> bool:
    """Whether ``el`` offers its values as a list to pick from (a combobox, a control
    that opens a popup), rather than taking typed text alone."""
    return el.role == "combobox" or (el.expanded is not None and el.role != "textbox")


async def pick_time(
    run: StepContext, path: str, el: Element, at: time, confidence: float, *, typed: bool = False
) -> StepFinished | None:
    """Open ``el``'s list and pick the option that shows ``at``, then read it back.

    ``typed``: the time may be typed instead (an ``enter``): None as soon as the list
    shows without that time (a time box whose list offers only some times)."""
    shown = el.value or el.text
    if shown and shows_time(shown, at):
        return StepFinished(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
    browser = await run.browser()
    roles = OPTION_ROLES | {"menuitem", "menuitemradio"}
    before = option_refs(await run.screen(), roles | {"clickable"})
    if not el.expanded:
        await run.act(path, f"open '{label_of(el)}'", clicker(browser, el.ref))
    deadline = clock.perf_counter() + run.settings.target_timeout_ms / 1000
    while True:
        options = popup_choices(await run.screen(), before, roles)
        hit = next((o for o in options if shows_time(label_of(o), at)), None)
        if hit is not None:
            break
        if typed and options:
            return None
        if not await run.wait_change(deadline):
            if typed:
                return None
            names = ", ".join(label_of(o) for o in options[:8]) or "none"
            raise StepFailed(
                f"'{label_of(el)}' lists no option at {at:%H:%M} (it shows: {names})", el
            )
    await run.act(path, f"pick '{label_of(hit)}'", clicker(browser, hit.ref))
    screen = await run.screen()
    now = screen.element(el.ref)
    after = (now.value or now.text) if now is not None else ""
    # a select draws what it holds beside its input, inside its box
    if (
        now is not None
        and not shows_time(after, at)
        and not shows_choice(screen, now, label_of(hit))
    ):
        raise StepFailed(
            f"picked '{label_of(hit)}' in '{label_of(el)}', but it shows '{after or 'nothing'}'",
            el,
        )
    return StepFinished(element=hit, confidence=confidence)


_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")


def read_only(el: Element) -> StepFailed:
    """The failure of a read-only field that nothing on the page fills."""
    return StepFailed(f"'{label_of(el)}' is read-only and nothing on the page fills it", el)


def is_number(words: str) -> bool:
    """Words that are one number and nothing else ("250", "-3.5")."""
    return _NUMBER.fullmatch(words.strip()) is not None


def _number(text: str) -> float | None:
    found = _NUMBER.search(text or "")
    return float(found.group().replace(",", ".")) if found else None


_MOST_KEYS = 400  # key presses one slider takes at most to reach its value
_REDRAW_S = 1.0  # how long a key press that moved nothing yet may take to show
_MOST_STUCK = 3  # presses in a row that move nothing before a slider is left as it is
_MOST_TURNS = 2  # times a slider that jumps past its value is turned back toward it


async def set_slider(
    run: StepContext, path: str, el: Element, words: str, confidence: float, *, held: bool = False
) -> StepFinished:
    """Move a slider to the number ``words`` name with its arrow keys, reading its value
    after each press; fails when it never shows that number.

    ``held``: ``el`` is a hidden read-only input that holds the value of a slider drawn
    beside it, whose tab stop takes the keys; a field the first key leaves as it was is
    read-only and no slider of it."""
    target = _number(words)
    if target is None:
        raise StepFailed(f"'{words}' is not a number for the slider '{label_of(el)}'", el)
    browser = await run.browser()
    current = _number(await browser.read_value(el.ref))
    if current == target:
        return StepFinished(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
    await run.act(path, f"focus '{label_of(el)}'", lambda: browser.focus(el.ref))
    current = _number(await browser.read_value(el.ref))  # a drawn one may move on focus
    moved, stuck, turns = False, 0, 0
    for _ in range(_MOST_KEYS):
        if current is None or current == target:
            break
        key = "ArrowRight" if current < target else "ArrowLeft"
        await run.act(path, f"press {key} on '{label_of(el)}'", partial(browser.press, key))
        after = _number(await browser.read_value(el.ref))
        redrawn = clock.perf_counter() + _REDRAW_S
        while after == current and await run.wait_change(redrawn):
            # a slider that writes its value when it next draws itself
            after = _number(await browser.read_value(el.ref))
        if after == current:
            # a press lost to a drawn slider's rounding: a few more before giving up
            stuck += 1
            if stuck == _MOST_STUCK:
                break
            await run.act(path, f"focus '{label_of(el)}' again", lambda: browser.focus(el.ref))
            current = _number(await browser.read_value(el.ref))
            continue
        if after is not None and current is not None and (after - target) * (current - target) < 0:
            turns += 1  # past the value: back toward it, a few times at most
            if turns > _MOST_TURNS:
                current = after
                break
        moved, stuck, current = True, 0, after
    if held and not moved and current != target:
        raise read_only(el)
    if held and current == target:
        # the widget wrote the value on its own schedule: what it sends its server for
        # it (a debounced input) goes before the next step
        await browser.answered(SOCKETS_QUIET_MS, run.settings.settle_timeout_ms)
    if current != target:
        raise StepFailed(
            f"moved the slider '{label_of(el)}' toward {words}, but it shows "
            f"'{await browser.read_value(el.ref)}'",
            el,
        )
    return StepFinished(element=el, confidence=confidence)


async def choose_in_select(
    run: StepContext, path: str, el: Element, option: str, confidence: float
) -> StepFinished:
    """A native select: pick the option; in a multiple select, add it to those picked."""
    best = match_option(option, el.options)
    if best is None:
        names = ", ".join(el.options[:8])
        raise StepFailed(f"'{label_of(el)}' has no option like '{option}' (there are: {names})")
    index, label = best[0], el.options[best[0]]
    browser = await run.browser()
    state = await browser.selection(el.ref)
    if index in state.selected and (state.multiple or len(state.selected) == 1):
        return StepFinished(outcome=StepOutcome.ALREADY_DONE, element=el, confidence=confidence)
    if state.multiple:
        await run.act(
            path,
            f"add '{label}' to what is selected",
            lambda: browser.select_option(el.ref, label, add=True),
        )
    else:
        url = browser.url
        effect = await run.act(
            path, f"select '{label}'", lambda: browser.select_option(el.ref, label)
        )
        if effect.navigated or effect.new_page or browser.url != url:
            return await _shown_after_reload(run, el, label, confidence)
    try:
        after = await browser.selection(el.ref)
    except SurfaceError:
        # the select went with its page: one that submits the page when it changes
        return await _shown_after_reload(run, el, label, confidence)
    expected = {*state.selected, index} if state.multiple else {index}
    if set(after.selected) != expected:
        shown = ", ".join(el.options[i] for i in after.selected if i < len(el.options))
        raise StepFailed(
            f"selected '{label}' in '{label_of(el)}', but it shows '{shown or 'nothing'}'", el
        )
    return StepFinished(element=el, confidence=confidence)


async def _shown_after_reload(
    run: StepContext, el: Element, label: str, confidence: float
) -> StepFinished:
    """A select that submits its page when it changes (a sort order, a language): the
    step is done when the new page's select of that name shows the option chosen."""
    deadline = clock.perf_counter() + run.settings.target_timeout_ms / 1000
    while True:
        screen = await run.screen()
        same = [
            e
            for e in screen.elements
            if e.tag == "select" and e.options == el.options and e.display_name == el.display_name
        ]
        for found in same:
            if found.value == label:
                return StepFinished(element=found, confidence=confidence)
        if not await run.wait_change(deadline):
            shown = f"shows '{same[0].value}'" if same else "has no such select"
            raise StepFailed(
                f"selected '{label}' in '{label_of(el)}'; the page reloaded and {shown}", el
            )
