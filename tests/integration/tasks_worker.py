"""A worker process for the kill tests: ``python tasks_worker.py DB MODE LEASE_MS``.

It runs the turns in the store at DB (a SQLite path or a postgresql:// URL) with a
scripted runner: MODE ``hang`` starts every run and never ends it, ``complete`` ends
every run at once. It prints ``started`` (flushed) as each run begins, and stops on
SIGTERM.
"""

from __future__ import annotations

import asyncio
import signal
import sys

from gofer.runtime.types import RunRequest, RunResult
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import complete
from gofer.tasks.worker import TurnLimits
from gofer.wiring import store_for


async def main(db: str, mode: str, lease_ms: int) -> None:
    async def run(request: RunRequest) -> RunResult:
        sys.stdout.write("started\n")
        sys.stdout.flush()
        if mode == "hang":
            await asyncio.Event().wait()
        return complete()(request)

    runner = ScriptedRunner.of(*(run for _ in range(100)))
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with (
        store_for(db) as store,
        Tasks(runner, store=store, limits=TurnLimits(lease_ms=lease_ms)) as tasks,
    ):
        await tasks.serve(stop)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
