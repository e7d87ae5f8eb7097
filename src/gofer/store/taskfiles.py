"""Files in the store (migration 0011): an owner's uploads waiting for a task, and each
task's files, given to it or kept by its steps.

:class:`TaskFiles` runs the named blocks of ``sql/<dialect>/files.sql`` on any
connector. An upload belongs to its owner: another owner's id is no upload at all.
Starting a task copies each upload it names into the task under the flow's name for
it, in the task's own transaction; the task's files go with the task
(``ledger_drop_files``), and an upload no task took is dropped after ``upload_ttl_s``.
A file's name and bytes are sealed at rest like fact values
(:mod:`gofer.store.sealing`): the bytes as base64 text, then sealed.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gofer.store.sealing import SecretBox, open_text, seal_text

if TYPE_CHECKING:
    from gofer.store.connector import Connector
    from gofer.store.transaction import Row, Transaction

__all__ = ["UPLOAD_TTL_S", "StoredFile", "TaskFiles"]

UPLOAD_TTL_S = 24 * 3600.0
"""How long an upload no task took is kept."""


@dataclass(frozen=True, slots=True)
class StoredFile:
    """One file as the store holds it (``data`` empty when a listing left it out)."""

    id: str
    owner: str
    task_id: str | None
    name: str | None
    origin: str  # "upload", "given" or "kept"
    filename: str = field(repr=False)
    media_type: str
    size: int
    sha256: str
    secret: bool
    data: bytes = field(repr=False)
    kept_by: str
    created_at: float


def _file(row: Row, box: SecretBox | None, with_data: bool = True) -> StoredFile:
    opened = open_text(box)
    raw = str(row["data"])
    return StoredFile(
        id=str(row["id"]),
        owner=str(row["owner"]),
        task_id=None if row["task_id"] is None else str(row["task_id"]),
        name=None if row["name"] is None else str(row["name"]),
        origin=str(row["origin"]),
        filename=opened(str(row["filename"])),
        media_type=str(row["media_type"]),
        size=int(row["size"]),
        sha256=str(row["sha256"]),
        secret=bool(row["secret"]),
        data=base64.b64decode(opened(raw)) if with_data and raw else b"",
        kept_by=str(row["kept_by"]),
        created_at=float(row["created_at"]),
    )


def new_file_id() -> str:
    """A fresh file id: unguessable, so an id says nothing of another owner's files."""
    return "file_" + secrets.token_urlsafe(18)


class TaskFiles:
    """The files on ``connector``; ``clock`` gives seconds since the epoch."""

    def __init__(
        self,
        connector: Connector,
        *,
        clock: Callable[[], float] = time.time,
        upload_ttl_s: float = UPLOAD_TTL_S,
    ) -> None:
        self.connector = connector
        self._clock = clock
        self.upload_ttl_s = upload_ttl_s

    def _params(
        self,
        *,
        owner: str,
        task_id: str | None,
        name: str | None,
        origin: str,
        filename: str,
        media_type: str,
        data: bytes,
        secret: bool,
        kept_by: str = "",
    ) -> dict[str, object]:
        box = self.connector.secrets
        return {
            "id": new_file_id(),
            "owner": owner,
            "task_id": task_id,
            "name": name,
            "origin": origin,
            "filename": seal_text(box, filename),
            "media_type": media_type,
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "secret": secret,
            "data": seal_text(box, base64.b64encode(data).decode("ascii")),
            "kept_by": kept_by,
            "created_at": self._clock(),
        }

    async def upload(
        self,
        owner: str,
        filename: str,
        media_type: str,
        data: bytes,
        *,
        secret: bool,
        most: int,
    ) -> StoredFile | None:
        """Keep an owner's upload; None (nothing written) when the owner already holds
        ``most`` uploads no task took. Expired uploads are dropped first."""
        q = self.connector.queries
        params = self._params(
            owner=owner,
            task_id=None,
            name=None,
            origin="upload",
            filename=filename,
            media_type=media_type,
            data=data,
            secret=secret,
        )
        async with self.connector.transaction() as tx:
            before = self._clock() - self.upload_ttl_s
            await tx.execute(q["files_uploads_expire"], {"before": before})
            row = await tx.fetch_one(q["files_uploads_count"], {"owner": owner})
            if row is not None and int(row["n"]) >= most:
                return None
            await tx.execute(q["files_insert"], params)
        return StoredFile(
            id=str(params["id"]),
            owner=owner,
            task_id=None,
            name=None,
            origin="upload",
            filename=filename,
            media_type=media_type,
            size=len(data),
            sha256=str(params["sha256"]),
            secret=secret,
            data=data,
            kept_by="",
            created_at=float(str(params["created_at"])),
        )

    async def uploaded(
        self, owner: str, file_id: str, *, tx: Transaction | None = None
    ) -> StoredFile | None:
        """``owner``'s upload ``file_id`` (without its bytes), or None: another owner's
        is none."""
        q = self.connector.queries
        params = {"owner": owner, "id": file_id}
        if tx is not None:
            row = await tx.fetch_one(q["files_upload"], params)
        else:
            async with self.connector.snapshot() as t:
                row = await t.fetch_one(q["files_upload"], params)
        return None if row is None else _file(row, self.connector.secrets, with_data=False)

    async def give(
        self, tx: Transaction, owner: str, task_id: str, name: str, file_id: str
    ) -> None:
        """Copy ``owner``'s upload ``file_id`` into the task under ``name``."""
        await tx.execute(
            self.connector.queries["files_give"],
            {
                "new_id": new_file_id(),
                "owner": owner,
                "id": file_id,
                "task_id": task_id,
                "name": name,
                "created_at": self._clock(),
            },
        )

    async def keep(
        self,
        owner: str,
        task_id: str,
        name: str,
        filename: str,
        media_type: str,
        data: bytes,
        *,
        kept_by: str,
    ) -> None:
        """Keep a file a task's step got under ``name`` (replacing one kept before)."""
        q = self.connector.queries
        params = self._params(
            owner=owner,
            task_id=task_id,
            name=name,
            origin="kept",
            filename=filename,
            media_type=media_type,
            data=data,
            secret=False,
            kept_by=kept_by,
        )
        async with self.connector.transaction() as tx:
            named = {"owner": owner, "task_id": task_id, "name": name}
            await tx.execute(q["files_drop_named"], named)
            await tx.execute(q["files_insert"], params)

    async def of_task(self, owner: str, task_id: str, *, data: bool = True) -> list[StoredFile]:
        """The task's files in the order it got them (``data``: with their bytes)."""
        q = self.connector.queries
        query = q["files_of_task"] if data else q["files_listed"]
        async with self.connector.snapshot() as tx:
            rows = await tx.fetch_all(query, {"owner": owner, "task_id": task_id})
        return [_file(r, self.connector.secrets, with_data=data) for r in rows]

    async def count(self, owner: str, task_id: str, *, tx: Transaction) -> int:
        """How many files the task holds."""
        q = self.connector.queries
        row = await tx.fetch_one(q["files_count"], {"owner": owner, "task_id": task_id})
        return 0 if row is None else int(row["n"])
