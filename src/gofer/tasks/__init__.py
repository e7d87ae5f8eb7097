"""The task controller: the async API outside agents use to hand gofer a whole job.

:class:`Tasks` answers eight calls (``describe``, ``plan_task``, ``start_task``,
``await_task``, ``continue_task``, ``cancel_task``, ``task_report``,
``list_tasks``) with the pydantic models of :mod:`gofer.tasks.models`. It runs
flows through a :class:`FlowRunner`; :class:`ScriptedRunner` scripts the runs for
tests and examples. It imports no face (CLI, HTTP).
"""

from __future__ import annotations

from gofer.tasks.controller import Tasks
from gofer.tasks.limits import (
    ARTIFACT_TTL_S,
    DEFAULT_MAX_ACTIONS,
    DEFAULT_MAX_MODEL_CALLS,
    MAX_AWAIT_MS,
    MAX_RESCUES,
    MAX_TASKS,
)
from gofer.tasks.models import (
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
    State,
    Status,
    TaskBudget,
    TaskConstraints,
    TaskReport,
    TaskReportRequest,
    TaskView,
)
from gofer.tasks.runner import FlowRunner, ScriptedRunner, WorkspaceOptions
from gofer.tasks.seams import (
    Decider,
    PlanBrief,
    Planner,
    Rescuer,
    ShapeBrief,
    Shaper,
)
from gofer.tasks.workspace_runner import WorkspaceRunner

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
