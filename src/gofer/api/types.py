"""The core signatures the faces stand on: the controller they call and who is asking.

:class:`Controller` is what the HTTP API, the MCP server and the CLI need of the task
controller. :class:`gofer.tasks.Tasks` is one; a durable controller answers the same
calls, so it slots in under the faces unchanged.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any, Protocol

from gofer.tasks.models import (
    AwaitTaskRequest,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeReply,
    DescribeRequest,
    ListTasksReply,
    ListTasksRequest,
    PlanTaskReply,
    PlanTaskRequest,
    StartTaskRequest,
    TaskReport,
    TaskReportRequest,
    TaskView,
)

__all__ = ["Controller", "Owner"]

Owner = str
"""Who a request acts for: every task belongs to one owner."""


class Controller(Protocol):
    """The eight agent calls, plus following a task's views and reading an artifact."""

    async def describe(
        self, request: DescribeRequest | Mapping[str, Any] | None = None
    ) -> DescribeReply: ...

    async def plan_task(self, request: PlanTaskRequest | Mapping[str, Any]) -> PlanTaskReply: ...

    async def start_task(self, request: StartTaskRequest | Mapping[str, Any]) -> TaskView: ...

    async def await_task(self, request: AwaitTaskRequest | Mapping[str, Any]) -> TaskView: ...

    async def continue_task(
        self, request: ContinueTaskRequest | Mapping[str, Any]
    ) -> TaskView: ...

    async def cancel_task(self, request: CancelTaskRequest | Mapping[str, Any]) -> TaskView: ...

    async def task_report(self, request: TaskReportRequest | Mapping[str, Any]) -> TaskReport: ...

    async def list_tasks(
        self, request: ListTasksRequest | Mapping[str, Any] | None = None
    ) -> ListTasksReply: ...

    def watch(self, task_id: str, *, until_final: bool = False) -> AsyncIterator[TaskView]: ...

    def read_artifact(self, task_id: str, name: str) -> bytes: ...
