"""A worker process for the kill tests: ``python tasks_worker.py DB MODE LEASE_MS [WAKE_S]``.

It runs the turns in the store at DB (a SQLite path or a postgresql:// URL) with a
scripted runner: MODE ``hang`` starts every run and never ends it, ``complete`` ends
every run at once. It prints ``started`` (flushed) as each run begins, and stops on
SIGTERM. WAKE_S is its safety-net wake-up (default the worker's own).
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


async def main(db: str, mode: str, lease_ms: int, wake_s: float | None) -> None:
    async def run(request: RunRequest) -> RunResult:
        sys.stdout.write("started\n")
        sys.stdout.flush()
        if mode == "hang":
            await asyncio.Event().wait()
        return complete()(request)

    runner = ScriptedRunner.of(*(run for _ in range(100)))
    limits = TurnLimits(lease_ms=lease_ms)
    if wake_s is not None:
        limits = TurnLimits(lease_ms=lease_ms, wake_s=wake_s)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with (
        store_for(db) as store,
        Tasks(runner, store=store, limits=limits) as tasks,
    ):
        await tasks.serve(stop)


if __name__ == "__main__":
    wake = float(sys.argv[4]) if len(sys.argv) > 4 else None
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), wake))
