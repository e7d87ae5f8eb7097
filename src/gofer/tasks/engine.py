"""The owner-agnostic part of a controller (:class:`Engine`), shared by every owner's
view of it (:meth:`gofer.tasks.Tasks.for_owner`): the runner and model passes, the
store and its book, this process's worker, and whether it is closed."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from gofer.store import Connector
from gofer.store.flows import FlowLimits
from gofer.tasks.book import TaskBook
from gofer.tasks.contract import TaskView
from gofer.tasks.describe import RunnerPasses
from gofer.tasks.files import FileDesk
from gofer.tasks.notify import Notifier
from gofer.tasks.relay import Relay
from gofer.tasks.seams import FlowRunner, Planner, Rescuer, Shaper
from gofer.tasks.worker import TaskWorker

__all__ = ["Engine"]


@dataclass(eq=False)
class Engine:
    """What every owner's controller shares; ``cancels`` holds the cancels under way,
    by task."""

    runner: FlowRunner
    planner: Planner | None
    rescuer: Rescuer | None
    shaper: Shaper | None
    runner_passes: RunnerPasses
    clock: Callable[[], float]
    max_tasks: int
    max_open: int
    owned: bool
    db: Connector
    book: TaskBook
    worker: TaskWorker
    work: bool
    source: str
    notifier: Notifier
    notify_private: bool
    relay: Relay
    flow_limits: FlowLimits | None
    closed: bool = False
    cancels: dict[str, asyncio.Task[TaskView]] = field(default_factory=dict)

    def files(self, owner: str) -> FileDesk:
        """``owner``'s files: upload one for a task, list and read what tasks hold."""
        return FileDesk(self.book.files, owner, self.book.file_limits)
