"""The core signatures the faces stand on: the controller they call and who is asking.

:class:`Controller` is what the HTTP API, the MCP server and the CLI need of the task
controller: the eight calls, answered for one owner at a time (:meth:`for_owner`),
plus the person's Mark done and Reopen, what the start said of a task, and the live
view a person takes a paused task's browser over with.
:class:`gofer.tasks.Tasks` is one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any, Protocol

from gofer.store.taskfiles import StoredFile
from gofer.tasks import (
    AwaitTaskRequest,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeReply,
    DescribeRequest,
    FileDesk,
    FileInfo,
    FlowLibrary,
    ListTasksReply,
    ListTasksRequest,
    LiveView,
    OwnerRelay,
    PlanTaskReply,
    PlanTaskRequest,
    StartTaskRequest,
    TaskReport,
    TaskReportRequest,
    TaskView,
)

__all__ = ["Controller", "Owner", "TaskAbout"]

Owner = str
"""Who a request acts for: every task belongs to one owner."""


class TaskAbout(Protocol):
    """What the caller and the start said of a task (the ledger's record)."""

    @property
    def id(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def created_at(self) -> float: ...

    @property
    def resolved_at(self) -> float | None: ...


class Controller(Protocol):
    """The eight agent calls for one owner, plus following a task's views, reading an
    artifact, Mark done and Reopen."""

    def for_owner(self, owner: str) -> Controller:
        """The same controller answering as ``owner``; another owner's task is no task."""
        ...

    @property
    def healthy(self) -> bool:
        """False once the controller's worker died of an error it could not survive."""
        ...

    @property
    def draining(self) -> bool:
        """True once the controller's worker stopped claiming to let the process stop."""
        ...

    @property
    def flows(self) -> FlowLibrary:
        """The owner's saved flows."""
        ...

    async def describe(
        self, request: DescribeRequest | Mapping[str, Any] | None = None
    ) -> DescribeReply: ...

    async def plan_task(self, request: PlanTaskRequest | Mapping[str, Any]) -> PlanTaskReply: ...

    async def start_task(
        self,
        request: StartTaskRequest | Mapping[str, Any],
        *,
        title: str | None = None,
    ) -> TaskView: ...

    async def await_task(self, request: AwaitTaskRequest | Mapping[str, Any]) -> TaskView: ...

    async def continue_task(self, request: ContinueTaskRequest | Mapping[str, Any]) -> TaskView: ...

    async def cancel_task(self, request: CancelTaskRequest | Mapping[str, Any]) -> TaskView: ...

    async def task_report(self, request: TaskReportRequest | Mapping[str, Any]) -> TaskReport: ...

    async def list_tasks(
        self,
        request: ListTasksRequest | Mapping[str, Any] | None = None,
        *,
        newest_first: bool = False,
    ) -> ListTasksReply: ...

    def watch(self, task_id: str, *, until_final: bool = False) -> AsyncIterator[TaskView]: ...

    def read_artifact(self, task_id: str, name: str) -> bytes: ...

    @property
    def files(self) -> FileDesk:
        """The owner's uploads, and the files their tasks hold."""
        ...

    async def read_file(self, task_id: str, name: str) -> StoredFile: ...

    async def task_files(self, task_id: str) -> list[FileInfo]: ...

    async def live_view(self, task_id: str) -> LiveView:
        """A person's live view of the paused task's browser page."""
        ...

    async def browser_here(self, task_id: str) -> bool:
        """Whether the task's browser is open to take over, here or relayed."""
        ...

    @property
    def relay(self) -> OwnerRelay:
        """Take-over from any server: where another process holds a task's browser."""
        ...

    async def mark_done(self, task_id: str) -> TaskView: ...

    async def reopen(self, task_id: str) -> TaskView: ...

    async def task_record(self, task_id: str) -> TaskAbout: ...

    async def moved_at(self, task_id: str) -> float:
        """When the task last moved, in seconds since the epoch."""
        ...
