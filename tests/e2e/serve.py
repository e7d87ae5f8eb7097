"""``gofer`` as a subprocess for the e2e tests: :func:`gofer` runs one command to its
end; :func:`start_serve` starts ``gofer serve`` on a free port, reads its address from
the line it prints and keeps its stderr line by line; :func:`start_worker` starts a
``gofer worker``; :func:`deployment` a server and workers on one store, each killed at
the end with what it started."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field


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


@dataclass
class Worker:
    """A running ``gofer worker``: its process, its id and every stderr line so far."""

    proc: asyncio.subprocess.Process
    worker_id: str
    logs: list[str] = field(default_factory=list)
    draining: asyncio.Task[None] | None = None


async def start_worker(env: dict[str, str], *args: str) -> Worker:
    """``gofer worker --allow-private ARGS`` in a session of its own (its browser with
    it), once it says which worker it is."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gofer.cli",
        "worker",
        "--allow-private",
        *args,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    stderr = proc.stderr
    assert stderr is not None
    async with asyncio.timeout(60):
        line = (await stderr.readline()).decode()
    assert line.startswith("gofer worker "), line
    worker = Worker(proc, line.split()[2], [line])

    async def drain() -> None:
        async for raw in stderr:
            worker.logs.append(raw.decode())

    worker.draining = asyncio.create_task(drain())
    return worker


async def killed(proc: asyncio.subprocess.Process) -> None:
    """SIGKILL to a process and everything it started (its browser)."""
    if proc.returncode is None:
        os.killpg(proc.pid, signal.SIGKILL)
        await proc.wait()


@asynccontextmanager
async def deployment(
    env: dict[str, str],
    workers: int,
    *,
    serve_args: Sequence[str] = (),
    worker_args: Sequence[str] = (),
) -> AsyncIterator[tuple[Started, list[Worker]]]:
    """``gofer serve --allow-private SERVE_ARGS`` and ``workers`` workers; each is killed
    at the end with what it started."""
    async with AsyncExitStack() as stack:
        server = await start_serve(env, "--allow-private", *serve_args, own_session=True)
        stack.push_async_callback(killed, server.proc)
        started: list[Worker] = []

        async def kill_all() -> None:
            for worker in started:
                await killed(worker.proc)

        stack.push_async_callback(kill_all)
        for _ in range(workers):
            started.append(await start_worker(env, *worker_args))
        yield server, started
