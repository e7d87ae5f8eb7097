"""How a step ends inside the runtime: a result, or one of three signals."""

from __future__ import annotations

from dataclasses import dataclass

from gofer.runtime.types import Gate, StepOutcome
from gofer.surfaces.screen import Element


@dataclass(slots=True)
class StepFinished:
    """A step that finished, with what it acted on."""

    outcome: StepOutcome = StepOutcome.DONE
    element: Element | None = None
    confidence: float | None = None
    reason: str | None = None


class StepFailed(Exception):
    """A step could not be done; ``reason`` is plain words for people.

    ``element`` is the element the step had chosen, when it got that far.
    """

    def __init__(self, reason: str, element: Element | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.element = element
        self.path = ""  # the step that failed, set by the runtime as it reports it
        self.kind = ""


class Gated(Exception):
    """A step stopped in front of a control that pays or cannot be undone."""

    def __init__(self, gate: Gate, element: Element | None = None) -> None:
        super().__init__(gate.label)
        self.gate = gate
        self.element = element


class BudgetSpent(Exception):
    """The run's action or model-call budget ran out."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
