"""What a run reads and keeps: a ``read`` step's value from the screen or from a file
the run holds, and the files its steps keep (:class:`Reads`, a part of ``Run``)."""

from __future__ import annotations

import time

from gofer.decide import read_list, read_value
from gofer.flow import JSONValue, Read
from gofer.runtime.context import RuntimeSettings
from gofer.runtime.filed import UnreadableFile, file_screen
from gofer.runtime.signals import StepFailed, StepFinished
from gofer.runtime.types import FileLimits, TaskFile
from gofer.surfaces.screen import Screen

__all__ = ["Reads"]


class Reads:
    """The reading part of a run (the state is the run's own)."""

    settings: RuntimeSettings
    variables: dict[str, JSONValue]
    files: dict[str, TaskFile]
    kept: list[TaskFile]
    file_limits: FileLimits

    def sub(self, text: str) -> str:  # the run's own
        raise NotImplementedError

    def mask(self, text: str) -> str:  # the run's own
        raise NotImplementedError

    def event(self, path: str, event: str, **detail: JSONValue) -> None:  # the run's own
        raise NotImplementedError

    async def screen(self) -> Screen:  # the run's own
        raise NotImplementedError

    async def wait_change(self, deadline: float) -> bool:  # the run's own
        raise NotImplementedError

    def _masked(self, value: JSONValue) -> JSONValue:
        """``value`` read from the screen, with every string in it masked."""
        if isinstance(value, str):
            return self.mask(value)
        if isinstance(value, list):
            return [self._masked(v) for v in value]
        if isinstance(value, dict):
            return {self.mask(k): self._masked(v) for k, v in value.items()}
        return value

    def keep(self, path: str, name: str, filename: str, media_type: str, data: bytes) -> TaskFile:
        """Keep a file a step got, under ``name`` (see ``StepContext.keep``)."""
        if name not in self.files and len(self.files) >= self.file_limits.count:
            raise StepFailed(
                f"the task already holds {self.file_limits.count} files, as many as it may"
            )
        file = TaskFile(name, filename, media_type, data, kept_by=path)
        self.files[name] = file
        self.kept = [f for f in self.kept if f.name != name] + [file]
        self.variables[name] = self._masked(file.record())
        self.event(path, "kept", name=name, size=file.size)
        return file

    async def read(self, path: str, step: Read) -> StepFinished:
        """A ``read`` step: the value or list its words name into its variable, masked,
        waiting for it to appear up to the target timeout."""
        what = self.sub(step.what)
        if step.from_:
            return self._read_file(path, step, what)
        deadline = time.perf_counter() + self.settings.target_timeout_ms / 1000
        while True:
            screen = await self.screen()
            value: JSONValue | None
            value = read_list(what, screen) if step.list else read_value(what, screen)
            if value:
                self.variables[step.as_] = self._masked(value)
                self.event(path, "read", name=step.as_)
                return StepFinished()
            if not await self.wait_change(deadline):
                raise StepFailed(f"found nothing on the screen to read for '{what}'")

    def _read_file(self, path: str, step: Read, what: str) -> StepFinished:
        """A ``read`` from a file the run holds, read as a screen (``runtime.filed``)."""
        file = self.files.get(step.from_ or "")
        if file is None:
            raise StepFailed(f"the task holds no file named '{step.from_}' to read from")
        if file.secret:
            raise StepFailed(f"'{step.from_}' is a secret file: it is only ever uploaded")
        try:
            screen = file_screen(file)
        except UnreadableFile as exc:
            raise StepFailed(str(exc)) from exc
        value = read_list(what, screen) if step.list else read_value(what, screen)
        if not value:
            raise StepFailed(f"found nothing in the file '{step.from_}' to read for '{what}'")
        self.variables[step.as_] = self._masked(value)
        self.event(path, "read", name=step.as_, source=step.from_ or "")
        return StepFinished()
