"""What the faces send and answer besides the calls' own models: the person's tasks,
errors as JSON, and the MCP tasks vocabulary beside gofer's status.

The eight agent calls keep :mod:`gofer.tasks.contract` as they are; these models wrap
them for a person's view of their tasks and for an MCP client.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

from gofer.tasks import (
    Checkpoint,
    Done,
    FactNames,
    FactValues,
    Failed,
    FileIds,
    NeedsApproval,
    NeedsHuman,
    NeedsInput,
    NeedsPlan,
    OutputSpec,
    Running,
    Status,
    TaskBudget,
    TaskConstraints,
    TaskReport,
    TaskView,
)

__all__ = [
    "CreateTask",
    "CreateTasks",
    "ErrorBody",
    "ErrorInfo",
    "McpTaskStatus",
    "PersonReply",
    "TaskEntries",
    "TaskEntry",
    "TaskList",
    "TaskStory",
    "mcp_status",
]

McpTaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
"""The MCP tasks extension's statuses; every gofer status maps onto one of them."""


def mcp_status(status: Status) -> McpTaskStatus:
    """The MCP tasks status for a gofer status.

    A task that waits for its caller (values, an approval, a person past a wall, a
    recoverable failure, a continuable checkpoint) is ``input_required``; a final
    checkpoint is ``completed``: the job went as far as gofer may take it, and the rest
    (paying) is a person's. ``needs_plan`` is ``failed``: this task can do no more, and
    the way on is a new ``start_task`` with a flow.
    """
    match status:
        case Running():
            return "working"
        case NeedsInput() | NeedsApproval() | NeedsHuman():
            return "input_required"
        case Checkpoint():
            return "input_required" if status.continuable else "completed"
        case Done():
            return "completed"
        case Failed():
            return "input_required" if status.recoverable else "failed"
        case NeedsPlan():
            return "failed"
        case _:
            return "cancelled"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ErrorInfo(BaseModel):
    """One error: its stable code, a message in plain words, and any details."""

    model_config = ConfigDict(extra="allow", frozen=True)

    code: str = Field(description="stable and machine-readable, e.g. UNKNOWN_TASK")
    message: str


class ErrorBody(_Model):
    """Every error the HTTP API answers with."""

    error: ErrorInfo


class CreateTask(_Model):
    """A person's new task: an ``instruction`` in plain words, or a ``flow`` to run."""

    instruction: str | None = Field(
        default=None, max_length=20_000, description="the job in plain language"
    )
    flow: JsonValue = Field(default=None, description="a flow to run instead of planning")
    title: str | None = Field(
        default=None,
        max_length=200,
        description="shown in the list; the instruction's first sentence when left out",
    )
    facts: FactValues = Field(default_factory=dict, repr=False)
    secret_facts: FactNames = Field(default_factory=list)
    files: FileIds = Field(
        default_factory=dict, description="files the flow uploads: name to an upload's id"
    )
    constraints: TaskConstraints = TaskConstraints()
    budget: TaskBudget = TaskBudget()
    output: OutputSpec | None = None

    @model_validator(mode="after")
    def _instruction_or_flow(self) -> CreateTask:
        if self.flow is None and not (self.instruction and self.instruction.strip()):
            raise ValueError("give an `instruction` in plain language or a `flow` to run")
        return self


class CreateTasks(_Model):
    """Several new tasks in one request (at most five)."""

    tasks: list[CreateTask] = Field(min_length=1)


class PersonReply(_Model):
    """A person's answer to a task that asked for values."""

    inputs: FactValues = Field(default_factory=dict, repr=False)
    secret_inputs: FactNames = Field(
        default_factory=list, description="names among inputs to keep secret"
    )


class TaskEntry(_Model):
    """One of a person's tasks: what they said about it and its view now."""

    id: str
    title: str
    created_at: datetime
    resolved_at: datetime | None = Field(description="when the person marked it done")
    moved_at: datetime = Field(
        description="when the task last moved: it started, a step "
        "began, a run ended, or the caller answered or cancelled"
    )
    view: TaskView
    task_status: McpTaskStatus = Field(description="the view's status in MCP's tasks words")


class TaskEntries(_Model):
    """Tasks a request started, in the order it gave them."""

    tasks: list[TaskEntry]


class TaskList(_Model):
    """A page of a person's tasks, newest first."""

    tasks: list[TaskEntry]
    next_cursor: str | None = Field(
        default=None, description="pass it as cursor for the next (older) page; null after the last"
    )


class TaskStory(_Model):
    """A task's report as the person reads it: the task, and the report whose ``log``
    says what happened, in order (replies, decisions, each run's update)."""

    task: TaskEntry
    report: TaskReport
