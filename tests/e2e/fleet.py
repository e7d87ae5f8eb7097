"""A second local Chromium standing in for a remote browser fleet: Debian's Chromium,
headless, with a DevTools port and a profile of its own, that a test can kill and
start again on the same port."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import tempfile
from typing import Any

import httpx

from gofer.surfaces import CHROMIUM_ARGS, NO_SANDBOX, find_chromium

_LISTENING = re.compile(r"DevTools listening on ws://[^:]+:(\d+)/")


class Fleet:
    """``await start()`` launches it (port 0: a free one, read from what it prints);
    ``endpoint`` is its DevTools address; ``kill()`` ends it with SIGKILL."""

    def __init__(self) -> None:
        self.port = 0
        self.proc: asyncio.subprocess.Process | None = None
        self._profile: str | None = None
        self._drain: asyncio.Task[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        """Launch on ``self.port`` (a free one the first time), with a fresh profile."""
        self._profile = tempfile.mkdtemp(prefix="gofer-fleet-")
        proc = await asyncio.create_subprocess_exec(
            find_chromium(),
            *CHROMIUM_ARGS,
            *([NO_SANDBOX] if os.geteuid() == 0 else []),  # the test's own browser, as root
            "--headless=new",
            f"--remote-debugging-port={self.port}",
            f"--user-data-dir={self._profile}",
            "about:blank",
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,
        )
        self.proc = proc
        assert proc.stderr is not None
        async with asyncio.timeout(30):
            while True:
                line = (await proc.stderr.readline()).decode()
                assert line, "the fleet's Chromium exited before it listened for DevTools"
                found = _LISTENING.search(line)
                if found:
                    self.port = int(found.group(1))
                    break
        self._drain = asyncio.ensure_future(proc.stderr.read())

    async def targets(self) -> list[dict[str, Any]]:
        """The pages the fleet's Chromium hosts now (its /json/list)."""
        async with httpx.AsyncClient(timeout=10) as http:
            answer = await http.get(f"{self.endpoint}/json/list")
        return [t for t in answer.json() if t.get("type") == "page"]

    async def kill(self) -> None:
        """SIGKILL to the browser and every process it started."""
        proc = self.proc
        if proc is not None and proc.returncode is None:
            os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
        if self._drain is not None:
            await self._drain
            self._drain = None
        if self._profile is not None:
            shutil.rmtree(self._profile, ignore_errors=True)
            self._profile = None
