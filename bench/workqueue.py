"""gofer's work queue against pgqueuer and procrastinate on the same PostgreSQL.

    ./dev bench workqueue [--items N] [--concurrency C] [--batch B] [--big N] [--pairs N]
                          [--parts claims,sqlite,wake,tasks,status]
    (or .venv/bin/python bench/workqueue.py --pg URL, with the ``bench`` extra installed)

Every system gets a fresh database on one server and does the same no-op work: N
items enqueued first (not timed), then C workers in one process, each on its own
connection, claiming up to B at a time and marking each finished, until all are
done. Printed per system: claim+finish per second, p50/p99 of one claim call (ms).
gofer runs with serial groups (10 items a group) and a per-owner running cap on;
procrastinate fetches one job per call (its only way) and runs once more with its
``lock`` (its serial groups); pgqueuer has neither groups nor per-owner caps.
Then gofer on SQLite; the wake-up latency from an enqueue to a waiting subscriber,
in-process and across processes (PostgreSQL LISTEN/NOTIFY; SQLite's datagram
sockets); the task controller's own: ``await_task`` waking when a turn's run ends (the
controller that runs it waiting, and a caller in another process waiting on a worker
process: "a SQLite caller woken by a separate worker process", beside PostgreSQL),
and ``start_task`` p50 on SQLite and PostgreSQL beside the in-memory controller's;
and a status read (an owner's items; a group's items) at 1,000 and at --big items.
``--parts`` runs only some of these (claims, sqlite, wake, tasks, status); ``--pairs``
runs gofer and pgqueuer back to back that many times more and prints the median of
their ratios, the figure to read on a shared machine.

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

from gofer.runtime.types import RunRequest, RunResult
from gofer.store import (
    Connector,
    PostgresConnector,
    QueueConfig,
    SerialKind,
    SerialOrder,
    SQLiteConnector,
    WorkQueue,
)
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import complete

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


async def run_gofer(
    db: Connector, name: str, items: int, concurrency: int, batch: int, *, serial: bool
) -> Result:
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
                    ["job"],
                    f"w{i}",
                    30_000,
                    limit=batch,
                    serial=ORDER,
                    running_at_most=CAP if serial else None,
                )
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
                jobs = await mine.dequeue(batch, entrypoints, manager, None, timedelta(seconds=30))
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


async def run_procrastinate(url: str, items: int, concurrency: int, *, locked: bool) -> Result:
    import procrastinate
    from procrastinate import jobs as pjobs

    # it warns that a bench's App lives in __main__, which is where a bench's belongs
    logging.getLogger("procrastinate").setLevel(logging.ERROR)
    app = procrastinate.App(
        connector=procrastinate.PsycopgConnector(conninfo=url, min_size=1, max_size=concurrency + 1)
    )
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
                await app.job_manager.finish_job(job, pjobs.Status.SUCCEEDED, delete_job=False)
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
from gofer.wiring import store_for
async def main():
    async with store_for(sys.argv[1]) as db:
        with db.waker.subscribe() as sub:
            print(json.dumps({"ready": True}), flush=True)
            while True:
                for n in await sub.wait(30):
                    print(json.dumps({"id": n.id, "t": time.time()}), flush=True)
asyncio.run(main())
"""


async def wake_across_processes(
    where: str, open_db: Callable[[], Connector], rounds: int = 50
) -> list[float]:
    """ms from an enqueue in this process to a subscriber in another being woken."""
    proc = subprocess.Popen(
        [sys.executable, "-c", LISTENER, where], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    try:
        await asyncio.to_thread(proc.stdout.readline)
        sent: dict[int, float] = {}
        async with open_db() as db:
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


def _p95(values: list[float]) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def _ms95(values: list[float]) -> str:
    return f"p50 {statistics.median(values):6.2f} ms  p95 {_p95(values):6.2f} ms"


# the task controller -----------------------------------------------------------

FLOW = [{"browse": "https://shop.example.com/"}, {"read": "the price", "as": "price"}]


async def await_in_process(db: Connector, rounds: int = 30) -> list[float]:
    """ms from a turn's run ending to ``await_task`` returning its view, the waiting
    controller being the one that runs the turn (scripted runs, a real store)."""
    release = asyncio.Event()
    started = asyncio.Event()
    ended: list[float] = []

    async def run(request: RunRequest) -> RunResult:
        started.set()
        await release.wait()
        ended.append(time.perf_counter())
        return complete()(request)

    waits: list[float] = []
    runner = ScriptedRunner.of(*(run for _ in range(rounds)))
    async with Tasks(runner, store=db) as tasks:
        for _ in range(rounds):
            started.clear()
            release.clear()
            view = await tasks.start_task({"flow": FLOW})
            waiter = asyncio.create_task(tasks.await_task({"id": view.id, "timeout_ms": 30_000}))
            await started.wait()
            await asyncio.sleep(0.01)  # the waiter reads the task running and waits
            release.set()
            done = await waiter
            waits.append((time.perf_counter() - ended[-1]) * 1000)
            assert done.status.state == "done", done.status
    return waits


TASK_WORKER = """
import asyncio, json, signal, sys, time
from gofer.runtime.types import RunRequest, RunResult
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import complete
from gofer.wiring import store_for
async def main():
    async def run(request: RunRequest) -> RunResult:
        await asyncio.sleep(0.1)  # the caller is waiting by now
        print(json.dumps({"ended": time.time()}), flush=True)
        return complete()(request)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with store_for(sys.argv[1]) as store, \
            Tasks(ScriptedRunner.of(*(run for _ in range(1000))), store=store) as tasks:
        print(json.dumps({"ready": True}), flush=True)
        await tasks.serve(stop)
asyncio.run(main())
"""


async def await_across_processes(
    where: str, open_db: Callable[[], Connector], rounds: int = 20
) -> list[float]:
    """ms from a turn's run ending in a worker process (``gofer worker``'s part) to
    ``await_task`` returning in this one, which runs nothing."""
    proc = subprocess.Popen(
        [sys.executable, "-c", TASK_WORKER, where], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    waits: list[float] = []
    try:
        await asyncio.to_thread(proc.stdout.readline)
        async with open_db() as db, Tasks(ScriptedRunner(), store=db, work=False) as tasks:
            for _ in range(rounds):
                view = await tasks.start_task({"flow": FLOW})
                done = await tasks.await_task({"id": view.id, "timeout_ms": 30_000})
                back = time.time()
                line = await asyncio.to_thread(proc.stdout.readline)
                waits.append((back - json.loads(line)["ended"]) * 1000)
                assert done.status.state == "done", done.status
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        proc.stdout.close()
    return waits


async def start_times(db: Connector | None, rounds: int = 200) -> list[float]:
    """ms of one ``start_task`` (validate, store the task and its first turn) with no
    worker taking the turns; ``db=None`` is the in-memory controller."""
    times: list[float] = []
    async with Tasks(
        ScriptedRunner(), store=db, work=False, max_tasks=rounds, max_open=rounds
    ) as tasks:
        for _ in range(rounds):
            t0 = time.perf_counter()
            await tasks.start_task({"flow": FLOW})
            times.append((time.perf_counter() - t0) * 1000)
    return times


async def task_calls(pg: str, tmp: Path) -> None:
    print("await_task wake-up, a turn's run ending to await_task returning (target 50 ms)")
    async with SQLiteConnector(tmp / "await.db") as lite:
        print(f"  SQLite, in-process            {_ms(await await_in_process(lite))}")
    url = _db_url(pg, "bench_await")
    try:
        async with PostgresConnector(url, max_size=4) as db:
            print(f"  PostgreSQL, in-process        {_ms(await await_in_process(db))}")
        pg_across = await await_across_processes(
            url, lambda: PostgresConnector(url, max_size=2), rounds=50
        )
    finally:
        _drop(pg, "bench_await")
    path = tmp / "across.db"
    lite_across = await await_across_processes(str(path), lambda: SQLiteConnector(path), rounds=50)
    print("  a caller woken by a separate worker process, 50 rounds:")
    print(f"    PostgreSQL (LISTEN/NOTIFY)  {_ms95(pg_across)}")
    print(f"    SQLite (datagram sockets)   {_ms95(lite_across)}")
    print("start_task, validating and storing a task with its first turn")
    memory = await start_times(None)
    base = statistics.median(memory)
    # the in-memory connector copies every table for each transaction's rollback, so
    # its start_task slows as the tasks it holds grow: its first 20 are shown too
    print(
        f"  in memory (baseline)          p50 {base:6.2f} ms  (its first 20: p50 "
        f"{statistics.median(memory[:20]):.2f} ms)"
    )
    async with SQLiteConnector(tmp / "start.db") as lite:
        mid = statistics.median(await start_times(lite))
    print(f"  SQLite                        p50 {mid:6.2f} ms  ({mid / base:.2f}x memory)")
    url = _db_url(pg, "bench_start")
    try:
        async with PostgresConnector(url, max_size=2) as db:
            far = statistics.median(await start_times(db))
    finally:
        _drop(pg, "bench_start")
    print(f"  PostgreSQL                    p50 {far:6.2f} ms  ({far / base:.2f}x memory)")


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
    parser.add_argument(
        "--pg",
        default=os.environ.get("GOFER_TEST_PG_URL", ""),
        help="a PostgreSQL server URL (default: GOFER_TEST_PG_URL)",
    )
    parser.add_argument("--items", type=int, default=3000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--big", type=int, default=1_000_000)
    parser.add_argument(
        "--pairs",
        type=int,
        default=5,
        help="gofer (groups + caps) and pgqueuer run back to back this "
        "many times more, for the median of their ratios",
    )
    parser.add_argument(
        "--parts",
        default=",".join(PARTS),
        help=f"what to run, comma-separated (default: {','.join(PARTS)})",
    )
    args = parser.parse_args()
    if not args.pg:
        sys.exit("no PostgreSQL: pass --pg URL or run ./dev bench workqueue")
    parts = set(args.parts.split(","))
    if parts - set(PARTS):
        sys.exit(f"unknown parts {sorted(parts - set(PARTS))}; choose from {PARTS}")
    if "claims" in parts:
        await claims(args.pg, args.items, args.concurrency, args.batch, args.pairs)
    with tempfile.TemporaryDirectory() as tmp:
        if "sqlite" in parts:
            await sqlite_claims(Path(tmp), args.items, args.concurrency, args.batch)
        if "wake" in parts:
            await wake_ups(args.pg, Path(tmp))
        if "tasks" in parts:
            await task_calls(args.pg, Path(tmp))
    if "status" in parts:
        await status(args.pg, args.big)


PARTS = ("claims", "sqlite", "wake", "tasks", "status")


async def claims(pg: str, n: int, c: int, b: int, rounds: int = 1) -> None:
    print(f"claim+finish of {n} no-op items, {c} workers, batch {b}, one PostgreSQL")
    results: list[Result] = []
    runs: list[tuple[str, Callable[[str], Awaitable[Result]]]] = [
        ("gofer", lambda u: _gofer_pg(u, f"gofer (batch {b}, groups + caps)", n, c, b, True)),
        ("gofer", lambda u: _gofer_pg(u, f"gofer (batch {b}, no groups or caps)", n, c, b, False)),
        ("gofer", lambda u: _gofer_pg(u, "gofer (one a call, groups + caps)", n, c, 1, True)),
        ("pgqueuer", lambda u: run_pgqueuer(u, n, c, b)),
        ("procrastinate", lambda u: run_procrastinate(u, n, c, locked=False)),
        ("procrastinate", lambda u: run_procrastinate(u, n, c, locked=True)),
    ]
    for i, (system, run) in enumerate(runs):
        name = f"bench_{system}_{i}"
        url = _db_url(pg, name)
        try:
            result = await run(url)
        finally:
            _drop(pg, name)
        results.append(result)
        print(result.line(), flush=True)
    gofer, pgq = results[0], results[3]
    print(
        f"  gofer / pgqueuer at batch {b} with groups and caps on: "
        f"{gofer.rate / pgq.rate:.2f}x (target >= 1)"
    )
    if rounds < 2:
        return
    # A shared machine's load moves between runs: pairs run back to back, in turns
    # first, compare the two under the same load.
    ratios: list[float] = []
    for r in range(rounds):
        pair: dict[str, Result] = {}
        for system in ("gofer", "pgqueuer") if r % 2 else ("pgqueuer", "gofer"):
            url = _db_url(pg, f"bench_pair_{system}")
            try:
                pair[system] = await (
                    _gofer_pg(url, "gofer", n, c, b, True)
                    if system == "gofer"
                    else run_pgqueuer(url, n, c, b)
                )
            finally:
                _drop(pg, f"bench_pair_{system}")
        ratios.append(pair["gofer"].rate / pair["pgqueuer"].rate)
        print(
            f"  pair {r + 1}: gofer {pair['gofer'].rate:.0f} /s, pgqueuer "
            f"{pair['pgqueuer'].rate:.0f} /s: {ratios[-1]:.2f}x",
            flush=True,
        )
    print(
        f"  gofer / pgqueuer, median of {rounds} pairs: {statistics.median(ratios):.2f}x "
        "(target >= 1)"
    )


async def sqlite_claims(tmp: Path, n: int, c: int, b: int) -> None:
    async with SQLiteConnector(tmp / "bench.db") as db:
        lite = await run_gofer(
            db, f"gofer on SQLite (batch {b}, groups + caps)", n, c, b, serial=True
        )
    print(lite.line())
    async with SQLiteConnector(tmp / "one.db") as db:
        one = await run_gofer(
            db, "gofer on SQLite (one a call, groups + caps)", n, c, 1, serial=True
        )
    print(one.line())
    print(f"  SQLite target >= 2000 /s: batch {lite.rate:.0f}, one a call {one.rate:.0f}")


async def wake_ups(pg: str, tmp: Path) -> None:
    print("wake-up, enqueue to a waiting subscriber (target 50 ms)")
    async with SQLiteConnector(tmp / "wake.db") as db:
        print(f"  SQLite, in-process           {_ms(await wake_in_process(db))}")
    url = _db_url(pg, "bench_wake")
    try:
        async with PostgresConnector(url, max_size=2) as db:
            print(f"  PostgreSQL, in-process       {_ms(await wake_in_process(db))}")
        across = await wake_across_processes(url, lambda: PostgresConnector(url, max_size=1))
        print(f"  PostgreSQL, across processes {_ms(across)}")
    finally:
        _drop(pg, "bench_wake")
    path = tmp / "wake-across.db"
    across = await wake_across_processes(str(path), lambda: SQLiteConnector(path))
    print(f"  SQLite, across processes     {_ms(across)}  (a datagram socket per process)")


async def status(pg_admin: str, big: int) -> None:
    sizes = [1000, big]
    print(
        f"status read (one owner's 20 items + one group's 10) at {sizes[0]:,} and "
        f"{sizes[1]:,} items (target: within 2x)"
    )
    url = _db_url(pg_admin, "bench_status")
    try:
        async with PostgresConnector(url, max_size=2) as db:
            pg = await status_reads(db, sizes, PG_FILL)
    finally:
        _drop(pg_admin, "bench_status")
    print(
        f"  PostgreSQL  {pg[sizes[0]]:.2f} ms -> {pg[sizes[1]]:.2f} ms "
        f"({pg[sizes[1]] / pg[sizes[0]]:.2f}x)"
    )
    with tempfile.TemporaryDirectory() as tmp:
        async with SQLiteConnector(Path(tmp) / "status.db") as db:
            lite_reads = await status_reads(db, sizes, SQLITE_FILL)
    print(
        f"  SQLite      {lite_reads[sizes[0]]:.2f} ms -> {lite_reads[sizes[1]]:.2f} ms "
        f"({lite_reads[sizes[1]] / lite_reads[sizes[0]]:.2f}x)"
    )


async def _gofer_pg(url: str, name: str, n: int, c: int, b: int, serial: bool) -> Result:
    async with PostgresConnector(url, min_size=c, max_size=c + 1) as db:
        return await run_gofer(db, name, n, c, b, serial=serial)


if __name__ == "__main__":
    asyncio.run(main())
