"""The flow runtime: run one flow, step by step, on a workspace's surfaces."""

from __future__ import annotations

from gofer.runtime.run import RuntimeSettings, run_flow
from gofer.runtime.types import (
    DEFAULT_VOTES,
    MAX_VOTES,
    Allowance,
    ChosenElement,
    Deliberation,
    Failure,
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
    TraceEvent,
    Verdict,
)
from gofer.runtime.workspace import Workspace

__all__ = [
    "DEFAULT_VOTES",
    "MAX_VOTES",
    "Allowance",
    "ChosenElement",
    "Deliberation",
    "Failure",
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
    "TraceEvent",
    "Verdict",
    "Workspace",
    "run_flow",
]
