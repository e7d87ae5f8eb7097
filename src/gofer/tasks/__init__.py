"""The task controller: the async API outside agents use to hand gofer a whole job.

:class:`Tasks` answers eight calls (``describe``, ``plan_task``, ``start_task``,
``await_task``, ``continue_task``, ``cancel_task``, ``task_report``,
``list_tasks``) with the pydantic models of :mod:`gofer.tasks.contract`. It runs
flows through a :class:`FlowRunner`: the real one, :class:`WorkspaceRunner`, sits
beside the runtime (:mod:`gofer.runtime.workspace_runner`), and
:class:`ScriptedRunner` (:mod:`gofer.tasks.testing`) scripts the runs for tests and
examples. Both are loaded only when asked for by name here, so ``import gofer.tasks``
loads neither the browser engine nor the fake. It imports no face (CLI, HTTP).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gofer.tasks.contract import (
    AwaitTaskRequest,
    Call,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeReply,
    ListTasksReply,
    OutputSpec,
    PlanTaskReply,
    PlanTaskRequest,
    StartTaskRequest,
    Status,
    TaskBudget,
    TaskConstraints,
    TaskReport,
    TaskReportRequest,
    TaskView,
)
from gofer.tasks.controller import Tasks
from gofer.tasks.limits import (
    ARTIFACT_TTL_S,
    DEFAULT_MAX_ACTIONS,
    DEFAULT_MAX_MODEL_CALLS,
    MAX_AWAIT_MS,
    MAX_RESCUES,
    MAX_TASKS,
)
from gofer.tasks.seams import (
    Decider,
    FlowRunner,
    PlanBrief,
    Planner,
    Rescuer,
    ShapeBrief,
    Shaper,
    WorkspaceOptions,
)
from gofer.tasks.state import State

if TYPE_CHECKING:
    from gofer.runtime.workspace_runner import WorkspaceRunner
    from gofer.tasks.testing import ScriptedRunner

__all__ = [
    "ARTIFACT_TTL_S",
    "DEFAULT_MAX_ACTIONS",
    "DEFAULT_MAX_MODEL_CALLS",
    "MAX_AWAIT_MS",
    "MAX_RESCUES",
    "MAX_TASKS",
    "AwaitTaskRequest",
    "Call",
    "CancelTaskRequest",
    "ContinueTaskRequest",
    "Decider",
    "DescribeReply",
    "FlowRunner",
    "ListTasksReply",
    "OutputSpec",
    "PlanBrief",
    "PlanTaskReply",
    "PlanTaskRequest",
    "Planner",
    "Rescuer",
    "ScriptedRunner",
    "ShapeBrief",
    "Shaper",
    "StartTaskRequest",
    "State",
    "Status",
    "TaskBudget",
    "TaskConstraints",
    "TaskReport",
    "TaskReportRequest",
    "TaskView",
    "Tasks",
    "WorkspaceOptions",
    "WorkspaceRunner",
]

_LAZY = {
    "WorkspaceRunner": "gofer.runtime.workspace_runner",
    "ScriptedRunner": "gofer.tasks.testing",
}


def __getattr__(name: str) -> Any:
    """``WorkspaceRunner`` and ``ScriptedRunner``, imported on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
