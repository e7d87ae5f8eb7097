"""gofer.rescue: a reasoning model's guidance when a task's step fails, and its judge.

The task controller briefs the rescuer (values redacted) when a top-level step
fails and no person is needed; the answer (``retry`` steps, ``skip``, ``give_up``,
each with ``covers``) is judged by :func:`judge` before it is spliced into the flow.
"""

from __future__ import annotations

from gofer.rescue.judge import ends_in_guard, guards, judge, resumed
from gofer.rescue.render import RESCUE_PROTOCOL, cut_screen, render
from gofer.rescue.rescuer import REPAIRS, ModelRescuer
from gofer.rescue.types import (
    COLLECTED_CHARS,
    MAX_RESCUE_STEPS,
    MAX_RESCUES,
    RESCUE_TIMEOUT_S,
    SCREEN_CHARS,
    Action,
    Briefing,
    Earlier,
    Guidance,
    StepLine,
)

__all__ = [
    "COLLECTED_CHARS",
    "MAX_RESCUES",
    "MAX_RESCUE_STEPS",
    "REPAIRS",
    "RESCUE_PROTOCOL",
    "RESCUE_TIMEOUT_S",
    "SCREEN_CHARS",
    "Action",
    "Briefing",
    "Earlier",
    "Guidance",
    "ModelRescuer",
    "StepLine",
    "cut_screen",
    "ends_in_guard",
    "guards",
    "judge",
    "render",
    "resumed",
]
