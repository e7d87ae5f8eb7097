"""``gofer`` as a subprocess for the e2e tests: :func:`gofer` runs one command to its
end; :func:`start_serve` starts ``gofer serve`` on a free port, reads its address from
the line it prints and keeps its stderr line by line."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass


async def gofer(
    *args: str, env: Mapping[str, str] | None = None, timeout_s: float = 120
) -> tuple[int, str, str]:
    """Run ``gofer ARGS`` with no terminal (``env`` over this environment); its exit
    code, standard output and error. One that outlives ``timeout_s`` is killed."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gofer.cli",
        *args,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    try:
        async with asyncio.timeout(timeout_s):
            out, err = await proc.communicate()
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


@dataclass
class Started:
    """A running ``gofer serve``: the process, its address, every stderr line so far
    (kept filling by ``draining`` until the process ends)."""

    proc: asyncio.subprocess.Process
    url: str
    logs: list[str]
    draining: asyncio.Task[None]


async def start_serve(env: dict[str, str], *args: str, own_session: bool = False) -> Started:
    """Start ``gofer serve --port 0 ARGS`` with ``env`` and wait (60 s at most) for the
    address it serves on; ``own_session`` puts it and its browser in a process group
    of their own. A server that never says where it listens is killed."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gofer.cli",
        "serve",
        "--port",
        "0",
        *args,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=own_session,
    )
    stderr = proc.stderr
    assert stderr is not None
    logs: list[str] = []
    url = ""
    try:
        async with asyncio.timeout(60):
            while not url:
                line = (await stderr.readline()).decode()
                assert line, f"gofer serve stopped: {logs}"
                logs.append(line)
                if line.startswith("gofer serving on "):
                    url = line.split()[3]
    except BaseException:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        raise

    async def drain() -> None:
        async for raw in stderr:
            logs.append(raw.decode())

    return Started(proc, url, logs, asyncio.create_task(drain()))
