"""The eight calls' requests and the views they answer with, saved flows' too, and
what every model of the contract stands on (:class:`Model`, :class:`Call`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

from gofer.tasks.limits import (
    DEFAULT_LIST_LIMIT,
    DEFAULT_MAX_ACTIONS,
    DEFAULT_MAX_MODEL_CALLS,
    DEFAULT_MAX_RESCUES,
    DEFAULT_VOTES,
    MAX_AWAIT_MS,
    MAX_FACT_CHARS,
    MAX_FACT_NAME_CHARS,
    MAX_FACTS,
    MAX_HINTS,
    MAX_LIST_LIMIT,
    MAX_RESCUES,
    MAX_VOTES,
)
from gofer.tasks.state import (
    Cancelled,
    Checkpoint,
    ControlInfo,
    Done,
    Failed,
    NeedsApproval,
    NeedsHuman,
    NeedsInput,
    NeedsPlan,
    Running,
    Status,
)

__all__ = [
    "FLOW_NAME_PATTERN",
    "MAX_VERSION",
    "AwaitTaskRequest",
    "Call",
    "CancelTaskRequest",
    "Cancelled",
    "Checkpoint",
    "ContinueTaskRequest",
    "ControlInfo",
    "DescribeDetail",
    "DescribeRequest",
    "Done",
    "FactNames",
    "FactValues",
    "Failed",
    "FileIds",
    "HintInfo",
    "ListFlowsReply",
    "ListFlowsRequest",
    "ListTasksReply",
    "ListTasksRequest",
    "Model",
    "NeedsApproval",
    "NeedsHuman",
    "NeedsInput",
    "NeedsPlan",
    "NotifySpec",
    "OutputSpec",
    "PlanTaskReply",
    "PlanTaskRequest",
    "Running",
    "SaveFlowRequest",
    "SavedFlowEntry",
    "SavedFlowRef",
    "SavedFlowView",
    "StartTaskRequest",
    "Status",
    "StepInfo",
    "SurfaceName",
    "TaskBudget",
    "TaskConstraints",
    "TaskReportRequest",
    "TaskView",
]


SurfaceName = Literal["browser", "desktop"]

MAX_VERSION = 2**63 - 1
"""The highest saved-flow version a call may name (the store's integers)."""


FactValues = Annotated[
    dict[
        Annotated[str, Field(max_length=MAX_FACT_NAME_CHARS)],
        Annotated[str, Field(max_length=MAX_FACT_CHARS)],
    ],
    Field(max_length=MAX_FACTS),
]
"""Facts or answers, name to value: at most MAX_FACTS of them, each value at most
MAX_FACT_CHARS long (a refusal names the fact, never its value)."""

FactNames = Annotated[list[str], Field(max_length=MAX_FACTS)]

FileIds = Annotated[
    dict[
        Annotated[str, Field(max_length=MAX_FACT_NAME_CHARS)],
        Annotated[str, Field(max_length=64)],
    ],
    Field(max_length=MAX_FACTS),
]
"""Files for a task: the name its flow uses to the id of the caller's upload."""


class Call(StrEnum):
    """The calls of the task API; a view's ``next`` lists some of them."""

    DESCRIBE = "describe"
    PLAN_TASK = "plan_task"
    START_TASK = "start_task"
    AWAIT_TASK = "await_task"
    CONTINUE_TASK = "continue_task"
    CANCEL_TASK = "cancel_task"
    TASK_REPORT = "task_report"
    LIST_TASKS = "list_tasks"


class Model(BaseModel):
    """The base of every model of the contract: no field beyond its own, frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# ---------------------------------------------------------------- requests
# A request's numbers and flags are strict, on every face: "5" is not 5, 1 is not true.


class TaskConstraints(Model):
    """What a task may touch and how careful it must be."""

    surfaces: list[SurfaceName] = Field(
        default_factory=list,
        description="the surfaces the task may use; empty means every available one",
    )
    origins: list[str] = Field(
        default_factory=list,
        description="sites the browser may load, e.g. https://.example.com for a site and "
        "its subdomains; empty means any",
    )
    payment: Literal["stop_at_payment", "fill_then_approve"] = Field(
        default="stop_at_payment",
        description="stop_at_payment ends at a final checkpoint before the control that "
        "pays; fill_then_approve waits for approval to press it (needs origins)",
    )
    allow_destructive: bool = Field(
        default=False,
        strict=True,
        description="press irreversible controls, payments included, without asking",
    )
    browser_endpoint: str | None = Field(
        default=None, description="attach to a running Chrome at this DevTools address"
    )
    headed: bool = Field(default=False, strict=True, description="show the browser window")


class TaskBudget(Model):
    """What a task may spend over all its runs; resuming never refills it."""

    max_actions: int = Field(default=DEFAULT_MAX_ACTIONS, strict=True, ge=1)
    max_model_calls: int = Field(default=DEFAULT_MAX_MODEL_CALLS, strict=True, ge=0)
    max_elapsed_ms: int | None = Field(
        default=None,
        strict=True,
        ge=1,
        description="running time; time spent waiting for the caller is not counted",
    )
    max_rescues: int = Field(default=DEFAULT_MAX_RESCUES, strict=True, ge=0, le=MAX_RESCUES)
    votes: int = Field(
        default=DEFAULT_VOTES,
        strict=True,
        ge=1,
        le=MAX_VOTES,
        description="how many ways the model decider votes on each decision",
    )
    strategy: Literal["narrow", "wide"] = Field(
        default="narrow",
        description="what the model decider is shown: narrow, the grounder's candidates; "
        "wide, a digest of every usable control on the screen",
    )
    deliberation: Literal["deep", "standard", "off"] = Field(
        default="deep",
        description="how many votes a decision gets: deep, all of votes; standard, 3; "
        "off, 1. It steps down rung by rung when model calls or time run short",
    )


class OutputSpec(Model):
    """A fixed shape for a finished task's result, made by the output shaper."""

    instructions: str = Field(min_length=1)
    json_schema: dict[str, JsonValue] | None = Field(
        default=None,
        alias="schema",
        description="a JSON Schema (the supported subset) for the result",
    )


DescribeDetail = Literal["brief", "full", "flow", "calls", "examples"]
"""How much ``describe`` says: ``brief`` (the default) fits in a prompt; ``full`` is
everything; ``flow``, ``calls`` and ``examples`` add one section to the brief."""


class DescribeRequest(Model):
    """What ``describe`` should say: the brief by default, or more."""

    detail: DescribeDetail = Field(
        default="brief",
        description="brief (the default, a few KB: enough to write a flow and make every "
        "call); full (the flow guide, every JSON Schema, worked examples); or one section: "
        "flow (guide, step fields, flow JSON Schema), calls (each call's request and reply "
        "JSON Schema), examples (worked examples)",
    )


class HintInfo(Model):
    """A grounding hint the task learned."""

    site: str
    kind: str
    words: str
    role: str
    name: str
    context: str = Field(
        default="",
        description="the record or section around the element, when its name "
        "was not unique on the page",
    )
    within: str = Field(default="", description="the step's within words")


FLOW_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$"
"""A saved flow's name: 1 to 100 letters, digits, spaces, '.', '_' or '-'."""


class SavedFlowRef(Model):
    """A saved flow by name, at a version (the latest when none is given)."""

    name: str = Field(pattern=FLOW_NAME_PATTERN)
    version: int | None = Field(default=None, strict=True, ge=1, le=MAX_VERSION)


class NotifySpec(Model):
    """Where gofer POSTs the task's view whenever it needs the caller or ends."""

    url: str = Field(max_length=2000, description="an http(s) address the operator allows")
    secret: str | None = Field(
        default=None,
        repr=False,
        max_length=200,
        description="signs each delivery: Gofer-Signature: t=<unix time>,v1=<hex "
        "HMAC-SHA256 of '<t>.' + body>",
    )


class StartTaskRequest(Model):
    """Start a task: a ``flow`` to run, a ``saved_flow`` to run again, or a
    plain-language ``task`` for the planner."""

    task: str | None = Field(default=None, description="the job in plain language")
    flow: JsonValue = Field(
        default=None, description="a flow (see the guide); runs instead of planning"
    )
    facts: FactValues = Field(
        default_factory=dict, repr=False, description="the caller's details, name to value"
    )
    secret_facts: FactNames = Field(
        default_factory=list, description="fact names to treat as secret (only ever typed)"
    )
    files: FileIds = Field(
        default_factory=dict,
        description="files the flow uploads, name to the id an upload returned "
        '(`{"cv": "file_..."}`); the flow names each as ${name}',
    )
    constraints: TaskConstraints = TaskConstraints()
    budget: TaskBudget = TaskBudget()
    output: OutputSpec | None = None
    saved_flow: SavedFlowRef | None = Field(
        default=None,
        description="run one of your saved flows with its grounding hints (no model call "
        "unless a step fails and a rescuer is configured); give its parameters as facts",
    )
    notify: NotifySpec | None = Field(
        default=None,
        description="a webhook: each state change that needs the caller or ends the task "
        "is POSTed there as JSON, signed, retried, at most once per delivery id",
    )
    hints: list[HintInfo] = Field(
        default_factory=list,
        max_length=MAX_HINTS,
        description="grounding hints to try first (a saved flow brings its own)",
    )

    @model_validator(mode="after")
    def _task_or_flow(self) -> StartTaskRequest:
        if self.flow is None and self.saved_flow is None and not (self.task and self.task.strip()):
            raise ValueError("give a `flow` to run, a `saved_flow` or a `task` in plain language")
        return self


class PlanTaskRequest(Model):
    """Draft a flow for a plain-language task without running it."""

    task: str = Field(min_length=1)
    facts: FactValues = Field(
        default_factory=dict,
        repr=False,
        description="the caller's details; the planner sees their names only",
    )
    secret_facts: FactNames = Field(default_factory=list)
    constraints: TaskConstraints = TaskConstraints()


class AwaitTaskRequest(Model):
    """Wait until the task stops running, or ``timeout_ms`` passes (at most MAX_AWAIT_MS)."""

    id: str
    timeout_ms: int = Field(default=MAX_AWAIT_MS, strict=True, ge=0)


class ContinueTaskRequest(Model):
    """Answer a paused task: values for ``needs_input``, ``approve`` for ``needs_approval``,
    or nothing once a person got past a wall (``needs_human``) or to retry a failed step.

    New ``inputs`` become facts, and the flow is checked again with them: when one
    turns a name into a secret used anywhere but an ``enter`` value, the call is
    refused with INVALID_FLOW and the task stays as it was (give the value as a shared
    one, or cancel the task).
    """

    id: str
    inputs: FactValues = Field(default_factory=dict, repr=False)
    secret_inputs: FactNames = Field(
        default_factory=list, description="names among inputs to treat as secret"
    )
    files: FileIds = Field(
        default_factory=dict,
        description="answers that are files: the name asked for to an upload's id",
    )
    approve: bool | None = Field(default=None, strict=True)
    approval_id: str | None = Field(
        default=None,
        max_length=64,
        description="the needs_approval's approval_id: approving it presses that control "
        "only; a stale or used one is refused (APPROVAL_STALE, APPROVAL_USED)",
    )


class CancelTaskRequest(Model):
    """Cancel a task and release its workspace (idempotent)."""

    id: str


class TaskReportRequest(Model):
    """The full, confidential report of a task."""

    id: str


class ListTasksRequest(Model):
    """A page of the caller's tasks, oldest first: up to ``limit``, after ``cursor`` (the
    ``next_cursor`` of the page before). Nothing given: the first DEFAULT_LIST_LIMIT."""

    limit: int = Field(
        default=DEFAULT_LIST_LIMIT,
        strict=True,
        ge=1,
        le=MAX_LIST_LIMIT,
        description=f"how many tasks, at most {MAX_LIST_LIMIT}",
    )
    cursor: str | None = Field(
        default=None,
        max_length=40,
        description="the previous page's next_cursor, for the page after it",
    )


class SaveFlowRequest(Model):
    """Save a flow under a name: a ``flow`` as written, or what a finished task ran
    (``task_id``: its flow as it finally ran, planned or rescued, with the grounding
    hints its runs learned). A save adds a version; it never overwrites one."""

    name: str = Field(pattern=FLOW_NAME_PATTERN)
    description: str = Field(default="", max_length=2000)
    flow: JsonValue = Field(default=None, description="the flow to save")
    task_id: str | None = Field(default=None, description="save what this task ran")
    secret_facts: FactNames = Field(
        default_factory=list, description="parameter names to treat as secret when it runs"
    )

    @model_validator(mode="after")
    def _flow_or_task(self) -> SaveFlowRequest:
        if (self.flow is None) == (self.task_id is None):
            raise ValueError("give either a `flow` or a `task_id`")
        return self


# ---------------------------------------------------------------- views


class StepInfo(Model):
    """The step a task is on."""

    index: int = Field(description="0-based index of the top-level step")
    path: str
    kind: str
    intent: str
    surface: SurfaceName


class TaskView(Model):
    """What any caller may see of a task. Never holds a secret or a screenshot."""

    id: str
    status: Status
    summary: str = Field(description="one sentence, with fact values redacted")
    step: StepInfo | None
    progress: float = Field(ge=0.0, le=1.0, description="fraction of top-level steps finished")
    next: list[Call] = Field(description="the calls that make sense from here")


class ListTasksReply(Model):
    """A page of the caller's tasks, oldest first."""

    tasks: list[TaskView]
    next_cursor: str | None = Field(
        default=None, description="pass it as cursor for the next page; null after the last"
    )


class SavedFlowView(Model):
    """One version of a saved flow: what it asks for and what it does. Never a value."""

    name: str
    version: int
    description: str
    params: list[str] = Field(description="the ${names} a run asks for as facts")
    secret_params: list[str] = Field(description="those among params typed as secrets")
    flow: dict[str, JsonValue]
    hints: list[HintInfo]
    from_task: str | None = None
    created_at: float


class SavedFlowEntry(Model):
    """A saved flow as a list shows it: its latest version, without its steps (show it
    by name for those)."""

    name: str
    version: int
    description: str
    params: list[str] = Field(description="the ${names} a run asks for as facts")
    secret_params: list[str] = Field(description="those among params typed as secrets")
    from_task: str | None = None
    created_at: float


class ListFlowsRequest(Model):
    """A page of the caller's saved flows by name: up to ``limit``, after ``cursor`` (the
    ``next_cursor`` of the page before)."""

    limit: int = Field(
        default=DEFAULT_LIST_LIMIT,
        strict=True,
        ge=1,
        le=MAX_LIST_LIMIT,
        description=f"how many flows, at most {MAX_LIST_LIMIT}",
    )
    cursor: str | None = Field(
        default=None,
        pattern=FLOW_NAME_PATTERN,
        description="the previous page's next_cursor, for the page after it",
    )


class ListFlowsReply(Model):
    """A page of the caller's saved flows (the latest version of each), by name."""

    flows: list[SavedFlowEntry]
    next_cursor: str | None = Field(
        default=None, description="pass it as cursor for the next page; null after the last"
    )


class PlanTaskReply(Model):
    """A drafted flow and the names it still needs values for."""

    flow: dict[str, JsonValue]
    questions: list[str]
