"""The rescuer's briefing and its answer, as plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from gofer.flow.steps import Flow, Step

__all__ = [
    "COLLECTED_CHARS",
    "MAX_RESCUES",
    "MAX_RESCUE_STEPS",
    "RESCUE_TIMEOUT_S",
    "SCREEN_CHARS",
    "Action",
    "Briefing",
    "Earlier",
    "Guidance",
    "StepLine",
]

MAX_RESCUES = 5
"""Rescues one task gets at most (also the ceiling of ``budget.max_rescues``)."""

MAX_RESCUE_STEPS = 6
"""Steps one rescue's guidance may put in place of the failed step."""

SCREEN_CHARS = 8_000
"""Characters of screen text a briefing carries (the longest lines go first)."""

COLLECTED_CHARS = 200
"""Characters of each collected value a briefing shows."""

RESCUE_TIMEOUT_S = 120.0
"""Longest one rescue call may take (less when the task's time budget has less left)."""

Action = Literal["retry", "skip", "give_up"]


@dataclass(frozen=True, slots=True)
class StepLine:
    """One step the run reported: its path, kind, outcome, and why (redacted)."""

    path: str
    kind: str
    outcome: str
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Earlier:
    """One of the task's earlier rescues."""

    step: str
    action: str
    outcome: str
    reason: str


@dataclass(frozen=True, slots=True)
class Briefing:
    """Everything the rescuer is told. Every fact value is redacted before it is built:
    the rescuer sees ``${name}`` or ``‹name›``, never a value."""

    goal: str
    flow: Flow
    failed: int  # the failed top-level step, from zero
    failure: str
    steps: tuple[StepLine, ...] = ()
    earlier: tuple[Earlier, ...] = ()
    screen: str = ""
    rules: tuple[str, ...] = ()
    known: frozenset[str] = frozenset()
    secrets: frozenset[str] = frozenset()
    collected: tuple[tuple[str, str], ...] = ()
    hosts: frozenset[str] = frozenset()
    """The hosts the guidance may browse: those the flow already used and the task's
    origins' (``.example.com`` stands for the site and its subdomains)."""


@dataclass(frozen=True, slots=True)
class Guidance:
    """The judged answer: ``steps`` to run in place of the failed one (retry), none
    (skip), or a give-up; ``covers`` later steps it also takes care of."""

    action: Action
    reason: str
    steps: tuple[Step, ...] = field(default=())
    covers: int = 0
