"""A worker process for the kill and drain tests (started and read by worker_process.py):
``python tasks_worker.py DB MODE LEASE_MS [WAKE_S [DRAIN_S]]``.

It runs the turns in the store at DB (a SQLite path or a postgresql:// URL) with a
scripted runner: MODE ``hang`` starts every run and never ends it, ``complete`` ends
every run at once, ``slow:S`` ends every run after S seconds. It prints ``started``
(flushed) as each run begins (and ``ended`` as a slow run ends), and stops on
SIGTERM. WAKE_S is its safety-net wake-up (``-`` or absent: the worker's own). With
DRAIN_S it stops as ``gofer worker --drain-seconds DRAIN_S`` does: the first SIGTERM
stops claiming and prints ``draining``, the running turns get DRAIN_S seconds to end,
a second SIGTERM cuts them at once. SIGUSR1 prints its event loop's tasks with their
stacks to stderr, SIGUSR2 every thread's stack (what a test shows when it gave up on
the process).
"""

from __future__ import annotations

import asyncio
import faulthandler
import signal
import sys

from gofer.runtime.types import RunRequest, RunResult
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import complete
from gofer.tasks.worker import TurnLimits
from gofer.wiring import store_for


def _print_tasks() -> None:
    for task in asyncio.all_tasks():
        print(f"--- {task.get_name()}", file=sys.stderr)
        task.print_stack(limit=15, file=sys.stderr)
    sys.stderr.flush()


def say(line: str) -> None:
    sys.stdout.write(f"{line}\n")
    sys.stdout.flush()


async def main(
    db: str, mode: str, lease_ms: int, wake_s: float | None, drain_s: float | None
) -> None:
    async def run(request: RunRequest) -> RunResult:
        say("started")
        if mode == "hang":
            await asyncio.Event().wait()
        if mode.startswith("slow:"):
            await asyncio.sleep(float(mode.removeprefix("slow:")))
            say("ended")
        return complete()(request)

    runner = ScriptedRunner.of(*(run for _ in range(100)))
    limits = TurnLimits(lease_ms=lease_ms)
    if wake_s is not None:
        limits = TurnLimits(lease_ms=lease_ms, wake_s=wake_s)
    stop, cut = asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, lambda: (cut if stop.is_set() else stop).set())
    loop.add_signal_handler(signal.SIGUSR1, _print_tasks)
    faulthandler.register(signal.SIGUSR2, all_threads=True)
    async with (
        store_for(db) as store,
        Tasks(runner, store=store, limits=limits) as tasks,
    ):
        await tasks.serve(stop)
        if drain_s is not None:
            say("draining")
            await tasks.drain(drain_s, cut)


if __name__ == "__main__":
    wake = float(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[4] != "-" else None
    drain = float(sys.argv[5]) if len(sys.argv) > 5 else None
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), wake, drain))
