"""``GoferClient``: the eight agent calls against a gofer server over HTTP (httpx).

It answers with the same pydantic models as :class:`gofer.tasks.Tasks` and raises a
:class:`~gofer.errors.GoferError` carrying the server's stable code, so a program can
move between the embedded controller and a server without changing its calls.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from gofer.api.agent import AgentView
from gofer.api.views import TaskEntry
from gofer.errors import ApiError, GoferError
from gofer.tasks import (
    MAX_AWAIT_MS,
    DescribeReply,
    ListTasksReply,
    PlanTaskReply,
    TaskReport,
    TaskView,
    UploadInfo,
)

__all__ = ["GoferClient"]

M = TypeVar("M", bound=BaseModel)


def _error_of(response: httpx.Response) -> GoferError:
    try:
        data = response.json()
        error = dict(data["error"])
        code, message = str(error.pop("code")), str(error.pop("message"))
    except (ValueError, KeyError, TypeError):
        return ApiError(
            f"the server answered {response.status_code} without an error body",
            code="SERVER_ERROR",
            status=response.status_code,
        )
    return GoferError(message, code=code, **error)


def _task_view(view: AgentView) -> TaskView:
    """The task's own view in an agent call's answer (which adds guidance and a page)."""
    return TaskView.model_validate(view.model_dump(include=set(TaskView.model_fields)))


class GoferClient:
    """A gofer server at ``base_url``, called with ``token`` (``async with`` closes it)."""

    def __init__(
        self, base_url: str, token: str | None, *, http: httpx.AsyncClient | None = None
    ) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._own_http = http is None
        self._http = http or httpx.AsyncClient(
            base_url=base_url.rstrip("/"),
            headers=headers,
            timeout=httpx.Timeout(10.0, read=MAX_AWAIT_MS / 1000 + 15),
        )
        if http is not None:
            self._http.headers.update(headers)

    async def __aenter__(self) -> GoferClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the HTTP client if this object made it."""
        if self._own_http:
            await self._http.aclose()

    async def _post(
        self,
        path: str,
        body: Mapping[str, Any] | BaseModel | None,
        model: type[M],
        headers: Mapping[str, str] | None = None,
    ) -> M:
        payload = (
            body.model_dump(mode="json", by_alias=True, exclude_unset=True)
            if isinstance(body, BaseModel)
            else dict(body or {})
        )
        try:
            response = await self._http.post(path, json=payload, headers=dict(headers or {}))
        except httpx.HTTPError as exc:
            raise ApiError(
                f"cannot reach the gofer server: {type(exc).__name__}", code="SERVER_UNREACHABLE"
            ) from exc
        if response.status_code >= 400:
            raise _error_of(response)
        return model.model_validate(response.json())

    async def upload_file(self, path: Path, *, secret: bool = False) -> UploadInfo:
        """Upload the file at ``path`` (read here) for a task to come."""
        try:
            response = await self._http.post(
                "/v1/files",
                data={"secret": "true" if secret else "false"},
                files={"file": (path.name, path.read_bytes())},
            )
        except httpx.HTTPError as exc:
            raise ApiError(
                f"cannot reach the gofer server: {type(exc).__name__}", code="SERVER_UNREACHABLE"
            ) from exc
        if response.status_code >= 400:
            raise _error_of(response)
        return UploadInfo.model_validate(response.json())

    async def read_file(self, task_id: str, name: str) -> bytes:
        """The bytes of a file the task holds under ``name``."""
        try:
            response = await self._http.get(f"/v1/tasks/{quote(task_id)}/files/{quote(name)}")
        except httpx.HTTPError as exc:
            raise ApiError(
                f"cannot reach the gofer server: {type(exc).__name__}", code="SERVER_UNREACHABLE"
            ) from exc
        if response.status_code >= 400:
            raise _error_of(response)
        return response.content

    async def describe(self, detail: str = "brief") -> DescribeReply:
        """What the server can do: the brief, or as much as ``detail`` asks."""
        return await self._post("/v1/calls/describe", {"detail": detail}, DescribeReply)

    async def plan_task(self, request: Mapping[str, Any] | BaseModel) -> PlanTaskReply:
        """Draft a flow without running it."""
        return await self._post("/v1/calls/plan_task", request, PlanTaskReply)

    async def start_task(
        self, request: Mapping[str, Any] | BaseModel, *, idempotency_key: str | None = None
    ) -> TaskView:
        """Start a task; a retried call with the same key opens no second one."""
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        return _task_view(await self._post("/v1/calls/start_task", request, AgentView, headers))

    async def create(
        self, body: Mapping[str, Any] | BaseModel, *, idempotency_key: str | None = None
    ) -> TaskEntry:
        """Open and start a task as a person does (``instruction`` or ``flow``, ``title``)."""
        headers = {"Idempotency-Key": idempotency_key} if idempotency_key else None
        return await self._post("/v1/tasks", body, TaskEntry, headers)

    async def await_task(self, request: Mapping[str, Any] | BaseModel) -> TaskView:
        """Long-poll until the task stops running or the timeout passes."""
        return _task_view(await self._post("/v1/calls/await_task", request, AgentView))

    async def continue_task(self, request: Mapping[str, Any] | BaseModel) -> TaskView:
        """Answer a paused task."""
        return _task_view(await self._post("/v1/calls/continue_task", request, AgentView))

    async def cancel_task(self, request: Mapping[str, Any] | BaseModel) -> TaskView:
        """Cancel a task."""
        return _task_view(await self._post("/v1/calls/cancel_task", request, AgentView))

    async def task_report(self, request: Mapping[str, Any] | BaseModel) -> TaskReport:
        """The task's full report."""
        return await self._post("/v1/calls/task_report", request, TaskReport)

    async def list_tasks(
        self, request: Mapping[str, Any] | BaseModel | None = None
    ) -> ListTasksReply:
        """A page of the owner's tasks (``limit``, ``cursor``; the first page without)."""
        return await self._post("/v1/calls/list_tasks", request or {}, ListTasksReply)

    async def watch(self, task_id: str) -> AsyncIterator[TaskView]:
        """The task's views as the server streams them (SSE), until it can change no
        more."""
        try:
            async with self._http.stream(
                "GET", f"/v1/tasks/{task_id}/events", timeout=httpx.Timeout(10.0, read=None)
            ) as response:
                if response.status_code >= 400:
                    await response.aread()
                    raise _error_of(response)
                data: list[str] = []
                async for line in response.aiter_lines():
                    if line.startswith("data:"):
                        data.append(line[5:].strip())
                    elif not line and data:
                        yield TaskView.model_validate(json.loads("\n".join(data)))
                        data = []
        except httpx.HTTPError as exc:
            raise ApiError(
                f"the view stream broke: {type(exc).__name__}", code="SERVER_UNREACHABLE"
            ) from exc
