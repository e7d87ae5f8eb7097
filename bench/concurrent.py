"""Many demo bookings at once through a served gofer, on SQLite and on PostgreSQL.

    ./dev bench concurrent [--counts 1,4,8,16] [--modes script,sqlite,postgres]
    (or .venv/bin/python bench/concurrent.py [...] [--pg URL])

The hand-written script and two deployments, each started fresh as separate processes
the way an operator runs them: ``script``: bench/handwritten.py's booking, N at once in
one Chromium of a process of its own (bench/script_server.py, answering the same three
calls), the baseline; (a) ``sqlite``: one ``gofer serve`` running the turns in its own
process on a SQLite store; (b) ``postgres``: ``gofer serve --per-process 0`` (calls only) plus two
``gofer worker`` processes running the browsers, on one PostgreSQL database (``--pg URL``
or GOFER_TEST_PG_URL names the server; a fresh database is made on it). The demo
airline runs as ``gofer demo-site``, a process of its own.

Each round starts N demo bookings at once over the HTTP API (``start_task``, one token
and owner per booking, so the per-owner cap does not queue them) and waits on each
with ``await_task`` until it stops at the payment checkpoint; then cancels them all,
which closes their browsers, and waits for Chromium to be back to its idle processes
(a note says when it is not) before the next round. Unmeasured bookings warm every
gofer process's Chromium first. Each N runs twice: a timed round whose memory sampler
reads VmRSS only, then a round that also reads PSS and USS for the memory table (the
kernel walks every mapping of a process to count those, about 2 ms a Chromium process:
half a core at ten samples a second, which would slow the bookings being timed).
Printed per N, in two tables:

- time: wall time for all N; p50/p95 of each booking's seconds from its ``start_task``
  to its checkpoint; the CPU seconds gofer's processes (Python and Playwright's
  driver), Chromium's and the demo site's used in the round, per booking; how busy the
  machine's cores were (other work included: on a shared machine, read the CPU
  seconds beside the wall times);
- memory: the peak resident memory of gofer's processes and of Chromium's (every
  process in the trees of the gofer processes, VmRSS summed, sampled every 100 ms),
  the peak PSS of both (pages shared between processes split among them) and USS
  (pages only one process maps), and what each added task costs beside the one-booking
  round, by each measure. PSS is the cost: summed RSS counts the Chromium binary's
  pages, which every renderer maps and the machine holds once, in each process.

Then each deployment's CPU per booking beside the script's at each N (Chromium's and the
driver's and Python's, the site's left out), and the bookings lost (no answer) or failed
(not at the checkpoint). Targets: N=8
within 4x the one-booking time, at most 150 MB per added task, none lost or failed.
The figures are printed, never asserted on time; the exit status is 1 when a booking
was lost or failed.
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
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from urllib.parse import urlsplit, urlunsplit

if __name__ != "concurrent":  # standing in, asyncio is half imported: stop here
    import httpx
    import psycopg

    from gofer.cli import DEMO_FACTS, demo_flow
    from gofer.store.tokens import Tokens
    from gofer.wiring import store_for

GOFER = str(Path(sys.executable).with_name("gofer"))
CHROMIUM_NAMES = ("chrome", "chromium", "headless_shell")
SAMPLE_S = 0.1
AWAIT_MS = 60_000
ROUND_TIMEOUT_S = 600.0
BOOKING_ACTIONS = 19
"""The demo booking's actions, as bench/booking.py counts them from the run's spend."""


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


def _status(pid: int, shares: bool) -> tuple[str, int, int, int] | None:
    """The process's name, VmRSS, and with ``shares`` its Pss (its share of pages mapped
    by several processes) and USS (the pages only it maps), in kB; None once it is gone.
    Pss and USS cost the kernel a walk over every mapping (about 2 ms a Chromium process)."""
    name, rss, pss, uss = "", 0, 0, 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Name:"):
                name = line.partition(":")[2].strip()
            elif line.startswith("VmRSS:"):
                rss = int(line.split()[1])
        if not shares:
            return name, rss, pss, uss
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                pss = int(line.split()[1])
            elif line.startswith(("Private_Clean:", "Private_Dirty:")):
                uss += int(line.split()[1])
    except OSError:
        return None
    return name, rss, pss, uss


def _cpu_ticks(pid: int) -> tuple[str, int] | None:
    """The process's name and the CPU it and its reaped children used, in clock ticks."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    head, _, rest = text.rpartition(")")
    fields = rest.split()
    # utime, stime, cutime and cstime are fields 14-17; ``rest`` starts at field 3
    return head.partition("(")[2], sum(int(f) for f in fields[11:15])


@dataclass
class Cpu:
    """CPU seconds used so far by gofer's processes and by Chromium's, and the
    machine's busy and total jiffies (every core, every process)."""

    gofer_s: float = 0.0
    chromium_s: float = 0.0
    busy: int = 0
    total: int = 0


def _machine() -> tuple[int, int]:
    values = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]  # idle and iowait
    return sum(values) - idle, sum(values)


def cpu(roots: list[int]) -> Cpu:
    """CPU used by every process in the trees under ``roots`` (a process that ended was
    added to its parent's when reaped)."""
    found = Cpu()
    hertz = os.sysconf("SC_CLK_TCK")
    for pid in _tree(roots):
        got = _cpu_ticks(pid)
        if got is None:
            continue
        name, ticks = got
        if name.casefold().startswith(CHROMIUM_NAMES):
            found.chromium_s += ticks / hertz
        else:
            found.gofer_s += ticks / hertz
    found.busy, found.total = _machine()
    return found


@dataclass
class Memory:
    """MB resident in gofer's processes and in Chromium's (RSS; PSS: shared pages
    counted once; USS: pages no other process maps), and how many Chromium processes
    there are."""

    gofer_mb: float = 0.0
    chromium_mb: float = 0.0
    pss_mb: float = 0.0
    uss_mb: float = 0.0
    chromium_procs: int = 0


def memory(roots: list[int], shares: bool = True) -> Memory:
    """The memory of every process in the trees under ``roots`` (PSS and USS only with
    ``shares``)."""
    found = Memory()
    for pid in _tree(roots):
        got = _status(pid, shares)
        if got is None:
            continue
        name, rss, pss, uss = got
        found.pss_mb += pss / 1024
        found.uss_mb += uss / 1024
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
    uss_mb: float = 0.0
    chromium_procs: int = 0

    def add(self, seen: Memory) -> None:
        self.gofer_mb = max(self.gofer_mb, seen.gofer_mb)
        self.chromium_mb = max(self.chromium_mb, seen.chromium_mb)
        self.total_mb = max(self.total_mb, seen.gofer_mb + seen.chromium_mb)
        self.pss_mb = max(self.pss_mb, seen.pss_mb)
        self.uss_mb = max(self.uss_mb, seen.uss_mb)
        self.chromium_procs = max(self.chromium_procs, seen.chromium_procs)


async def sample(roots: list[int], peak: Peak, stop: asyncio.Event, shares: bool) -> None:
    while not stop.is_set():
        peak.add(await asyncio.to_thread(memory, roots, shares))
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


def _spawn(
    args: list[str], env: dict[str, str], log: Path, program: tuple[str, ...] = (GOFER,)
) -> subprocess.Popen[str]:
    with log.open("w") as out:
        return subprocess.Popen(
            [*program, *args],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )


async def _printed_url(proc: subprocess.Popen[str], log: Path, prefix: str) -> str:
    """The address a gofer process prints in a line starting with ``prefix``."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for line in log.read_text().splitlines():
            if line.startswith(prefix):
                return line.removeprefix(prefix).split()[0]
        if proc.poll() is not None:
            raise BenchFailed(f"{proc.args!r} exited {proc.returncode}: {log.read_text()}")
        await asyncio.sleep(0.1)  # the address is only in its log
    raise BenchFailed(f"{proc.args!r} printed no address within 60 s")


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
    gofer_cpu_s: float
    chromium_cpu_s: float
    site_cpu_s: float
    busy_cores: float
    notes: list[str]

    def sized_by(self, other: Round) -> Round:
        """This round's times with the memory ``other`` (as many bookings) measured."""
        return replace(
            self,
            lost=self.lost + other.lost,
            failed=self.failed + other.failed,
            peak=other.peak,
            notes=self.notes + other.notes,
        )


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


async def _settled(dep: Deployment, idle_procs: int) -> int:
    """Waits (at most 30 s) for Chromium to be back to ``idle_procs`` processes once
    the round's tasks are cancelled (their contexts closed); the count it ended at."""
    deadline = time.monotonic() + 30
    procs = memory(dep.pids).chromium_procs
    while procs > idle_procs and time.monotonic() < deadline:
        await asyncio.sleep(0.2)  # processes ending: nothing to wait on but /proc
        procs = memory(dep.pids).chromium_procs
    return procs


async def one_round(
    client: httpx.AsyncClient,
    dep: Deployment,
    site: Site,
    count: int,
    idle_procs: int,
    shares: bool = True,
) -> Round:
    body: dict[str, object] = {"flow": demo_flow(site.url), "facts": dict(DEMO_FACTS)}
    peak, stop = Peak(), asyncio.Event()
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

    used, site_used = cpu(dep.pids), cpu([site.pid])
    sampler = asyncio.create_task(sample(dep.pids, peak, stop, shares))
    started = time.perf_counter()
    await asyncio.gather(*(timed(dep.tokens[n]) for n in range(count)))
    wall = time.perf_counter() - started
    after, site_after = cpu(dep.pids), cpu([site.pid])
    stop.set()
    await sampler
    await asyncio.gather(*(cancel(client, token, task_id) for token, task_id in ended))
    if idle_procs and (left := await _settled(dep, idle_procs)) > idle_procs:
        notes.append(f"{left - idle_procs} Chromium process(es) more than idle 30 s after cancel")
    gone = dep.lost_processes()
    if gone:
        notes.append(f"processes exited: {', '.join(gone)}")
    cores = os.cpu_count() or 1
    busy = (after.busy - used.busy) / max(1, after.total - used.total) * cores
    return Round(
        count,
        wall,
        each,
        lost,
        failed,
        peak,
        after.gofer_s - used.gofer_s,
        after.chromium_s - used.chromium_s,
        site_after.gofer_s - site_used.gofer_s,
        busy,
        notes,
    )


def _cold(dep: Deployment) -> list[int]:
    """The gofer processes that have not launched their Chromium yet."""
    return [pid for pid in dep.pids if not memory([pid]).chromium_procs]


async def warm_up(client: httpx.AsyncClient, dep: Deployment, site: Site, mode: str) -> None:
    """Unmeasured bookings until every gofer process has launched its Chromium (which
    of them claims a turn is the queue's choice), at most five rounds."""
    for _ in range(5):
        warm = await one_round(client, dep, site, len(dep.procs), 0)
        if warm.lost or warm.failed:
            print(f"{mode}: a warm-up booking did not reach the checkpoint")
            for note in warm.notes:
                print(f"    {note}")
        if not _cold(dep):
            return
    print(f"{mode}: {len(_cold(dep))} process(es) ran no warm-up booking; its first is cold")


# the table ---------------------------------------------------------------------


def _p95(values: list[float]) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    return [
        "  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=True))
        for line in [header, *rows]
    ]


def print_tables(mode: str, rounds: list[Round], idle: Memory) -> None:
    one = next((r for r in rounds if r.count == 1), None)
    cores = os.cpu_count() or 1
    timing: list[list[str]] = []
    sizes: list[list[str]] = []
    for r in rounds:
        cpu_s = r.gofer_cpu_s + r.chromium_cpu_s + r.site_cpu_s
        timing.append(
            [
                str(r.count),
                f"{r.wall_s:.2f}",
                f"{r.wall_s / one.wall_s:.2f}" if one else "-",
                f"{statistics.median(r.each_s):.2f}" if r.each_s else "-",
                f"{_p95(r.each_s):.2f}" if r.each_s else "-",
                f"{r.gofer_cpu_s:.1f}",
                f"{r.chromium_cpu_s:.1f}",
                f"{r.site_cpu_s:.1f}",
                f"{cpu_s / r.count:.2f}",
                f"{r.busy_cores:.2f}/{cores}",
                str(r.lost),
                str(r.failed),
            ]
        )
        added = one is not None and r.count > 1
        sizes.append(
            [
                str(r.count),
                f"{r.peak.gofer_mb:.0f}",
                f"{r.peak.chromium_mb:.0f}",
                str(r.peak.chromium_procs),
                f"{r.peak.pss_mb:.0f}",
                f"{(r.peak.total_mb - one.peak.total_mb) / (r.count - 1):.0f}"
                if one and added
                else "-",
                f"{(r.peak.pss_mb - one.peak.pss_mb) / (r.count - 1):.0f}"
                if one and added
                else "-",
                f"{(r.peak.uss_mb - one.peak.uss_mb) / (r.count - 1):.0f}"
                if one and added
                else "-",
            ]
        )
    print(f"\n{mode}: time (s)")
    header = ["N", "wall", "x one", "p50", "p95", "CPU gofer", "CPU Chromium", "CPU site"]
    header += ["CPU/booking", "cores busy", "lost", "failed"]
    for line in _table(header, timing):
        print(f"  {line}")
    print(
        f"\n{mode}: peak memory (MB); idle after the warm-up: gofer {idle.gofer_mb:.0f} RSS, "
        f"Chromium {idle.chromium_mb:.0f} RSS in {idle.chromium_procs} processes, "
        f"{idle.pss_mb:.0f} PSS"
    )
    header = ["N", "gofer RSS", "Chromium RSS", "Chromium procs", "PSS", "RSS/added"]
    header += ["PSS/added", "USS/added"]
    for line in _table(header, sizes):
        print(f"  {line}")
    for r in rounds:
        for note in r.notes:
            print(f"  N={r.count}: {note}")
    print(
        "  RSS: summed VmRSS (pages shared between processes counted in each); PSS: summed "
        "Pss of gofer's and Chromium's processes (shared pages split among their users); "
        "USS: the pages of each process no other process maps, summed; "
        "*/added: (N's peak - one booking's peak) / (N - 1). CPU: seconds used during the "
        "round by gofer's processes, Chromium's and the demo site's; cores busy: the whole "
        "machine's, other work included.",
        flush=True,
    )


# running it --------------------------------------------------------------------


@dataclass
class Site:
    url: str
    pid: int


commands: dict[str, int] = {}
"""DevTools commands of one booking, by mode (see :func:`run_mode`'s ``protocol``)."""


def sent_between(logs: list[Path], since: datetime, until: datetime) -> int:
    """The DevTools commands the drivers logging into ``logs`` sent between two times
    (each protocol line starts with its time, ISO 8601 in UTC)."""
    sent = 0
    for log in logs:
        if not log.exists():
            continue
        for line in log.read_text(errors="replace").splitlines():
            if "SEND \u25ba" not in line:
                continue
            try:
                at = datetime.fromisoformat(line.split(" ", 1)[0].replace("Z", "+00:00"))
            except ValueError:
                continue
            sent += since <= at <= until
    return sent


async def run_mode(
    mode: str, counts: list[int], pg: str | None, tmp: Path, site: Site, protocol: bool = False
) -> list[Round]:
    """Each N's rounds on the deployment ``mode``; with ``protocol``, instead, one booking
    on a deployment whose Playwright drivers log their protocol (``DEBUG=pw:protocol``),
    its DevTools commands counted into ``commands[mode]``."""
    env = dict(os.environ)
    if protocol:
        env["DEBUG"] = "pw:protocol"
        tmp = tmp / "protocol"
        tmp.mkdir(exist_ok=True)
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
    serve_log = tmp / f"{mode}-serve.log"
    if mode == "script":
        tokens = [f"script{n}" for n in range(max(counts))]
        script = (sys.executable, str(_HERE / "script_server.py"))
        procs = [_spawn(["--site", site.url], env, serve_log, script)]
    else:
        tokens = await _make_tokens(env["GOFER_TOKENS"], max(counts), env)
        # On PostgreSQL the server takes the calls and the workers run the browsers, as
        # docs/operations.md advises; on SQLite the server runs them all.
        runs = ["--per-process", "0"] if mode == "postgres" else []
        procs = [_spawn(["serve", "--port", "0", "--allow-private", *runs], env, serve_log)]
    rounds: list[Round] = []
    try:
        with _stopped(procs):
            url = await _printed_url(procs[0], serve_log, "gofer serving on ")
            if mode == "postgres":
                for n in range(2):
                    procs.append(_spawn(["worker"], env, tmp / f"{mode}-worker{n}.log"))
            dep = Deployment(url, tokens, procs)
            async with httpx.AsyncClient(base_url=url, timeout=AWAIT_MS / 1000 + 30) as client:
                await warm_up(client, dep, site, mode)
                idle = memory(dep.pids)
                if protocol:
                    since = datetime.now(UTC)
                    await one_round(client, dep, site, 1, idle.chromium_procs, shares=False)
                    logs = [serve_log, *(tmp / f"{mode}-worker{n}.log" for n in range(2))]
                    commands[mode] = sent_between(logs, since, datetime.now(UTC))
                    return []
                for count in counts:
                    timed = await one_round(
                        client, dep, site, count, idle.chromium_procs, shares=False
                    )
                    sized = await one_round(client, dep, site, count, idle.chromium_procs)
                    rounds.append(timed.sized_by(sized))
                    print(f"{mode}: {count} at once done in {rounds[-1].wall_s:.2f} s", flush=True)
    finally:
        if database and pg:
            with psycopg.connect(pg, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    print_tables(mode, rounds, idle)
    _verdict(mode, rounds)
    return rounds


def _beside_script(found: dict[str, list[Round]]) -> None:
    """CPU per booking and memory per added task of each gofer deployment beside the
    hand-written script's, at each N."""
    script = {r.count: r for r in found.get("script", [])}
    for mode, rounds in found.items():
        for r in rounds if mode != "script" else []:
            s = script.get(r.count)
            if s is None or not s.count:
                continue
            cpu_g = (r.gofer_cpu_s + r.chromium_cpu_s) / r.count
            cpu_s = (s.gofer_cpu_s + s.chromium_cpu_s) / s.count
            print(
                f"  {mode} beside the script, {r.count} at once: CPU per booking (site left "
                f"out) {cpu_g:.2f} s vs {cpu_s:.2f} s, {cpu_g / cpu_s:.2f}x (target <= 1.1); "
                f"p50 {statistics.median(r.each_s or [0]):.2f} s vs "
                f"{statistics.median(s.each_s or [0]):.2f} s"
            )


def _commands_beside_script() -> None:
    """The DevTools commands of one booking of each deployment beside the script's."""
    script = commands.get("script")
    for mode, sent in commands.items():
        line = f"  {mode}: {sent} DevTools commands for one booking (its context made and closed)"
        if mode != "script" and script:
            beyond = (sent - script) / BOOKING_ACTIONS
            line += (
                f", the script {script}: {beyond:.1f} an action beyond the script's "
                f"({BOOKING_ACTIONS} actions; target <= 2)"
            )
        print(line)


def _verdict(mode: str, rounds: list[Round]) -> None:
    one = next((r for r in rounds if r.count == 1), None)
    eight = next((r for r in rounds if r.count == 8), None)
    if one is None or eight is None:
        return
    ratio = eight.wall_s / one.wall_s
    rss = (eight.peak.total_mb - one.peak.total_mb) / 7
    pss = (eight.peak.pss_mb - one.peak.pss_mb) / 7
    uss = (eight.peak.uss_mb - one.peak.uss_mb) / 7
    cores = os.cpu_count() or 1
    used = eight.gofer_cpu_s + eight.chromium_cpu_s + eight.site_cpu_s
    print(
        f"  {mode} targets: 8 at once took {ratio:.2f}x one booking (at most 4x: "
        f"{'met' if ratio <= 4 else 'missed'}); each added task costs {pss:.0f} MB PSS "
        f"(at most 150 MB: {'met' if pss <= 150 else 'missed'}), of which {uss:.0f} MB its "
        f"own (USS); {rss:.0f} MB summed RSS, which counts the pages the Chromium binary "
        "shares among its processes once in each\n"
        f"  {mode}: the 8 used {used:.1f} CPU s, at least {used / cores:.1f} s on {cores} "
        f"idle cores ({used / cores / one.wall_s:.2f}x one booking's wall time)",
        flush=True,
    )


async def bench(counts: list[int], modes: list[str], pg: str | None) -> int:
    with tempfile.TemporaryDirectory(prefix="gofer-concurrent-") as name:
        tmp = Path(name)
        log = tmp / "site.log"
        site_proc = _spawn(["demo-site", "--port", "0", "--seed", "7"], dict(os.environ), log)
        with _stopped([site_proc]):
            url = await _printed_url(site_proc, log, "Serving the demo airline on ")
            site = Site(url, site_proc.pid)
            found = {mode: await run_mode(mode, counts, pg, tmp, site) for mode in modes}
            for mode in modes:
                await run_mode(mode, [1], pg, tmp, site, protocol=True)
    bad = sum(r.lost + r.failed for rounds in found.values() for r in rounds)
    _beside_script(found)
    _commands_beside_script()
    print(f"\nbookings lost or failed: {bad} (target 0)")
    return 1 if bad else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--counts", default="1,4,8,16", help="bookings at once per round")
    parser.add_argument(
        "--modes", default="script,sqlite,postgres", help="script, sqlite and/or postgres"
    )
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
    if unknown := set(modes) - {"script", "sqlite", "postgres"}:
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
