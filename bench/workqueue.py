"""gofer's work queue against pgqueuer and procrastinate on the same PostgreSQL.

    ./dev bench workqueue [--items N] [--concurrency C] [--batch B] [--big N]
    (or .venv/bin/python bench/workqueue.py --pg URL, with the ``bench`` extra installed)

Every system gets a fresh database on one server and does the same no-op work: N
items enqueued first (not timed), then C workers in one process, each on its own
connection, claiming up to B at a time and marking each finished, until all are
done. Printed per system: claim+finish per second, p50/p99 of one claim call (ms).
gofer runs with serial groups (10 items a group) and a per-owner running cap on;
procrastinate fetches one job per call (its only way) and runs once more with its
``lock`` (its serial groups); pgqueuer has neither groups nor per-owner caps.
Then gofer on SQLite; the wake-up latency from an enqueue to a waiting subscriber,
in-process (SQLite and PostgreSQL) and across processes (PostgreSQL LISTEN/NOTIFY);
and a status read (an owner's items; a group's items) at 1,000 and at --big items.

Targets: gofer >= pgqueuer at the same batch size; >= 2,000 claim+finish/s on SQLite;
wake-ups within 50 ms; the status read at --big within 2x its time at 1,000. The
figures are printed, never asserted. The machine is shared: compare ratios of runs
side by side, not absolute numbers across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

from gofer.store import (
    Connector,
    PostgresConnector,
    QueueConfig,
    SerialKind,
    SerialOrder,
    SQLiteConnector,
    WorkQueue,
)

ORDER = SerialOrder("bench", {"job": SerialKind("group", max_attempts=2)})
CONFIG = QueueConfig(orders=[ORDER], owner="owner")
OWNERS = 20
CAP = 10


@dataclass
class Result:
    name: str
    items: int
    seconds: float
    claim_ms: list[float]

    @property
    def rate(self) -> float:
        return self.items / self.seconds

    def line(self) -> str:
        return f"  {self.name:<44} {self.rate:8.0f} /s   claim {_ms(self.claim_ms or [0.0])}"


def _db_url(admin: str, name: str) -> str:
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(urlsplit(admin)._replace(path=f"/{name}"))


def _drop(admin: str, name: str) -> None:
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def _workers(concurrency: int, work: Callable[[int], Awaitable[None]]) -> float:
    start = time.perf_counter()
    await asyncio.gather(*(work(i) for i in range(concurrency)))
    return time.perf_counter() - start


# gofer -------------------------------------------------------------------------


async def run_gofer(db: Connector, name: str, items: int, concurrency: int, batch: int,
                    *, serial: bool) -> Result:
    queue = db.queue(CONFIG)
    for n in range(items):
        payload = {"owner": f"o{n // 10 % OWNERS}", "n": n}
        if serial:
            payload["group"] = f"g{n // 10}"
        await queue.enqueue("job", payload)
    done = 0
    claim_ms: list[float] = []

    async def work(i: int) -> None:
        nonlocal done
        with queue.subscribe() as woken:
            while done < items:
                t0 = time.perf_counter()
                claims = await queue.claim_batch(
                    ["job"], f"w{i}", 30_000, limit=batch, serial=ORDER,
                    running_at_most=CAP if serial else None)
                if not claims:
                    await woken.wait(1.0)
                    continue
                claim_ms.append((time.perf_counter() - t0) * 1000)
                for claim in claims:
                    await queue.finish(claim)
                done += len(claims)

    seconds = await _workers(concurrency, work)
    return Result(name, items, seconds, claim_ms)


# pgqueuer ----------------------------------------------------------------------


async def run_pgqueuer(url: str, items: int, concurrency: int, batch: int) -> Result:
    from pgqueuer import PsycopgDriver, Queries
    from pgqueuer.domain.types import QueueEntrypoint, QueueManagerId
    from pgqueuer.ports.repository import EntrypointExecutionParameter

    setup = await psycopg.AsyncConnection.connect(url, autocommit=True)
    async with setup:
        queries = Queries(PsycopgDriver(setup))
        await queries.install()
        for start in range(0, items, 1000):
            count = min(1000, items - start)
            await queries.enqueue(["job"] * count, [b"{}"] * count, [0] * count)
    entrypoints = {QueueEntrypoint("job"): EntrypointExecutionParameter(concurrency_limit=0)}
    done = 0
    claim_ms: list[float] = []

    async def work(i: int) -> None:
        nonlocal done
        conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
        async with conn:
            mine = Queries(PsycopgDriver(conn))
            manager = QueueManagerId(uuid.uuid4())
            while done < items:
                t0 = time.perf_counter()
                jobs = await mine.dequeue(batch, entrypoints, manager, None,
                                          timedelta(seconds=30))
                if not jobs:
                    await asyncio.sleep(0.005)
                    continue
                claim_ms.append((time.perf_counter() - t0) * 1000)
                for job in jobs:
                    await mine.log_jobs([(job, "successful", None)])
                done += len(jobs)

    seconds = await _workers(concurrency, work)
    return Result(f"pgqueuer (batch {batch})", items, seconds, claim_ms)


# procrastinate -----------------------------------------------------------------


async def run_procrastinate(url: str, items: int, concurrency: int, *,
                            locked: bool) -> Result:
    import procrastinate
    from procrastinate import jobs as pjobs

    # it warns that a bench's App lives in __main__, which is where a bench's belongs
    logging.getLogger("procrastinate").setLevel(logging.ERROR)
    app = procrastinate.App(connector=procrastinate.PsycopgConnector(
        conninfo=url, min_size=1, max_size=concurrency + 1))
    task = app.task(name="noop", queue="bench")(lambda: None)
    async with app.open_async():
        await app.schema_manager.apply_schema_async()
        for n in range(0, items, 10):
            lock = f"g{n // 10}" if locked else None
            await task.configure(lock=lock).batch_defer_async(*({} for _ in range(10)))
        done = 0
        claim_ms: list[float] = []

        async def work(i: int) -> None:
            nonlocal done
            worker_id = await app.job_manager.register_worker()
            while done < items:
                t0 = time.perf_counter()
                job = await app.job_manager.fetch_job(["bench"], worker_id)
                if job is None:
                    await asyncio.sleep(0.005)
                    continue
                claim_ms.append((time.perf_counter() - t0) * 1000)
                await app.job_manager.finish_job(job, pjobs.Status.SUCCEEDED,
                                                 delete_job=False)
                done += 1

        seconds = await _workers(concurrency, work)
    name = "procrastinate (one a call" + (", lock = group)" if locked else ")")
    return Result(name, items, seconds, claim_ms)


# wake-ups ----------------------------------------------------------------------


async def wake_in_process(db: Connector, rounds: int = 50) -> list[float]:
    queue = db.queue(CONFIG)
    waits: list[float] = []
    with queue.subscribe() as sub:
        for n in range(rounds):
            t0 = time.perf_counter()
            await queue.enqueue("job", {"owner": "wake", "n": n})
            while not any(x.event == "enqueued" for x in await sub.wait(5)):
                pass
            waits.append((time.perf_counter() - t0) * 1000)
    return waits


LISTENER = """
import asyncio, json, sys, time
from gofer.store import PostgresConnector
async def main():
    async with PostgresConnector(sys.argv[1], max_size=1) as db:
        with db.waker.subscribe() as sub:
            print(json.dumps({"ready": True}), flush=True)
            while True:
                for n in await sub.wait(30):
                    print(json.dumps({"id": n.id, "t": time.time()}), flush=True)
asyncio.run(main())
"""


async def wake_across_processes(url: str, rounds: int = 50) -> list[float]:
    proc = subprocess.Popen([sys.executable, "-c", LISTENER, url], stdout=subprocess.PIPE,
                            text=True)
    assert proc.stdout is not None
    try:
        await asyncio.to_thread(proc.stdout.readline)
        sent: dict[int, float] = {}
        async with PostgresConnector(url, max_size=1) as db:
            queue = db.queue(CONFIG)
            for n in range(rounds):
                t0 = time.time()
                item = await queue.enqueue("job", {"owner": "wake", "n": n})
                sent[item.id] = t0
                await asyncio.sleep(0.02)
        waits: list[float] = []
        while len(waits) < rounds:
            line = await asyncio.to_thread(proc.stdout.readline)
            got = json.loads(line)
            if got.get("id") in sent:
                waits.append((got["t"] - sent[got["id"]]) * 1000)
        return waits
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()


def _p99(values: list[float]) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def _ms(values: list[float]) -> str:
    return f"p50 {statistics.median(values):6.2f} ms  p99 {_p99(values):6.2f} ms"


# status reads ------------------------------------------------------------------

PG_FILL = """
INSERT INTO work_items (kind, payload, group_key, owner, state, attempts, max_attempts)
SELECT 'job', '{}', 'bench:g' || (i / 10), 'o' || (i / 20),
       CASE WHEN i %% 10 = 0 THEN 'queued' ELSE 'done' END, 1, 2
  FROM generate_series(%(lo)s::bigint, %(hi)s::bigint) AS i
"""

SQLITE_FILL = """
WITH RECURSIVE n(i) AS (SELECT :lo UNION ALL SELECT i + 1 FROM n WHERE i < :hi)
INSERT INTO work_items (kind, payload, group_key, owner, state, attempts, max_attempts,
                        created_at)
SELECT 'job', '{}', 'bench:g' || (i / 10), 'o' || (i / 20),
       CASE WHEN i % 10 = 0 THEN 'queued' ELSE 'done' END, 1, 2, 0
  FROM n
"""


async def status_reads(db: Connector, sizes: list[int], fill: str) -> dict[int, float]:
    """Median ms of reading one owner's items and one group's items (20 and 10 rows),
    after filling the queue up to each size (owners and groups picked at random)."""
    queue: WorkQueue = db.queue(CONFIG)
    have = 0
    out: dict[int, float] = {}
    for size in sizes:
        step = 100_000
        for lo in range(have, size, step):
            async with db.transaction() as tx:
                await tx.execute(fill, {"lo": lo, "hi": min(size, lo + step) - 1})
        have = size
        async with db.transaction() as tx:
            await tx.execute("ANALYZE work_items" if db.dialect == "postgres" else "ANALYZE")
        times: list[float] = []
        for n in range(300):
            who = (n * 7919) % (size // 20)
            t0 = time.perf_counter()
            owned = await queue.items(owner=f"o{who}")
            grouped = await queue.items(group=f"bench:g{who * 2}")
            times.append((time.perf_counter() - t0) * 1000)
            assert len(owned) == 20 and len(grouped) == 10, (len(owned), len(grouped))
        out[size] = statistics.median(times)
    return out


# main --------------------------------------------------------------------------


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pg", default=os.environ.get("GOFER_TEST_PG_URL", ""),
                        help="a PostgreSQL server URL (default: GOFER_TEST_PG_URL)")
    parser.add_argument("--items", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--big", type=int, default=1_000_000)
    args = parser.parse_args()
    if not args.pg:
        sys.exit("no PostgreSQL: pass --pg URL or run ./dev bench workqueue")
    n, c, b = args.items, args.concurrency, args.batch
    print(f"claim+finish of {n} no-op items, {c} workers, batch {b}, one PostgreSQL")
    results: list[Result] = []
    runs: list[tuple[str, Callable[[str], Awaitable[Result]]]] = [
        ("gofer", lambda u: _gofer_pg(u, f"gofer (batch {b}, groups + caps)", n, c, b, True)),
        ("gofer", lambda u: _gofer_pg(u, f"gofer (batch {b}, no groups or caps)", n, c, b,
                                      False)),
        ("gofer", lambda u: _gofer_pg(u, "gofer (one a call, groups + caps)", n, c, 1, True)),
        ("pgqueuer", lambda u: run_pgqueuer(u, n, c, b)),
        ("procrastinate", lambda u: run_procrastinate(u, n, c, locked=False)),
        ("procrastinate", lambda u: run_procrastinate(u, n, c, locked=True)),
    ]
    for i, (system, run) in enumerate(runs):
        name = f"bench_{system}_{i}"
        url = _db_url(args.pg, name)
        try:
            result = await run(url)
        finally:
            _drop(args.pg, name)
        results.append(result)
        print(result.line(), flush=True)
    gofer, pgq = results[0], results[3]
    print(f"  gofer / pgqueuer at batch {b} with groups and caps on: "
          f"{gofer.rate / pgq.rate:.2f}x (target >= 1)")
    with tempfile.TemporaryDirectory() as tmp:
        async with SQLiteConnector(Path(tmp) / "bench.db") as db:
            lite = await run_gofer(db, f"gofer on SQLite (batch {b}, groups + caps)",
                                   n, c, b, serial=True)
        print(lite.line())
        async with SQLiteConnector(Path(tmp) / "one.db") as db:
            one = await run_gofer(db, "gofer on SQLite (one a call, groups + caps)", n, c, 1,
                                  serial=True)
        print(one.line())
        print(f"  SQLite target >= 2000 /s: batch {lite.rate:.0f}, one a call {one.rate:.0f}")
        print("wake-up, enqueue to a waiting subscriber (target 50 ms)")
        async with SQLiteConnector(Path(tmp) / "wake.db") as db:
            print(f"  SQLite, in-process           {_ms(await wake_in_process(db))}")
    url = _db_url(args.pg, "bench_wake")
    try:
        async with PostgresConnector(url, max_size=2) as db:
            print(f"  PostgreSQL, in-process       {_ms(await wake_in_process(db))}")
        print(f"  PostgreSQL, across processes {_ms(await wake_across_processes(url))}")
    finally:
        _drop(args.pg, "bench_wake")
    sizes = [1000, args.big]
    print(f"status read (one owner's 20 items + one group's 10) at {sizes[0]:,} and "
          f"{sizes[1]:,} items (target: within 2x)")
    url = _db_url(args.pg, "bench_status")
    try:
        async with PostgresConnector(url, max_size=2) as db:
            pg = await status_reads(db, sizes, PG_FILL)
    finally:
        _drop(args.pg, "bench_status")
    print(f"  PostgreSQL  {pg[sizes[0]]:.2f} ms -> {pg[sizes[1]]:.2f} ms "
          f"({pg[sizes[1]] / pg[sizes[0]]:.2f}x)")
    with tempfile.TemporaryDirectory() as tmp:
        async with SQLiteConnector(Path(tmp) / "status.db") as db:
            lite_reads = await status_reads(db, sizes, SQLITE_FILL)
    print(f"  SQLite      {lite_reads[sizes[0]]:.2f} ms -> {lite_reads[sizes[1]]:.2f} ms "
          f"({lite_reads[sizes[1]] / lite_reads[sizes[0]]:.2f}x)")


async def _gofer_pg(url: str, name: str, n: int, c: int, b: int, serial: bool) -> Result:
    async with PostgresConnector(url, min_size=c, max_size=c + 1) as db:
        return await run_gofer(db, name, n, c, b, serial=serial)


if __name__ == "__main__":
    asyncio.run(main())
