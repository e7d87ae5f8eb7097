"""The test side of ``tasks_worker.py``: :func:`spawn` starts that script as a process of
its own and :class:`Worker` reads it under a time bound (the script itself never imports
pytest)."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

import pytest

SCRIPT = Path(__file__).with_name("tasks_worker.py")


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
        str(SCRIPT),
        db,
        mode,
        str(lease_ms),
        *extra,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.DEVNULL,
    )
    return Worker(proc)
