"""A time set in a panel that steps each part with buttons (hour and minute each between
a "next" and a "previous" button), one press at a time, each read back."""

from __future__ import annotations

from datetime import time

from gofer.decide.steppers import Stepper, time_steppers
from gofer.runtime.context import StepContext, clicker
from gofer.runtime.signals import StepFailed

__all__ = ["step_time"]

_SPAN = {"hour": 24, "minute": 60}


async def step_time(run: StepContext, path: str, at: time) -> bool:
    """Step the hour and minute of the time panel showing to ``at``; False when no panel
    with both steppers shows. Each part goes the shorter way round its dial."""
    parts = time_steppers(await run.screen())
    if set(parts) != set(_SPAN):
        return False
    for unit, want in (("hour", at.hour), ("minute", at.minute)):
        await _step(run, path, parts[unit], want)
    return True


async def _step(run: StepContext, path: str, part: Stepper, want: int) -> None:
    span = _SPAN[part.unit]
    browser = await run.browser()
    shown = part.shown
    for _ in range(span):
        if shown == want:
            return
        ahead = (want - shown) % span
        button = part.up if ahead <= span - ahead else part.down
        await run.act(path, f"step the {part.unit}", clicker(browser, button.ref))
        now = time_steppers(await run.screen()).get(part.unit)
        if now is None or now.shown == shown:
            break
        shown = now.shown
    if shown != want:
        raise StepFailed(f"stepped the {part.unit} toward {want:02d}, but it shows {shown:02d}")
