"""The calls' contract: their requests and replies as pydantic models.

These models are the public shape of the task API: every face (Python, HTTP, MCP,
the CLI) speaks them, and ``describe`` publishes their JSON Schemas.
"""

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
    "MAX_VERSION",
    "ArtifactInfo",
    "AwaitTaskRequest",
    "Call",
    "CallSchema",
    "CancelTaskRequest",
    "Cancelled",
    "Checkpoint",
    "ContinueTaskRequest",
    "ControlInfo",
    "DescribeDetail",
    "DescribeReply",
    "DescribeRequest",
    "Done",
    "Example",
    "ExampleCall",
    "FactNames",
    "FactValues",
    "Failed",
    "FileIds",
    "FileInfo",
    "HintInfo",
    "ListFlowsReply",
    "ListFlowsRequest",
    "ListTasksReply",
    "ListTasksRequest",
    "LogEntry",
    "NeedsApproval",
    "NeedsHuman",
    "NeedsInput",
    "NeedsPlan",
    "NotifySpec",
    "OutputSpec",
    "PlanTaskReply",
    "PlanTaskRequest",
    "RescueInfo",
    "Running",
    "SaveFlowRequest",
    "SavedFlowEntry",
    "SavedFlowRef",
    "SavedFlowView",
    "SpendInfo",
    "StartTaskRequest",
    "Status",
    "StepInfo",
    "StepReportInfo",
    "SurfaceInfo",
    "TaskBudget",
    "TaskConstraints",
    "TaskReport",
    "TaskReportRequest",
    "TaskView",
    "TraceInfo",
    "UploadInfo",
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


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


# ---------------------------------------------------------------- requests
# A request's numbers and flags are strict, on every face: "5" is not 5, 1 is not true.


class TaskConstraints(_Model):
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


class TaskBudget(_Model):
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


class OutputSpec(_Model):
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


class DescribeRequest(_Model):
    """What ``describe`` should say: the brief by default, or more."""

    detail: DescribeDetail = Field(
        default="brief",
        description="brief (the default, a few KB: enough to write a flow and make every "
        "call); full (the flow guide, every JSON Schema, worked examples); or one section: "
        "flow (guide, step fields, flow JSON Schema), calls (each call's request and reply "
        "JSON Schema), examples (worked examples)",
    )


class HintInfo(_Model):
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


class SavedFlowRef(_Model):
    """A saved flow by name, at a version (the latest when none is given)."""

    name: str = Field(pattern=FLOW_NAME_PATTERN)
    version: int | None = Field(default=None, strict=True, ge=1, le=MAX_VERSION)


class NotifySpec(_Model):
    """Where gofer POSTs the task's view whenever it needs the caller or ends."""

    url: str = Field(max_length=2000, description="an http(s) address the operator allows")
    secret: str | None = Field(
        default=None,
        repr=False,
        max_length=200,
        description="signs each delivery: Gofer-Signature: t=<unix time>,v1=<hex "
        "HMAC-SHA256 of '<t>.' + body>",
    )


class StartTaskRequest(_Model):
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


class PlanTaskRequest(_Model):
    """Draft a flow for a plain-language task without running it."""

    task: str = Field(min_length=1)
    facts: FactValues = Field(
        default_factory=dict,
        repr=False,
        description="the caller's details; the planner sees their names only",
    )
    secret_facts: FactNames = Field(default_factory=list)
    constraints: TaskConstraints = TaskConstraints()


class AwaitTaskRequest(_Model):
    """Wait until the task stops running, or ``timeout_ms`` passes (at most MAX_AWAIT_MS)."""

    id: str
    timeout_ms: int = Field(default=MAX_AWAIT_MS, strict=True, ge=0)


class ContinueTaskRequest(_Model):
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


class CancelTaskRequest(_Model):
    """Cancel a task and release its workspace (idempotent)."""

    id: str


class TaskReportRequest(_Model):
    """The full, confidential report of a task."""

    id: str


class ListTasksRequest(_Model):
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


class SaveFlowRequest(_Model):
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


class StepInfo(_Model):
    """The step a task is on."""

    index: int = Field(description="0-based index of the top-level step")
    path: str
    kind: str
    intent: str
    surface: SurfaceName


class TaskView(_Model):
    """What any caller may see of a task. Never holds a secret or a screenshot."""

    id: str
    status: Status
    summary: str = Field(description="one sentence, with fact values redacted")
    step: StepInfo | None
    progress: float = Field(ge=0.0, le=1.0, description="fraction of top-level steps finished")
    next: list[Call] = Field(description="the calls that make sense from here")


class ListTasksReply(_Model):
    """A page of the caller's tasks, oldest first."""

    tasks: list[TaskView]
    next_cursor: str | None = Field(
        default=None, description="pass it as cursor for the next page; null after the last"
    )


class SavedFlowView(_Model):
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


class SavedFlowEntry(_Model):
    """A saved flow as a list shows it: its latest version, without its steps (show it
    by name for those)."""

    name: str
    version: int
    description: str
    params: list[str] = Field(description="the ${names} a run asks for as facts")
    secret_params: list[str] = Field(description="those among params typed as secrets")
    from_task: str | None = None
    created_at: float


class ListFlowsRequest(_Model):
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


class ListFlowsReply(_Model):
    """A page of the caller's saved flows (the latest version of each), by name."""

    flows: list[SavedFlowEntry]
    next_cursor: str | None = Field(
        default=None, description="pass it as cursor for the next page; null after the last"
    )


class PlanTaskReply(_Model):
    """A drafted flow and the names it still needs values for."""

    flow: dict[str, JsonValue]
    questions: list[str]


# ---------------------------------------------------------------- report


class StepReportInfo(_Model):
    """One step a run ran; ``path`` counts from the start of the task's flow."""

    run: int
    path: str
    kind: str
    outcome: str
    intent: str
    element: dict[str, str] | None = None
    confidence: float | None = None
    reason: str | None = None
    duration_ms: float = 0.0
    actions: int = 0
    model_calls: int = 0


class TraceInfo(_Model):
    """One trace entry of one run."""

    run: int
    at_ms: float
    path: str
    event: str
    detail: dict[str, JsonValue]


class RescueInfo(_Model):
    """One rescue of a failed step: what the rescuer answered and how it went.

    ``outcome`` is ``running`` until the guidance's run ends, then ``recovered`` (each
    of its steps finished or reached its gate), ``failed_again`` (one of them failed),
    or ``gave_up`` (the rescuer gave up, its call failed, or no valid answer came).
    """

    step: str = Field(description="the failed step's path in the flow as it was then")
    action: Literal["retry", "skip", "give_up"]
    outcome: Literal["running", "recovered", "failed_again", "gave_up"]
    reason: str
    covers: int = 0
    steps: list[dict[str, JsonValue]] = Field(
        default_factory=list, description="the steps run in place of the failed one"
    )


class SpendInfo(_Model):
    """What the task spent over all its runs."""

    actions: int
    model_calls: int
    elapsed_ms: float
    runs: int
    rescues: int


class FileInfo(_Model):
    """A file a task holds: given to it (``given``) or kept by a step (``kept``). A
    secret file's own name is never shown. Fetch the bytes with ``read_file``."""

    name: str = Field(description="the name the flow uses for it")
    origin: Literal["given", "kept"]
    filename: str = Field(description="the file's own name (hidden for a secret file)")
    media_type: str
    size: int
    sha256: str = Field(description="hex SHA-256 of its bytes (hidden for a secret file)")
    secret: bool = False
    step: str = Field(default="", description="the step that kept it")


class UploadInfo(_Model):
    """A file the caller uploaded: name its ``id`` in ``start_task``'s ``files``."""

    id: str
    filename: str
    media_type: str
    size: int
    sha256: str
    secret: bool = False
    expires_at: float = Field(description="when it is dropped unless a task took it")


class ArtifactInfo(_Model):
    """A screenshot a stopped run took; read it with ``Tasks.read_artifact`` until
    ``expires_at`` (seconds since the epoch)."""

    name: str
    kind: Literal["screenshot"] = "screenshot"
    media_type: str
    size: int
    run: int
    taken_at: float
    expires_at: float


class LogEntry(_Model):
    """One entry of a task's event log as the report reads it back: the caller's
    replies and decisions and each run's update as it ended, in plain words (fact
    names, never their values)."""

    at: float = Field(description="seconds since the epoch")
    kind: str = Field(
        description="start, reply, again, ended, cancelled, resolved, reopened, let_go"
    )
    text: str
    state: str | None = Field(default=None, description="for an ended run: the state it ended in")


class PersonStepInfo(_Model):
    """One thing a person did in the task's live view, as a flow step in the page's own
    words (a secret value typed is ``${name}`` of the fact it matches, or of the field:
    never the value), on the page at ``url``."""

    step: dict[str, JsonValue]
    url: str
    secret: bool = False
    words: str = Field(default="", description="the step in plain words")
    before: int | None = Field(
        default=None,
        description="the flow's top-level step (from 0) the task went on from after it: "
        "where a saved flow puts it (None: after the flow's last step)",
    )
    did: int = Field(
        default=0,
        description="how many of the flow's steps from `before` the person's steps of that "
        "take-over did in their place",
    )


class TaskReport(_Model):
    """Everything the task did. Confidential: it may hold shared fact values read back
    from the screen, but never a secret one."""

    id: str
    view: TaskView
    flow: dict[str, JsonValue] | None
    steps: list[StepReportInfo]
    records: dict[str, JsonValue]
    trace: list[TraceInfo]
    hints: list[HintInfo]
    rescues: list[RescueInfo]
    spend: SpendInfo
    budget: TaskBudget
    artifacts: list[ArtifactInfo]
    files: list[FileInfo] = Field(
        default_factory=list, description="the files the task took and kept"
    )
    log: list[LogEntry] = Field(
        default_factory=list, description="what happened to the task, in order"
    )
    person_steps: list[PersonStepInfo] = Field(
        default_factory=list,
        description="what its person did in the live view, in order, as flow steps",
    )


# ---------------------------------------------------------------- describe


class SurfaceInfo(_Model):
    """Whether a surface can be used, and why not."""

    available: bool
    reason: str | None = None


class CallSchema(_Model):
    """JSON Schemas of one call's request and reply."""

    request: dict[str, JsonValue]
    reply: dict[str, JsonValue]


class ExampleCall(_Model):
    """One call of a worked example, with the part of the reply that matters."""

    call: Call
    request: dict[str, JsonValue]
    reply: dict[str, JsonValue]


class Example(_Model):
    """A worked example: a sequence of calls and what each returns."""

    title: str
    description: str
    calls: list[ExampleCall]


class DescribeReply(_Model):
    """What this controller can do and how to call it. The brief leaves out ``guide``,
    ``flow_schema``, ``calls`` and ``examples`` (null) and each step kind's ``fields``;
    ``sections`` says which ``detail`` brings each back."""

    contract_version: str
    detail: DescribeDetail = "full"
    surfaces: dict[str, SurfaceInfo]
    planner_configured: bool
    rescue_configured: bool
    output_configured: bool
    decider_configured: bool
    call_summaries: dict[str, str] = Field(
        default_factory=dict, description="each call in one line: when to make it, what it answers"
    )
    rules: list[str] = Field(
        default_factory=list, description="what every caller must know, one rule a line"
    )
    step_kinds: list[dict[str, JsonValue]]
    limits: dict[str, int]
    sections: dict[str, str] = Field(
        default_factory=dict, description="the other details describe gives, and what each adds"
    )
    guide: str | None = None
    flow_schema: dict[str, JsonValue] | None = None
    calls: dict[str, CallSchema] | None = None
    examples: list[Example] | None = None
