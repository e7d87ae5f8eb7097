"""Two real processes on one SQLite file wake each other at once, not on the
safety-net re-read: the safety net is made 30 s here, longer than each wait, so a
wait can only end early by a notice from the other process."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from worker_process import spawn

from gofer.store import QueueConfig, SQLiteConnector
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.worker import TurnLimits

SAFETY_NET_S = 30.0
FLOW = [{"browse": "https://a.example.com/"}, {"click": "Search"}]

ENQUEUER = """
import asyncio, sys
from pathlib import Path
from gofer.store import QueueConfig, SQLiteConnector
async def main():
    async with SQLiteConnector(Path(sys.argv[1])) as db:
        item = await db.queue(QueueConfig()).enqueue("job", {"owner": "elsewhere"})
        print(item.id, flush=True)
asyncio.run(main())
"""


async def test_a_subscriber_wakes_on_an_enqueue_committed_by_another_process(
    tmp_path: Path,
) -> None:
    path = tmp_path / "gofer.db"
    async with SQLiteConnector(path) as db:
        with db.queue(QueueConfig()).subscribe() as subscription:
            child = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                ENQUEUER,
                str(path),
                stdout=asyncio.subprocess.PIPE,
                stdin=asyncio.subprocess.DEVNULL,
            )
            out, _ = await child.communicate()
            assert child.returncode == 0
            notices = await subscription.wait(SAFETY_NET_S)
    assert [(n.event, n.owner, n.id) for n in notices] == [
        ("enqueued", "elsewhere", int(out.decode()))
    ]


async def test_await_task_wakes_when_a_separate_worker_process_finishes_the_turn(
    tmp_path: Path,
) -> None:
    path = tmp_path / "gofer.db"
    async with SQLiteConnector(path):
        pass  # the schema is there before the worker opens the file
    proc = await spawn(str(path), "complete", 60_000, wake_s=SAFETY_NET_S)
    try:
        limits = TurnLimits(wake_s=SAFETY_NET_S)
        async with (
            SQLiteConnector(path) as db,
            Tasks(ScriptedRunner(), store=db, work=False, limits=limits) as tasks,
        ):
            loop = asyncio.get_running_loop()
            for _ in range(2):
                view = await tasks.start_task({"flow": FLOW})
                # The worker sleeps on its own 30 s safety net until this enqueue wakes
                # it; this wait gives up after 20 s (then reads the task once more).
                began = loop.time()
                done = await tasks.await_task({"id": view.id, "timeout_ms": 20_000})
                assert done.status.state == "done", done.status
                assert loop.time() - began < 15, "woke only when the wait gave up"
                await proc.said(b"started\n")
    finally:
        await proc.close()
