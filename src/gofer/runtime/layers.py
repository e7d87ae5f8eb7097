"""What stands around a target: the layers over it closed, the list or menu opened
for it closed again after, and the suggestion a typed value brings picked."""

from __future__ import annotations

import time as clock
from collections.abc import Sequence

from gofer.decide import (
    Query,
    covering,
    dismisser,
    label_of,
    match_option,
    popup_choices,
)
from gofer.runtime.context import StepContext, clicker
from gofer.runtime.signals import StepFailed
from gofer.safety import human_wall, screen_payment_evidence
from gofer.surfaces.screen import Box, Element

__all__ = ["close_opened", "leave_closed", "pick_suggestion", "uncover"]

_MOST_DISMISSALS = 3  # layers closed for one target (a consent wall, then a popup)


async def uncover(run: StepContext, path: str, el: Element, query: Query) -> Element:
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


async def close_opened(
    run: StepContext, path: str, opener: Element, rows: Sequence[Element] = ()
) -> None:
    """Close what ``opener`` opened: Escape, then the opener again if it stays open; a
    list that closes with an animation is waited for until its ``rows`` are gone, so
    the next step never starts against a list still on its way out."""
    browser = await run.browser()
    await run.act(path, "press Escape to close it", lambda: browser.press("Escape"))
    screen = await run.screen()
    again = screen.element(opener.ref)
    if again is not None and again.expanded is True and again.visible:
        await run.act(path, f"close '{label_of(opener)}'", clicker(browser, opener.ref))
        screen = await run.screen()
    refs = {r.ref for r in rows}
    deadline = clock.perf_counter() + run.settings.settle_timeout_ms / 1000
    while any(e.visible for e in screen.elements if e.ref in refs):
        if not await run.wait_change(deadline):
            return
        screen = await run.screen()


async def leave_closed(
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
        await close_opened(run, path, now, showing)
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
        await close_opened(run, path, now, rows)


_LIST_GAP_PX = 48.0


def _against(rows: list[Element], box: Box) -> bool:
    """Whether rows form a list drawn against ``box``: just above or below it, across it."""
    top = min(r.box.y for r in rows)
    bottom = max(r.box.y + r.box.height for r in rows)
    across = any(r.box.x < box.x + box.width and r.box.x + r.box.width > box.x for r in rows)
    below = -_LIST_GAP_PX <= top - (box.y + box.height) <= _LIST_GAP_PX
    above = -_LIST_GAP_PX <= box.y - bottom <= _LIST_GAP_PX
    return across and (below or above)


async def pick_suggestion(
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
