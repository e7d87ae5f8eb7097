"""The guards a run passes before it presses: a control that pays or cannot be undone
stops the run at a gate, unless the caller allowed it (``allow_destructive``); then
the run's press hook is told first, so the press is journaled before it happens and a
rerun of the same turn does not press it a second time."""

from __future__ import annotations

from collections.abc import Callable

from gofer.decide import card_evidence, judge
from gofer.runtime.approvals import check_approved, control_gate
from gofer.runtime.signals import Gated, StepFailed
from gofer.runtime.types import Gate, RunRequest
from gofer.safety import Consequence
from gofer.surfaces.screen import Element, Screen

__all__ = ["PRESSED_BEFORE", "before_press", "guard", "guard_submit"]

PRESSED_BEFORE = (
    "an earlier run of this turn, cut short, may have pressed this control already, and "
    "it cannot be undone: it is not pressed a second time"
)


async def before_press(request: RunRequest, path: str) -> None:
    """An allowed control that pays or cannot be undone is about to be pressed: tell
    the press hook, and press it only when the hook says it was not pressed before."""
    hook = request.on_press
    if hook is not None and not await hook(path):
        raise StepFailed(PRESSED_BEFORE)


async def guard_submit(
    request: RunRequest, mask: Callable[[str], str], path: str, screen: Screen, key: str
) -> None:
    """A key that submits the form on a card-form screen pays: stop, unless allowed
    (then the press hook is told before it is pressed); in a press run, only the key
    on the page approved is pressed."""
    evidence = card_evidence(screen)
    approved = request.approved
    if not evidence and approved is None:
        return
    words = f"press {key}"
    gate = Gate(
        path=path,
        action=words,
        label=words,
        consequence="payment" if evidence else "irreversible",
        payment_screen=bool(evidence),
        url=mask(screen.url),
        key=key,
    )
    if not request.allow_destructive:
        raise Gated(gate)
    check_approved(approved, gate, None)
    if evidence:
        await before_press(request, path)


async def guard(
    request: RunRequest,
    mask: Callable[[str], str],
    path: str,
    element: Element,
    screen: Screen,
    words: str,
) -> None:
    """Stop in front of a control that pays or cannot be undone, unless allowed (then
    the press hook is told before it is pressed); in a press run, in front of any
    control but the one approved."""
    kind = judge(element, screen)
    evidence = card_evidence(screen)
    if evidence and kind is Consequence.REVERSIBLE:
        kind = Consequence.PAYMENT
    gate = control_gate(
        path,
        words,
        element,
        screen,
        consequence=kind.value,
        payment_screen=bool(evidence),
        mask=mask,
    )
    if request.allow_destructive:
        check_approved(request.approved, gate, element)
        if kind is not Consequence.REVERSIBLE:
            await before_press(request, path)
        return
    if kind is Consequence.REVERSIBLE:
        return
    raise Gated(gate, element)
