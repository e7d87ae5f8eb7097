"""Many demo bookings at once through a served gofer, on SQLite and on PostgreSQL.

    .venv/bin/python bench/concurrent.py [--counts 1,4,8,16] [--modes sqlite,postgres]
                                        [--pg URL]

Two deployments, each started fresh as separate processes the way an operator runs
them: (a) ``sqlite``: one ``gofer serve`` running the turns in its own process on a
SQLite store; (b) ``postgres``: ``gofer serve`` plus two ``gofer worker`` processes on
one PostgreSQL database (``--pg URL`` or GOFER_TEST_PG_URL names the server; a fresh
database is made on it). The demo airline is served by this script.

Each round starts N demo bookings at once over the HTTP API (``start_task``, one token
and owner per booking, so the per-owner cap does not queue them) and waits on each
with ``await_task`` until it stops at the payment checkpoint; then cancels them all,
which closes their browsers, before the next round. One unmeasured booking warms the
processes first. Printed per round: wall time for all N, p50/p95 of each booking's
seconds from its ``start_task`` to its checkpoint, the peak resident memory of
gofer's processes (the Python processes and Playwright's driver) and of Chromium's
(every process in the trees of the gofer processes, summed from /proc VmRSS sampled
every 100 ms), the memory each added task costs beside the one-booking round, and the
bookings lost (no answer) or failed (not at the checkpoint). Targets: N=8 within 4x
the one-booking time, at most 150 MB per added task, none lost or failed. The figures
are printed, never asserted on time; the exit status is 1 when a booking was lost or
failed.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

# A script's directory comes first on sys.path, so this file's name shadows the standard
# library's ``concurrent`` package, which asyncio imports, for every script in bench/.
_HERE = Path(__file__).resolve().parent
_PATH = [entry for entry in sys.path if Path(entry or ".").resolve() != _HERE]
if __name__ == "concurrent":
    # Another bench script's asyncio imported this file as ``concurrent``: put the real
    # package in its place (the import system hands on what sys.modules holds).
    _spec = importlib.machinery.PathFinder.find_spec("concurrent", _PATH)
    assert _spec is not None and _spec.loader is not None
    sys.modules["concurrent"] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules["concurrent"])
else:
    sys.path[:] = _PATH

# The imports below come after that on purpose.
# ruff: noqa: E402

import argparse
import asyncio
import os
import secrets
import statistics
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

if __name__ != "concurrent":  # standing in, asyncio is half imported: stop here
    import httpx
    import psycopg

    from gofer.cli import DEMO_FACTS, demo_flow
    from gofer.demo import DemoServer
    from gofer.store.tokens import Tokens
    from gofer.wiring import store_for

GOFER = str(Path(sys.executable).with_name("gofer"))
CHROMIUM_NAMES = ("chrome", "chromium", "headless_shell")
SAMPLE_S = 0.1
AWAIT_MS = 60_000
ROUND_TIMEOUT_S = 600.0


class BenchFailed(Exception):
    """The deployment could not be set up; the message says what."""


# resident memory of process trees ----------------------------------------------


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            text = Path(f"/proc/{pid}/task/{task}/children").read_text()
            found.extend(int(c) for c in text.split())
    except OSError:
        return []
    return found


def _tree(roots: list[int]) -> list[int]:
    seen: list[int] = []
    todo = list(roots)
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.append(pid)
            todo.extend(_children(pid))
    return seen


def _status(pid: int) -> tuple[str, int, int] | None:
    """The process's name, VmRSS and Pss (its share of pages mapped by several
    processes) in kB; None once it is gone."""
    name, rss, pss = "", 0, 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Name:"):
                name = line.partition(":")[2].strip()
            elif line.startswith("VmRSS:"):
                rss = int(line.split()[1])
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                pss = int(line.split()[1])
    except OSError:
        return None
    return name, rss, pss


@dataclass
class Memory:
    """MB resident in gofer's processes and in Chromium's (RSS, and PSS: shared pages
    counted once), and how many Chromium processes there are."""

    gofer_mb: float = 0.0
    chromium_mb: float = 0.0
    pss_mb: float = 0.0
    chromium_procs: int = 0


def memory(roots: list[int]) -> Memory:
    """The memory of every process in the trees under ``roots``."""
    found = Memory()
    for pid in _tree(roots):
        got = _status(pid)
        if got is None:
            continue
        name, rss, pss = got
        found.pss_mb += pss / 1024
        if name.casefold().startswith(CHROMIUM_NAMES):
            found.chromium_mb += rss / 1024
            found.chromium_procs += 1
        else:
            found.gofer_mb += rss / 1024
    return found


@dataclass
class Peak:
    """The largest sums seen while sampling."""

    gofer_mb: float = 0.0
    chromium_mb: float = 0.0
    total_mb: float = 0.0
    pss_mb: float = 0.0
    chromium_procs: int = 0

    def add(self, seen: Memory) -> None:
        self.gofer_mb = max(self.gofer_mb, seen.gofer_mb)
        self.chromium_mb = max(self.chromium_mb, seen.chromium_mb)
        self.total_mb = max(self.total_mb, seen.gofer_mb + seen.chromium_mb)
        self.pss_mb = max(self.pss_mb, seen.pss_mb)
        self.chromium_procs = max(self.chromium_procs, seen.chromium_procs)


async def sample(roots: list[int], peak: Peak, stop: asyncio.Event) -> None:
    while not stop.is_set():
        peak.add(await asyncio.to_thread(memory, roots))
        with suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), SAMPLE_S)


# the deployment ----------------------------------------------------------------


@dataclass
class Deployment:
    url: str
    tokens: list[str]
    procs: list[subprocess.Popen[str]] = field(default_factory=list)

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def lost_processes(self) -> list[str]:
        return [f"pid {p.pid} exit {p.returncode}" for p in self.procs if p.poll() is not None]


def _spawn(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[str]:
    with log.open("w") as err:
        return subprocess.Popen(
            [GOFER, *args],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
            text=True,
        )


async def _served_url(proc: subprocess.Popen[str], log: Path) -> str:
    """The address ``gofer serve`` prints once it listens."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for line in log.read_text().splitlines():
            if line.startswith("gofer serving on "):
                return line.removeprefix("gofer serving on ").split()[0]
        if proc.poll() is not None:
            raise BenchFailed(f"gofer serve exited {proc.returncode}: {log.read_text()[-2000:]}")
        await asyncio.sleep(0.1)  # the address is only in its log
    raise BenchFailed("gofer serve printed no address within 60 s")


async def _make_tokens(tokens_db: str, count: int, env: dict[str, str]) -> list[str]:
    async with store_for(tokens_db, env["GOFER_SECRET_KEY"]) as db:
        store = Tokens(db)
        return [(await store.create(f"booker{n}", "bench")).token for n in range(count)]


def _pg_database(admin: str, name: str) -> str:
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(urlsplit(admin)._replace(path=f"/{name}"))


@contextmanager
def _stopped(procs: list[subprocess.Popen[str]]) -> Iterator[None]:
    try:
        yield
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


# one round ---------------------------------------------------------------------


@dataclass
class Round:
    count: int
    wall_s: float
    each_s: list[float]
    lost: int
    failed: int
    peak: Peak
    notes: list[str]


def _state(view: dict[str, object]) -> str:
    status = view.get("status")
    if isinstance(status, dict):
        return str(status.get("state", ""))
    return str(status or "")


async def book(client: httpx.AsyncClient, token: str, body: dict[str, object]) -> tuple[str, str]:
    """The task's id and the state it stopped in."""
    headers = {"Authorization": f"Bearer {token}"}
    started = await client.post("/v1/calls/start_task", json=body, headers=headers)
    started.raise_for_status()
    view = started.json()
    task_id = str(view["id"])
    while _state(view) in ("queued", "running", "starting", ""):
        answer = await client.post(
            "/v1/calls/await_task",
            json={"id": task_id, "timeout_ms": AWAIT_MS},
            headers=headers,
        )
        answer.raise_for_status()
        view = answer.json()
    return task_id, _state(view)


async def cancel(client: httpx.AsyncClient, token: str, task_id: str) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    answer = await client.post("/v1/calls/cancel_task", json={"id": task_id}, headers=headers)
    answer.raise_for_status()


async def one_round(client: httpx.AsyncClient, dep: Deployment, site: str, count: int) -> Round:
    body: dict[str, object] = {"flow": demo_flow(site), "facts": dict(DEMO_FACTS)}
    peak, stop = Peak(), asyncio.Event()
    sampler = asyncio.create_task(sample(dep.pids, peak, stop))
    each: list[float] = []
    notes: list[str] = []
    lost = failed = 0
    ended: list[tuple[str, str]] = []

    async def timed(token: str) -> None:
        nonlocal lost, failed
        t0 = time.perf_counter()
        try:
            task_id, state = await asyncio.wait_for(book(client, token, body), ROUND_TIMEOUT_S)
        except (httpx.HTTPError, TimeoutError) as error:
            lost += 1
            notes.append(f"lost: {type(error).__name__}: {error}")
            return
        each.append(time.perf_counter() - t0)
        ended.append((token, task_id))
        if state != "checkpoint":
            failed += 1
            notes.append(f"task {task_id} ended {state}, not at the checkpoint")

    started = time.perf_counter()
    await asyncio.gather(*(timed(dep.tokens[n]) for n in range(count)))
    wall = time.perf_counter() - started
    stop.set()
    await sampler
    await asyncio.gather(*(cancel(client, token, task_id) for token, task_id in ended))
    gone = dep.lost_processes()
    if gone:
        notes.append(f"processes exited: {', '.join(gone)}")
    return Round(count, wall, each, lost, failed, peak, notes)


def _cold(dep: Deployment) -> list[int]:
    """The gofer processes that have not launched their Chromium yet."""
    return [pid for pid in dep.pids if not memory([pid]).chromium_procs]


async def warm_up(client: httpx.AsyncClient, dep: Deployment, site: str, mode: str) -> None:
    """Unmeasured bookings until every gofer process has launched its Chromium (which
    of them claims a turn is the queue's choice), at most five rounds."""
    for _ in range(5):
        warm = await one_round(client, dep, site, len(dep.procs))
        if warm.lost or warm.failed:
            print(f"{mode}: a warm-up booking did not reach the checkpoint")
            for note in warm.notes:
                print(f"    {note}")
        if not _cold(dep):
            return
    print(f"{mode}: {len(_cold(dep))} process(es) ran no warm-up booking; its first is cold")


def _p95(values: list[float]) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def print_table(mode: str, rounds: list[Round], idle: Memory) -> None:
    print(
        f"\n{mode}: idle after the warm-up: gofer {idle.gofer_mb:.0f} MB RSS, Chromium "
        f"{idle.chromium_mb:.0f} MB RSS, both {idle.pss_mb:.0f} MB PSS"
    )
    print(
        f"{'N':>3} {'wall s':>7} {'x one':>6} {'p50 s':>6} {'p95 s':>6} "
        f"{'gofer MB':>9} {'Chromium MB':>12} {'procs':>6} {'PSS MB':>7} "
        f"{'RSS/added':>10} {'PSS/added':>10} {'lost':>5} {'failed':>7}"
    )
    one = next((r for r in rounds if r.count == 1), None)
    for r in rounds:
        ratio = f"{r.wall_s / one.wall_s:6.2f}" if one else "     -"
        rss_added = pss_added = "         -"
        if one and r.count > 1:
            rss_added = f"{(r.peak.total_mb - one.peak.total_mb) / (r.count - 1):10.0f}"
            pss_added = f"{(r.peak.pss_mb - one.peak.pss_mb) / (r.count - 1):10.0f}"
        p50 = statistics.median(r.each_s) if r.each_s else 0.0
        print(
            f"{r.count:>3} {r.wall_s:7.2f} {ratio} {p50:6.2f} {_p95(r.each_s):6.2f} "
            f"{r.peak.gofer_mb:9.0f} {r.peak.chromium_mb:12.0f} {r.peak.chromium_procs:6d} "
            f"{r.peak.pss_mb:7.0f} {rss_added} {pss_added} {r.lost:5d} {r.failed:7d}",
            flush=True,
        )
        for note in r.notes:
            print(f"    {note}")
    print(
        "  gofer MB, Chromium MB: peak summed VmRSS (pages shared between processes counted "
        "in each); PSS MB: peak summed Pss of both (shared pages split); */added: beside N=1"
    )


async def run_mode(mode: str, counts: list[int], pg: str | None, tmp: Path, site: str) -> int:
    env = dict(os.environ)
    env["GOFER_SECRET_KEY"] = secrets.token_hex(24)
    env["GOFER_TOKENS"] = str(tmp / f"{mode}-tokens.db")
    env["GOFER_ALLOW_PRIVATE"] = "1"
    database = ""
    if mode == "postgres":
        if not pg:
            raise BenchFailed("postgres needs --pg URL or GOFER_TEST_PG_URL")
        database = f"gofer_concurrent_{os.getpid()}"
        env["GOFER_DB"] = _pg_database(pg, database)
    else:
        env["GOFER_DB"] = str(tmp / f"{mode}.db")
    tokens = await _make_tokens(env["GOFER_TOKENS"], max(counts), env)
    serve_log = tmp / f"{mode}-serve.log"
    procs = [_spawn(["serve", "--port", "0", "--allow-private"], env, serve_log)]
    rounds: list[Round] = []
    try:
        with _stopped(procs):
            url = await _served_url(procs[0], serve_log)
            if mode == "postgres":
                for n in range(2):
                    procs.append(_spawn(["worker"], env, tmp / f"{mode}-worker{n}.log"))
            dep = Deployment(url, tokens, procs)
            async with httpx.AsyncClient(base_url=url, timeout=AWAIT_MS / 1000 + 30) as client:
                await warm_up(client, dep, site, mode)
                idle = memory(dep.pids)
                for count in counts:
                    rounds.append(await one_round(client, dep, site, count))
                    print(f"{mode}: {count} at once done in {rounds[-1].wall_s:.2f} s", flush=True)
    finally:
        if database and pg:
            with psycopg.connect(pg, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    print_table(mode, rounds, idle)
    return sum(r.lost + r.failed for r in rounds)


async def bench(counts: list[int], modes: list[str], pg: str | None) -> int:
    bad = 0
    with tempfile.TemporaryDirectory(prefix="gofer-concurrent-") as name:
        tmp = Path(name)
        async with AsyncExitStack() as stack:
            site = await stack.enter_async_context(DemoServer(seed=7))
            for mode in modes:
                bad += await run_mode(mode, counts, pg, tmp, site.url)
    print(f"\nbookings lost or failed: {bad} (target 0)")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--counts", default="1,4,8,16", help="bookings at once per round")
    parser.add_argument("--modes", default="sqlite,postgres", help="sqlite, postgres or both")
    parser.add_argument(
        "--pg",
        metavar="URL",
        default=os.environ.get("GOFER_TEST_PG_URL"),
        help="the PostgreSQL server for the postgres mode (default GOFER_TEST_PG_URL)",
    )
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",") if c.strip()]
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if not counts or min(counts) < 1:
        parser.error("--counts must be positive numbers")
    if unknown := set(modes) - {"sqlite", "postgres"}:
        parser.error(f"unknown modes: {', '.join(sorted(unknown))}")
    if "postgres" in modes and not args.pg:
        print("no --pg URL or GOFER_TEST_PG_URL: PostgreSQL skipped", file=sys.stderr)
        modes.remove("postgres")
    try:
        return asyncio.run(bench(counts, modes, args.pg))
    except BenchFailed as failed:
        print(f"bench failed: {failed}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
