"""The flow runtime: run one flow, step by step, on a workspace's surfaces."""

from __future__ import annotations

from gofer.runtime.run import ModelDecider, RuntimeSettings, run_flow
from gofer.runtime.types import (
    ChosenElement,
    Failure,
    Gate,
    GroundingHint,
    RunBudget,
    RunRequest,
    RunResult,
    RunStatus,
    Spend,
    StepOutcome,
    StepReport,
    TraceEvent,
)
from gofer.runtime.workspace import Workspace

__all__ = [
    "ChosenElement",
    "Failure",
    "Gate",
    "GroundingHint",
    "ModelDecider",
    "RunBudget",
    "RunRequest",
    "RunResult",
    "RunStatus",
    "RuntimeSettings",
    "Spend",
    "StepOutcome",
    "StepReport",
    "TraceEvent",
    "Workspace",
    "run_flow",
]
