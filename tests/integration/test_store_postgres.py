"""PostgreSQL beyond the behaviour suite: migrations under a lock, worker processes
racing over one queue, and a worker killed in the middle of an item."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from queue_race import check_runs, fill
from queue_worker import CONFIG, ORDER

from gofer.store import PostgresConnector
from gofer.store.schema import load_migrations

WORKER = Path(__file__).with_name("queue_worker.py")


def spawn(url: str, mode: str, worker: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), url, mode, worker, *args], stdout=subprocess.PIPE, text=True
    )


def records(proc: subprocess.Popen[str]) -> list[dict[str, object]]:
    out, _ = proc.communicate(timeout=300)
    assert proc.returncode == 0
    return [r for r in map(json.loads, out.splitlines()) if "ready" not in r]


async def test_connectors_opening_at_once_apply_each_migration_once(pg_url: str) -> None:
    shipped = [m.version for m in load_migrations("postgres")]
    connectors = [PostgresConnector(pg_url, max_size=2) for _ in range(3)]
    await asyncio.gather(*(c.__aenter__() for c in connectors))
    try:
        assert sorted(v for c in connectors for v in c.applied) == shipped
        async with connectors[0].transaction() as tx:
            rows = await tx.fetch_all("SELECT version FROM gofer_migrations ORDER BY 1")
        assert [r["version"] for r in rows] == shipped
    finally:
        await asyncio.gather(*(c.__aexit__() for c in connectors))


async def test_four_worker_processes_break_no_rule_over_a_thousand_items(pg_url: str) -> None:
    async with PostgresConnector(pg_url) as db:
        expected = await fill(db.queue(CONFIG), items=1000, groups=50, owners=10)
    start = f"{time.time() + 2.0:.3f}"
    procs = [
        spawn(
            pg_url,
            "run",
            f"p{i}",
            "--cap",
            "2",
            "--start-at",
            start,
            "--idle-s",
            "1.5",
            "--batch",
            str(1 + i % 2 * 3),
        )
        for i in range(4)
    ]
    runs = [r for p in procs for r in records(p)]
    assert check_runs(runs, expected, cap=2) == {}, "violations counted by rule"
    assert len({r["worker"] for r in runs}) == 4, "every process took part"
    async with PostgresConnector(pg_url) as db:
        queue = db.queue(CONFIG)
        states = [i.state for o in expected["owners"] for i in await queue.items(owner=o)]
    assert sorted(states) == ["done"] * 1000


async def test_a_worker_killed_mid_item_leads_to_exactly_one_rerun(pg_url: str) -> None:
    async with PostgresConnector(pg_url) as db:
        queue = db.queue(CONFIG)
        item = await queue.enqueue("job", {"group": "g1", "owner": "ann"})
        after = await queue.enqueue("job", {"group": "g1", "owner": "ann"})
        proc = spawn(pg_url, "hang", "doomed", "--lease-ms", "1500")
        assert proc.stdout is not None
        lines = [json.loads(proc.stdout.readline()) for _ in range(2)]
        assert lines[1]["item"] == item.id and lines[1]["attempt"] == 1
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        proc.stdout.close()
        held = await queue.get(item.id)
        assert held is not None and held.state == "running" and held.worker == "doomed"
        assert await queue.claim(["job"], "w2", 60_000, serial=ORDER) is None
        assert held.lease_expires_at is not None
        await asyncio.sleep(max(0.0, held.lease_expires_at - time.time()) + 0.2)
        rerun = await queue.claim(["job"], "w2", 60_000, serial=ORDER)
        assert rerun is not None and (rerun.id, rerun.attempt) == (item.id, 2)
        assert rerun.last_attempt
        await queue.finish(rerun, {"by": "w2"})
        nxt = await queue.claim(["job"], "w2", 60_000, serial=ORDER)
        assert nxt is not None and nxt.id == after.id, "no third run of the killed item"
        await queue.finish(nxt)
        assert await queue.claim(["job"], "w3", 60_000, serial=ORDER) is None
        done = await queue.get(item.id)
        assert done is not None and (done.state, done.attempts, done.worker) == ("done", 2, "w2")


# the lock a claim takes on an owner while it counts and claims that owner's items
OWNER_LOCK = "SELECT pg_advisory_xact_lock(2, hashtext(%(owner)s))"
WAITING = (
    "SELECT count(*) AS n FROM pg_locks"
    " WHERE locktype = 'advisory' AND NOT granted AND pid <> pg_backend_pid()"
)


async def test_a_claim_passes_over_an_owner_another_claim_holds_and_waits_only_for_it(
    pg_url: str,
) -> None:
    async with PostgresConnector(pg_url) as db:
        queue = db.queue(CONFIG)
        ann = await queue.enqueue("job", {"group": "g1", "owner": "ann"})
        bob = await queue.enqueue("job", {"group": "g2", "owner": "bob"})
        async with db.transaction() as held:
            # as if another worker were in the middle of claiming ann's items
            await held.execute(OWNER_LOCK, {"owner": "ann"})
            first = await asyncio.wait_for(
                queue.claim(["job"], "w1", 60_000, serial=ORDER, running_at_most=1), 30
            )
            assert first is not None and first.id == bob.id, "ann's older item was waited on"
            # only ann's item is left: the claim waits for her owner, rather than
            # answering that there is nothing to claim
            second = asyncio.create_task(
                queue.claim(["job"], "w2", 60_000, serial=ORDER, running_at_most=1)
            )
            async with db.transaction() as probe:
                for _ in range(500):
                    if second.done():
                        break
                    row = await probe.fetch_one(WAITING)
                    if row is not None and row["n"] > 0:
                        break
                    await asyncio.sleep(0.01)
            assert not second.done(), "the claim did not wait for the owner another held"
        got = await second
        assert got is not None and got.id == ann.id


async def test_stores_in_two_schemas_of_one_database_do_not_wake_each_other(
    pg_url: str, other_pg_url: str
) -> None:
    async with PostgresConnector(pg_url) as mine, PostgresConnector(other_pg_url) as theirs:
        ours, others = mine.queue(CONFIG), theirs.queue(CONFIG)
        with ours.subscribe() as heard, others.subscribe() as heard_there:
            await others.enqueue("job", {"group": "g1", "owner": "ann"}, key="k1")
            assert [n.event for n in await heard_there.wait(5.0)] == ["enqueued"]
            await ours.enqueue("job", {"group": "g2", "owner": "bob"}, key="k2")
            got = await heard.wait(5.0)
            assert [(n.event, n.group) for n in got] == [("enqueued", ORDER.key("g2"))]
            assert await heard_there.wait(0.3) == []
