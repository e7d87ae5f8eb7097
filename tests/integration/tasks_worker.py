"""A worker process for the kill and drain tests:
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
import time
from dataclasses import dataclass, field
from typing import NoReturn

import pytest

from gofer.runtime.types import RunRequest, RunResult
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import complete
from gofer.tasks.worker import TurnLimits
from gofer.wiring import store_for


@dataclass
class Worker:
    """A worker process of this script, read under a time bound: a wait that runs out
    fails with where the process stood (its event loop's tasks, its threads' stacks, all
    it wrote to stderr) instead of hanging the suite."""

    proc: asyncio.subprocess.Process
    bound_s: float = 60.0
    heard: list[bytes] = field(default_factory=list)

    async def line(self) -> bytes:
        """The next line it prints."""
        assert self.proc.stdout is not None
        try:
            async with asyncio.timeout(self.bound_s):
                line = await self.proc.stdout.readline()
        except TimeoutError:
            await self._give_up(f"printed nothing in {self.bound_s:.0f} s")
        self.heard.append(line)
        return line

    async def said(self, expected: bytes) -> None:
        line = await self.line()
        if line != expected:
            await self._give_up(f"printed {line!r}, not {expected!r}")

    async def ended(self) -> tuple[bytes, int, float]:
        """What it printed until it exited, its exit code and how long that took."""
        began = time.monotonic()
        try:
            async with asyncio.timeout(self.bound_s):
                out, _ = await self.proc.communicate()
        except TimeoutError:
            await self._give_up(f"did not exit within {self.bound_s:.0f} s")
        assert self.proc.returncode is not None
        return out, self.proc.returncode, time.monotonic() - began

    async def stopped(self) -> bytes:
        """SIGTERM, then what it printed until it exited 0."""
        self.proc.send_signal(signal.SIGTERM)
        out, code, _ = await self.ended()
        if code != 0:
            await self._give_up(f"exited {code} on SIGTERM")
        return out

    def send_signal(self, sig: int) -> None:
        self.proc.send_signal(sig)

    async def killed(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        async with asyncio.timeout(self.bound_s):
            assert await self.proc.wait() == -signal.SIGKILL

    async def close(self) -> None:
        """Ends the process if it still runs (a test's cleanup)."""
        if self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()

    async def _give_up(self, why: str) -> NoReturn:
        alive = self.proc.returncode is None
        if alive:
            for sig in (signal.SIGUSR1, signal.SIGUSR2):
                self.proc.send_signal(sig)
                await asyncio.sleep(0.5)  # a signal handler has no reply to wait for
            self.proc.kill()
        await self.proc.wait()
        assert self.proc.stderr is not None
        err = (await self.proc.stderr.read()).decode(errors="replace")
        state = "was still running" if alive else f"had exited {self.proc.returncode}"
        pytest.fail(
            f"the worker {why}; it {state}, having printed {self.heard!r}; its stderr:\n{err}",
            pytrace=False,
        )


async def spawn(
    db: str,
    mode: str,
    lease_ms: int,
    wake_s: float | None = None,
    drain_s: float | None = None,
) -> Worker:
    """This script as a process of its own, its output piped (for the tests)."""
    extra = ["-" if wake_s is None else str(wake_s)]
    if drain_s is not None:
        extra.append(str(drain_s))
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        db,
        mode,
        str(lease_ms),
        *extra,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.DEVNULL,
    )
    return Worker(proc)


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
