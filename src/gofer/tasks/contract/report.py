"""What ``task_report`` answers: everything a task did, from its steps and trace to
the files it kept and what its person did in the live view."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, JsonValue

from gofer.tasks.contract.calls import HintInfo, Model, TaskBudget, TaskView

__all__ = [
    "ArtifactInfo",
    "FileInfo",
    "LogEntry",
    "PersonStepInfo",
    "RescueInfo",
    "SpendInfo",
    "StepReportInfo",
    "TaskReport",
    "TraceInfo",
    "UploadInfo",
]


class StepReportInfo(Model):
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


class TraceInfo(Model):
    """One trace entry of one run."""

    run: int
    at_ms: float
    path: str
    event: str
    detail: dict[str, JsonValue]


class RescueInfo(Model):
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


class SpendInfo(Model):
    """What the task spent over all its runs."""

    actions: int
    model_calls: int
    elapsed_ms: float
    runs: int
    rescues: int


class FileInfo(Model):
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


class UploadInfo(Model):
    """A file the caller uploaded: name its ``id`` in ``start_task``'s ``files``."""

    id: str
    filename: str
    media_type: str
    size: int
    sha256: str
    secret: bool = False
    expires_at: float = Field(description="when it is dropped unless a task took it")


class ArtifactInfo(Model):
    """A screenshot a stopped run took; read it with ``Tasks.read_artifact`` until
    ``expires_at`` (seconds since the epoch)."""

    name: str
    kind: Literal["screenshot"] = "screenshot"
    media_type: str
    size: int
    run: int
    taken_at: float
    expires_at: float


class LogEntry(Model):
    """One entry of a task's event log as the report reads it back: the caller's
    replies and decisions and each run's update as it ended, in plain words (fact
    names, never their values)."""

    at: float = Field(description="seconds since the epoch")
    kind: str = Field(
        description="start, reply, again, ended, cancelled, resolved, reopened, let_go"
    )
    text: str
    state: str | None = Field(default=None, description="for an ended run: the state it ended in")


class PersonStepInfo(Model):
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


class TaskReport(Model):
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
