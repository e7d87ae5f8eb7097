"""An owner's files: uploads for tasks to come, and the files each task took and kept.

:class:`FileDesk` answers for one owner: another owner's upload or task is none at all
(``UNKNOWN_FILE``, ``UNKNOWN_TASK``). An upload is refused past the operator's
:class:`~gofer.runtime.types.FileLimits` (``FILE_TOO_LARGE``, ``TOO_MANY_FILES``);
``start_task`` gives a task a copy of each upload its ``files`` name, and the task's
file becomes a fact of the same name whose value is the file's own name (secret when
the file is: then that name is masked wherever a page, a log or a view shows it).
"""

from __future__ import annotations

import mimetypes
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from gofer.errors import InvalidRequest
from gofer.runtime.types import FileLimits, TaskFile
from gofer.store import Transaction
from gofer.store.taskfiles import StoredFile, TaskFiles
from gofer.tasks import errors
from gofer.tasks.contract import FileInfo, StartTaskRequest, UploadInfo

__all__ = ["FileDesk", "file_info", "files_of", "keep_files", "safe_filename"]

MAX_FILENAME_CHARS = 200


def safe_filename(name: str) -> str:
    """A file's own name without any folder a caller or a page put before it."""
    base = PurePosixPath(name.replace("\\", "/")).name.strip().lstrip(".")
    return base[:MAX_FILENAME_CHARS] or "file"


def file_info(stored: StoredFile) -> FileInfo:
    """What a view or a report shows of a file: a secret one's name and digest never."""
    return FileInfo(
        name=stored.name or "",
        origin="kept" if stored.origin == "kept" else "given",
        filename="(secret)" if stored.secret else stored.filename,
        media_type=stored.media_type,
        size=stored.size,
        sha256="" if stored.secret else stored.sha256,
        secret=stored.secret,
        step=stored.kept_by,
    )


async def files_of(files: TaskFiles, owner: str, task_id: str) -> dict[str, TaskFile]:
    """The task's files with their bytes, by the names its flow uses, for a run."""
    return {
        stored.name: TaskFile(
            stored.name,
            stored.filename,
            stored.media_type,
            stored.data,
            secret=stored.secret,
            kept_by=stored.kept_by,
        )
        for stored in await files.of_task(owner, task_id)
        if stored.name is not None
    }


async def keep_files(files: TaskFiles, owner: str, task_id: str, kept: list[TaskFile]) -> None:
    """Write the files a turn's runs kept into the store, and forget them."""
    for file in kept:
        await files.keep(
            owner,
            task_id,
            file.name,
            file.filename,
            file.media_type,
            file.data,
            kept_by=file.kept_by,
        )
    kept.clear()


@dataclass(frozen=True, slots=True)
class FileDesk:
    """``owner``'s files in ``files`` under ``limits``."""

    files: TaskFiles
    owner: str
    limits: FileLimits

    async def upload(
        self,
        filename: str,
        data: bytes,
        *,
        media_type: str | None = None,
        secret: bool = False,
    ) -> UploadInfo:
        """Keep an upload for a task to come; its id is what ``start_task`` names."""
        if len(data) > self.limits.bytes:
            raise errors.file_too_large(len(data), self.limits.bytes)
        name = safe_filename(filename)
        kind = media_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
        stored = await self.files.upload(
            self.owner, name, kind, data, secret=secret, most=self.limits.count
        )
        if stored is None:
            raise errors.too_many_files(self.limits.count, "your uploads waiting for a task")
        return UploadInfo(
            id=stored.id,
            filename=stored.filename,
            media_type=stored.media_type,
            size=stored.size,
            sha256="" if secret else stored.sha256,
            secret=secret,
            expires_at=stored.created_at + self.files.upload_ttl_s,
        )

    async def upload_path(self, path: str | Path, *, secret: bool = False) -> UploadInfo:
        """Upload the caller's own file at ``path`` (read here, on the caller's side:
        a task never reads a path)."""
        source = Path(path)
        size = source.stat().st_size
        if size > self.limits.bytes:
            raise errors.file_too_large(size, self.limits.bytes)
        return await self.upload(source.name, source.read_bytes(), secret=secret)

    async def as_facts(
        self, files: Mapping[str, str], facts: Mapping[str, str]
    ) -> tuple[dict[str, str], list[str]]:
        """A fact for each file ``files`` names (its own name as the value) and the names
        among them that are secret; UNKNOWN_FILE for an id that is not the caller's
        upload, INVALID_REQUEST for a name ``facts`` already holds."""
        if len(files) > self.limits.count:
            raise errors.too_many_files(self.limits.count, "a task")
        clash = sorted(set(files) & set(facts))
        if clash:
            raise InvalidRequest(
                f"{clash[0]!r} names both a fact and a file; give each its own name",
                at=f"files.{clash[0]}",
            )
        named: dict[str, str] = {}
        secret: list[str] = []
        for name, file_id in files.items():
            stored = await self.files.uploaded(self.owner, file_id)
            if stored is None:
                raise errors.unknown_file(file_id)
            named[name] = stored.filename
            if stored.secret:
                secret.append(name)
        return named, secret

    async def take(self, req: StartTaskRequest) -> StartTaskRequest:
        """``req`` with a fact for each file it names (:meth:`as_facts`)."""
        if not req.files:
            return req
        named, secret = await self.as_facts(req.files, req.facts)
        kept = [n for n in req.secret_facts if n not in secret]
        return req.model_copy(
            update={"facts": {**req.facts, **named}, "secret_facts": [*kept, *secret]}
        )

    async def give(self, tx: Transaction, task_id: str, files: Mapping[str, str]) -> None:
        """Copy the uploads ``files`` names into the task, in its start's transaction."""
        for name, file_id in files.items():
            await self.files.give(tx, self.owner, task_id, name, file_id)

    async def of_task(self, task_id: str) -> list[FileInfo]:
        """The task's files, without their bytes (the caller checked the task is theirs)."""
        return [file_info(f) for f in await self.files.of_task(self.owner, task_id, data=False)]

    async def read(self, task_id: str, name: str) -> StoredFile:
        """A file the task holds under ``name``, with its bytes; a secret file given to
        it is never handed out (UNKNOWN_FILE, as for no file)."""
        for stored in await self.files.of_task(self.owner, task_id):
            if stored.name == name and not stored.secret:
                return stored
        raise errors.unknown_file(name, task_id=task_id)
