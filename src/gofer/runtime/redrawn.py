"""A control redrawn under the click: the page replaced or moved the element the step
grounded (a checkout redraws its shipping methods a moment after the address changes).
The page is let settle and the same words are grounded again, once; a control that is
still gone or hidden then fails the step as before."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from gofer.errors import SurfaceError, SurfaceTimeout
from gofer.runtime.context import StepContext, clicker
from gofer.runtime.signals import StepFailed
from gofer.surfaces import ActionEffect
from gofer.surfaces.screen import Element

__all__ = ["click_redrawn"]


def _redrawn(exc: StepFailed) -> bool:
    cause = exc.__cause__
    if isinstance(cause, SurfaceTimeout):
        return True
    # gone before the click began, or while the browser waited to click it
    return isinstance(cause, SurfaceError) and (
        cause.code == "STALE_REF" or "is no longer on the page" in cause.message
    )


async def click_redrawn(
    run: StepContext,
    path: str,
    what: str,
    el: Element,
    again: Callable[[], Awaitable[Element]],
) -> tuple[Element, ActionEffect]:
    """Click ``el``; when it went from the page or stayed hidden, moving or covered,
    wait for the page to settle, find it ``again`` (by the step's own words) and click
    that. The element clicked and the click's effect."""
    browser = await run.browser()
    try:
        return el, await run.act(path, what, clicker(browser, el.ref))
    except StepFailed as exc:
        if not _redrawn(exc):
            raise
        run.event(path, "redrawn", ref=el.ref)
    await browser.settle(run.settings.settle_timeout_ms)
    run.invalidate()
    found = await again()
    return found, await run.act(path, f"{what} (redrawn)", clicker(browser, found.ref))
