"""Files over HTTP: ``POST /v1/files`` keeps an upload for a task to come (multipart,
one ``file`` and an optional ``secret``), ``start_task`` names its id in ``files``;
``GET /v1/tasks/{id}/files`` lists what a task took and kept, and
``GET /v1/tasks/{id}/files/{name}`` hands the owner a kept file's bytes.

A file goes out as an attachment that the browser may not sniff or run: what a site
gave a task is never shown as a page on this server's origin.
"""

from __future__ import annotations

from typing import Annotated, Literal
from urllib.parse import quote

from fastapi import APIRouter, File, Form, UploadFile
from fastapi.responses import Response

from gofer.api.routing import ERRORS, Owner, Service
from gofer.tasks import FileInfo, UploadInfo

__all__ = ["FILES_PATH", "attachment", "router"]

FILES_PATH = "/v1/files"
"""Where uploads go (its body limit is the operator's file size, not the calls')."""


def attachment(filename: str) -> str:
    """A Content-Disposition that saves ``filename`` and runs nothing."""
    plain = "".join(
        c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in filename
    )
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename)}"


router = APIRouter(tags=["files"], responses=ERRORS)


@router.post(FILES_PATH, response_model=UploadInfo, status_code=201)
async def upload(
    who: Owner,
    service: Service,
    file: Annotated[UploadFile, File(description="the file's bytes and name")],
    secret: Annotated[
        Literal["true", "false"],
        Form(description="true for an identity scan and the like: never shown"),
    ] = "false",
) -> UploadInfo:
    """Keep a file for a task: name the returned `id` in start_task's `files`
    (`{"cv": "<id>"}`) and the flow uploads it as `${cv}`. Only you can give it to a
    task; a secret file's name and digest are never shown. Past the operator's size
    FILE_TOO_LARGE, past their count TOO_MANY_FILES."""
    data = await file.read()
    desk = service.files(who)
    return await desk.upload(
        file.filename or "file", data, media_type=file.content_type, secret=secret == "true"
    )


@router.get("/v1/tasks/{task_id}/files", response_model=list[FileInfo])
async def task_files(who: Owner, service: Service, task_id: str) -> list[FileInfo]:
    """The files your task took and kept: names, types, sizes and digests."""
    return await service.task_files(who, task_id)


@router.get(
    "/v1/tasks/{task_id}/files/{name}",
    response_class=Response,
    responses={200: {"content": {"application/octet-stream": {}}, "description": "the bytes"}},
)
async def read_file(who: Owner, service: Service, task_id: str, name: str) -> Response:
    """A file your task kept (a download, a page saved as a PDF) or was given (not a
    secret one), by the name its flow used; UNKNOWN_FILE when it holds none."""
    stored = await service.read_file(who, task_id, name)
    return Response(
        stored.data,
        media_type=stored.media_type,
        headers={
            "Content-Disposition": attachment(stored.filename),
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "sandbox; default-src 'none'",
        },
    )
