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

from gofer.tasks.book import (
    LOCAL_OWNER,
)
from gofer.tasks.contract import (
    FLOW_NAME_PATTERN,
    MAX_VERSION,
    ArtifactInfo,
    AwaitTaskRequest,
    Call,
    CallSchema,
    Cancelled,
    CancelTaskRequest,
    Checkpoint,
    ContinueTaskRequest,
    ControlInfo,
    DescribeDetail,
    DescribeReply,
    DescribeRequest,
    Done,
    Example,
    ExampleCall,
    FactNames,
    FactValues,
    Failed,
    FileIds,
    FileInfo,
    HintInfo,
    ListFlowsReply,
    ListFlowsRequest,
    ListTasksReply,
    ListTasksRequest,
    LogEntry,
    NeedsApproval,
    NeedsHuman,
    NeedsInput,
    NeedsPlan,
    NotifySpec,
    OutputSpec,
    PersonStepInfo,
    PlanTaskReply,
    PlanTaskRequest,
    RescueInfo,
    Running,
    SavedFlowEntry,
    SavedFlowRef,
    SavedFlowView,
    SaveFlowRequest,
    SpendInfo,
    StartTaskRequest,
    Status,
    StepInfo,
    StepReportInfo,
    SurfaceInfo,
    SurfaceName,
    TaskBudget,
    TaskConstraints,
    TaskReport,
    TaskReportRequest,
    TaskView,
    TraceInfo,
    UploadInfo,
)
from gofer.tasks.controller import (
    Tasks,
)
from gofer.tasks.describe import (
    RunnerPasses,
)
from gofer.tasks.files import (
    FileDesk,
    safe_filename,
)
from gofer.tasks.holding import (
    MAX_TEXT_CHARS,
    HeldView,
    KeyInput,
    LiveDialog,
    LiveView,
    Modifiers,
    PointerInput,
)
from gofer.tasks.limits import (
    ARTIFACT_TTL_S,
    DEFAULT_LIST_LIMIT,
    DEFAULT_MAX_ACTIONS,
    DEFAULT_MAX_MODEL_CALLS,
    DRAIN_S,
    MAX_AWAIT_MS,
    MAX_LIST_LIMIT,
    MAX_RESCUES,
    MAX_TASKS,
    TURNS_PER_OWNER,
    TURNS_PER_PROCESS,
)
from gofer.tasks.outcome import (
    step_number,
)
from gofer.tasks.relay import (
    BLOCKED_PATH,
    RELAY_CREDENTIAL,
    RELAY_OWNER,
    RELAY_PATH,
    TLS_PREFIX,
    OwnerRelay,
    RelayTarget,
)
from gofer.tasks.saved import (
    FlowLibrary,
    flow_params,
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
from gofer.tasks.state import (
    State,
    holds_browser,
    is_running,
)
from gofer.tasks.worker import (
    TurnLimits,
)

if TYPE_CHECKING:
    from gofer.runtime.workspace_runner import WorkspaceRunner
    from gofer.tasks.testing import ScriptedRunner

__all__ = [
    "ARTIFACT_TTL_S",
    "BLOCKED_PATH",
    "DEFAULT_LIST_LIMIT",
    "DEFAULT_MAX_ACTIONS",
    "DEFAULT_MAX_MODEL_CALLS",
    "DRAIN_S",
    "FLOW_NAME_PATTERN",
    "LOCAL_OWNER",
    "MAX_AWAIT_MS",
    "MAX_LIST_LIMIT",
    "MAX_RESCUES",
    "MAX_TASKS",
    "MAX_TEXT_CHARS",
    "MAX_VERSION",
    "RELAY_CREDENTIAL",
    "RELAY_OWNER",
    "RELAY_PATH",
    "TLS_PREFIX",
    "TURNS_PER_OWNER",
    "TURNS_PER_PROCESS",
    "ArtifactInfo",
    "AwaitTaskRequest",
    "Call",
    "CallSchema",
    "CancelTaskRequest",
    "Cancelled",
    "Checkpoint",
    "ContinueTaskRequest",
    "ControlInfo",
    "Decider",
    "DescribeDetail",
    "DescribeReply",
    "DescribeRequest",
    "Done",
    "Example",
    "ExampleCall",
    "FactNames",
    "FactValues",
    "Failed",
    "FileDesk",
    "FileIds",
    "FileInfo",
    "FlowLibrary",
    "FlowRunner",
    "HeldView",
    "HintInfo",
    "KeyInput",
    "ListFlowsReply",
    "ListFlowsRequest",
    "ListTasksReply",
    "ListTasksRequest",
    "LiveDialog",
    "LiveView",
    "LogEntry",
    "Modifiers",
    "NeedsApproval",
    "NeedsHuman",
    "NeedsInput",
    "NeedsPlan",
    "NotifySpec",
    "OutputSpec",
    "OwnerRelay",
    "PersonStepInfo",
    "PlanBrief",
    "PlanTaskReply",
    "PlanTaskRequest",
    "Planner",
    "PointerInput",
    "RelayTarget",
    "RescueInfo",
    "Rescuer",
    "RunnerPasses",
    "Running",
    "SaveFlowRequest",
    "SavedFlowEntry",
    "SavedFlowRef",
    "SavedFlowView",
    "ScriptedRunner",
    "ShapeBrief",
    "Shaper",
    "SpendInfo",
    "StartTaskRequest",
    "State",
    "Status",
    "StepInfo",
    "StepReportInfo",
    "SurfaceInfo",
    "SurfaceName",
    "TaskBudget",
    "TaskConstraints",
    "TaskReport",
    "TaskReportRequest",
    "TaskView",
    "Tasks",
    "TraceInfo",
    "TurnLimits",
    "UploadInfo",
    "WorkspaceOptions",
    "WorkspaceRunner",
    "flow_params",
    "holds_browser",
    "is_running",
    "safe_filename",
    "step_number",
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
