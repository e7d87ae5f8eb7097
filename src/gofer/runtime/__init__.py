"""The flow runtime: run one flow, step by step, on a workspace's surfaces.

Its request and result types load alone; ``run_flow``, ``RuntimeSettings`` and
``Workspace`` (which bring the browser, and Playwright, with them) are imported on
first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gofer.runtime.types import (
    DEFAULT_VOTES,
    MAX_VOTES,
    Allowance,
    ChosenElement,
    Deliberation,
    Failure,
    FileLimits,
    Gate,
    GroundingHint,
    ModelDecider,
    Ruling,
    RunBudget,
    RunRequest,
    RunResult,
    RunStatus,
    Spend,
    StepOutcome,
    StepReport,
    Strategy,
    TaskFile,
    TraceEvent,
    Verdict,
)

if TYPE_CHECKING:
    from gofer.runtime.run import RuntimeSettings, run_flow
    from gofer.runtime.workspace import Workspace

__all__ = [
    "DEFAULT_VOTES",
    "MAX_VOTES",
    "Allowance",
    "ChosenElement",
    "Deliberation",
    "Failure",
    "FileLimits",
    "Gate",
    "GroundingHint",
    "ModelDecider",
    "Ruling",
    "RunBudget",
    "RunRequest",
    "RunResult",
    "RunStatus",
    "RuntimeSettings",
    "Spend",
    "StepOutcome",
    "StepReport",
    "Strategy",
    "TaskFile",
    "TraceEvent",
    "Verdict",
    "Workspace",
    "run_flow",
]

_RUNNING = {
    "RuntimeSettings": "gofer.runtime.run",
    "run_flow": "gofer.runtime.run",
    "Workspace": "gofer.runtime.workspace",
}


def __getattr__(name: str) -> Any:
    """The names that run a flow, imported (with the browser) on first use."""
    module = _RUNNING.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
