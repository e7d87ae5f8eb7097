"""A control a run stops in front of, as a person is asked to approve it, and the
rule that binds an approval to it: a press run presses only that same control (the
same words, kind, page, section and record); anything else stops the run in front of
what is there now, to be asked about again."""

from __future__ import annotations

from collections.abc import Callable

from gofer.decide import label_of
from gofer.runtime.signals import Gated
from gofer.runtime.types import Gate
from gofer.surfaces.screen import Element, Screen

__all__ = ["RECORD_CHARS", "check_approved", "control_gate", "record_text"]

RECORD_CHARS = 200
"""The most characters of a control's record kept to tell it from its namesakes."""


def record_text(element: Element, screen: Screen) -> str:
    """The text of the record (a row, a card) ``element`` belongs to, or ``""``."""
    if element.record is None:
        return ""
    group, index = element.record
    if group < len(screen.records) and index < len(screen.records[group].records):
        return " ".join(screen.records[group].records[index].text.split())[:RECORD_CHARS]
    return ""


def control_gate(
    path: str,
    words: str,
    element: Element,
    screen: Screen,
    *,
    consequence: str,
    payment_screen: bool,
    mask: Callable[[str], str],
) -> Gate:
    """The gate in front of ``element`` on ``screen``, every text masked."""
    return Gate(
        path=path,
        action=words,
        label=mask(label_of(element)),
        consequence=consequence,
        payment_screen=payment_screen,
        url=mask(screen.url),
        role=element.role,
        section=mask(element.section),
        record=mask(record_text(element, screen)),
    )


def check_approved(approved: Gate | None, found: Gate, element: Element | None) -> None:
    """Raise :class:`Gated` in front of ``found`` unless it is the control ``approved``
    names (nothing to check outside a press run)."""
    if approved is not None and not approved.same_control(found):
        raise Gated(found, element)
