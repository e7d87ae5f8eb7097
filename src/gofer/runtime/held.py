"""Whether the form still holds what the run typed, before a click that may send it.

A field that lost its value is typed once more the way a person types, key by key, and
read back after it loses focus: a page whose framework hears keys, not a value set at
once, throws the first away (a React form's controlled number field). A value that
still does not stay fails the step, naming the field and the step that typed it.
"""

from __future__ import annotations

from functools import partial

from gofer.runtime.context import StepContext
from gofer.runtime.ledger import Entry
from gofer.runtime.signals import StepFailed
from gofer.surfaces import ActionEffect, Surface

__all__ = ["check_held"]


async def _retype(browser: Surface, entry: Entry, leave: bool) -> ActionEffect:
    await browser.fill(entry.ref, "")
    typed = await browser.type_keys(entry.ref, entry.value)
    return await browser.press("Tab") if leave else typed  # left, as a person moves on


async def check_held(run: StepContext, path: str, before: str, *, leave: bool = True) -> None:
    """Fail the step at ``path`` when a field the run typed into no longer holds its
    value (after typing it once more key by key) ``before`` the action named; with
    ``leave`` (a click, not a key pressed in the field), the field with the focus is
    left first."""
    browser = await run.browser()
    if leave and any(
        e.focused and e.ref in run.ledger.entries for e in (await run.screen()).elements
    ):
        # The field typed last loses focus first, as it does when a person moves on:
        # a framework that keeps its own copy of the value redraws it then.
        await run.act(path, "press Tab to leave the field", partial(browser.press, "Tab"))
        run.invalidate()
    lost = await run.ledger.lost(browser)
    if lost is not None and run.ledger.retry(lost.entry.ref):
        entry = lost.entry
        await run.act(
            path,
            f"type into '{entry.label}' again, key by key",
            partial(_retype, browser, entry, leave),
        )
        lost = await run.ledger.lost(browser)
    if lost is None:
        run.ledger.held()
        return
    entry = lost.entry
    raise StepFailed(
        run.mask(
            f"before {before}: '{entry.label}' no longer holds '{entry.value}' that step "
            f"{entry.path} entered; it shows '{lost.shown}'"
        )
    )
