"""A rolling restart on PostgreSQL: ``gofer serve`` and three ``gofer worker``
processes run 20 demo bookings; while they run, each worker in turn gets SIGTERM
(as systemd sends it to the main process with ``KillMode=mixed``), must exit 0 soon,
with no turn left leased to it, and is started again. Every booking still ends at the
payment checkpoint, as the demo site's own records show (each passenger form sent,
again only by a rerun of a turn a drain cut short, and no payment), and no turn's run
was counted against its attempts (a drained turn is handed back with its attempt
refunded, and none was left for its lease to lapse).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from gofer.cli import DEMO_FACTS, demo_flow
from gofer.demo import DemoServer
from gofer.store import PostgresConnector
from gofer.store.types import Item

from .serve import Worker, deployment, gofer, start_worker

pytestmark = pytest.mark.browser

TASKS = 20
WORKERS = 3
STOP_S = 45.0
"""How long a SIGTERMed worker may take to exit: the README's TimeoutStopSec."""


@pytest.fixture
def store_kind() -> str:
    """Several processes on one store: PostgreSQL."""
    return "postgres"


WORKER_ARGS = ("--per-owner", str(TASKS), "--per-process", "3")


def in_group(pgid: int) -> list[int]:
    """The live processes in process group ``pgid`` (zombies aside)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # it ended while we looked
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


async def ended(pid: int, timeout_s: float) -> bool:
    """Whether the process ``pid`` ends within ``timeout_s`` (woken by its pidfd)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    loop.add_reader(fd, lambda: done.done() or done.set_result(None))
    try:
        await asyncio.wait_for(done, timeout_s)
        return True
    except TimeoutError:
        return False
    finally:
        loop.remove_reader(fd)
        os.close(fd)


async def leased_to(db: PostgresConnector, owner: str, worker_id: str) -> list[Item]:
    """The owner's turns running under ``worker_id``'s lease now."""
    items = await db.queue().items(owner=owner)
    return [i for i in items if i.state == "running" and i.worker == worker_id]


async def busy(db: PostgresConnector, owner: str, workers: list[Worker], among: set[int]) -> int:
    """Once one of the workers ``among`` runs a turn (bounded wait): which one; the
    first of them once no turn is left to run (the drains let the turns finish)."""
    queue = db.queue()
    with queue.subscribe() as subscription:
        async with asyncio.timeout(60):
            while True:
                items = await queue.items(owner=owner)
                running = {i.worker for i in items if i.state == "running"}
                for n in sorted(among):
                    if workers[n].worker_id in running:
                        return n
                if all(i.state == "done" for i in items):
                    return min(among)
                await subscription.wait(0.5)


async def test_workers_restarted_one_at_a_time_lose_no_booking(
    store_url: str, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path),
        "GOFER_DB": store_url,
        "GOFER_TOKENS": str(tmp_path / "tokens.db"),
        "PYTHONUNBUFFERED": "1",
    }
    code, out, err = await gofer("token", "create", "--owner", "ops", "--json", env=env)
    assert code == 0, err
    token = json.loads(out)["token"]
    names = [f"Asha{chr(ord('a') + n)}" for n in range(TASKS)]
    async with (
        DemoServer(seed=7) as demo,
        PostgresConnector(store_url) as db,
        deployment(env, WORKERS, worker_args=WORKER_ARGS) as (server, workers),
        httpx.AsyncClient(
            base_url=server.url, timeout=120, headers={"Authorization": f"Bearer {token}"}
        ) as http,
    ):

        async def call(name: str, body: dict[str, Any]) -> dict[str, Any]:
            response = await http.post(f"/v1/calls/{name}", json=body)
            assert response.status_code == 200, response.text
            return dict(response.json())

        ids = []
        for name in names:
            started = await call(
                "start_task",
                {
                    "flow": demo_flow(demo.url),
                    "facts": {**DEMO_FACTS, "first name": name},
                    "constraints": {"origins": [demo.url.rstrip("/")]},
                },
            )
            ids.append(started["id"])

        cuts: Counter[str] = Counter()
        left = set(range(WORKERS))
        while left:
            n = await busy(db, "ops", workers, left)
            left.remove(n)
            old = workers[n]
            stopping = time.monotonic()
            old.proc.send_signal(signal.SIGTERM)
            async with asyncio.timeout(STOP_S):
                code = await old.proc.wait()
            drained_s = time.monotonic() - stopping
            assert code == 0, "".join(old.logs)
            assert await leased_to(db, "ops", old.worker_id) == [], (
                "a drained worker hands its turns back instead of leaving the lease to lapse"
            )
            assert old.draining is not None
            await old.draining
            said = [line for line in old.logs if "go back on the queue" in line]
            assert len(said) <= 1, old.logs
            for line in said:
                cuts.update(line.split(" the turns of ")[1].split(" go back")[0].split(", "))
            # Its browser was closed by it, not left behind (a child may take a moment).
            lingering = [pid for pid in in_group(old.proc.pid) if not await ended(pid, 5)]
            assert lingering == [], "a drained worker leaves no process of its browser running"
            workers[n] = await start_worker(env, *WORKER_ARGS)
            print(f"worker {n + 1} drained in {drained_s:.1f} s")

        views = []
        for task_id in ids:
            view = {"status": {"state": "running"}}
            async with asyncio.timeout(240):
                while view["status"]["state"] == "running":
                    view = await call("await_task", {"id": task_id, "timeout_ms": 60_000})
            views.append(view)
        items = await db.queue().items(owner="ops")

    print(f"turns cut: {sum(cuts.values())}, most of one task: {max(cuts.values(), default=0)}")
    failed = [v["status"] for v in views if v["status"]["state"] != "checkpoint"]
    assert failed == [], (failed, [w.logs for w in workers], server.logs)
    assert all(v["status"]["location"].startswith("Pay now") for v in views), views
    sent = sorted(p["first_name"] for p in demo.events_of("passengers"))
    assert sorted(set(sent)) == sorted(names), "every booking's passenger reached the site"
    assert all(sent.count(name) <= 1 + cuts[task] for name, task in zip(names, ids, strict=True)), (
        "a booking's form was sent again only by a rerun of a turn cut short",
        sent,
        cuts,
    )
    # With the drain's grace the turns running at each SIGTERM reach their stop there:
    # each turn ran at most twice (once, plus once more for each drain that cut it, as
    # the drained workers said), and so sent its form at most twice.
    runs = {task: 1 + cuts[task] for task in ids}
    assert max(runs.values()) <= 2, runs
    assert max(sent.count(name) for name in names) <= 2, sent
    assert demo.events_of("payment") == []
    assert len(items) == TASKS
    assert all(i.state == "done" for i in items), items
    # Each drained turn went back with its attempt refunded, and none was left to its
    # lease: no turn counts a run against its cap of two.
    assert [i.attempts for i in items] == [1] * TASKS, [(i.id, i.attempts) for i in items]
