"""The file tools of the MCP server: upload a file for a task (its bytes as base64),
list what a task took and kept, and read a kept file back as embedded content.

An MCP request is held to the server's body limit (1 MiB unless the operator says
otherwise), so a file uploaded this way is at most about three quarters of it; a
larger one goes through ``POST /v1/files``, and its id works here the same.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Callable
from typing import Annotated, Any
from urllib.parse import quote

from mcp.server.mcpserver import Context
from mcp_types import (
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    TextContent,
    ToolAnnotations,
)
from pydantic import BaseModel, Field

from gofer.api.mcp_face import mcp_of, owner_of
from gofer.errors import InvalidRequest
from gofer.tasks import FileInfo, UploadInfo

__all__ = ["TOOLS", "FileRead", "file_uri", "list_task_files", "read_task_file", "upload_file"]

TaskId = Annotated[str, Field(description="the task's id")]


class FileRead(BaseModel):
    """What read_task_file says of the file beside its embedded bytes."""

    name: str
    filename: str
    media_type: str
    size: int
    sha256: str


def file_uri(task_id: str, name: str) -> str:
    """The address a task's file goes by in MCP content."""
    return f"gofer://tasks/{quote(task_id, safe='')}/files/{quote(name, safe='')}"


async def upload_file(
    ctx: Context[Any, Any],
    filename: Annotated[str, Field(description="the file's own name, e.g. cv.pdf")],
    content_base64: Annotated[str, Field(description="the file's bytes, base64")],
    secret: Annotated[
        bool,
        Field(description="an identity scan and the like: its name is never shown"),
    ] = False,
) -> UploadInfo:
    """Keep a file for a task: name the returned id in start_task's `files`
    ({"cv": "<id>"}) and the flow puts it into a form with
    {"upload": "${cv}", "into": "Upload your CV"}. Only you can give it to a task."""
    try:
        data = base64.b64decode(content_base64, validate=True)
    except (binascii.Error, ValueError):
        raise InvalidRequest("content_base64 is not base64", at="content_base64") from None
    owner = await owner_of(ctx)
    return await mcp_of(ctx).service.files(owner).upload(filename, data, secret=secret)


async def list_task_files(ctx: Context[Any, Any], id: TaskId) -> list[FileInfo]:
    """The files your task took and kept (a download, a page saved as a PDF): name,
    type, size and SHA-256; read one with read_task_file."""
    owner = await owner_of(ctx)
    return await mcp_of(ctx).service.task_files(owner, id)


async def read_task_file(
    ctx: Context[Any, Any],
    id: TaskId,
    name: Annotated[str, Field(description="the name the flow kept it under (its `as`)")],
) -> Annotated[CallToolResult, FileRead]:
    """A file your task kept, as embedded content (its bytes, base64), by the name
    its flow used."""
    owner = await owner_of(ctx)
    stored = await mcp_of(ctx).service.read_file(owner, id, name)
    blob = BlobResourceContents(
        uri=file_uri(id, name),
        mime_type=stored.media_type,
        blob=base64.b64encode(stored.data).decode("ascii"),
    )
    said = f"{stored.filename} ({stored.media_type}, {stored.size} bytes)"
    return CallToolResult(
        content=[
            TextContent(type="text", text=said),
            EmbeddedResource(type="resource", resource=blob),
        ],
        structured_content=FileRead(
            name=name,
            filename=stored.filename,
            media_type=stored.media_type,
            size=stored.size,
            sha256=stored.sha256,
        ).model_dump(),
    )


TOOLS: tuple[tuple[Callable[..., Any], ToolAnnotations | None], ...] = (
    (upload_file, None),
    (list_task_files, ToolAnnotations(read_only_hint=True)),
    (read_task_file, ToolAnnotations(read_only_hint=True)),
)
"""The file tools, each with what it promises a client."""
