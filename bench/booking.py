"""The demo booking through the runtime against the same booking written by hand.

    .venv/bin/python bench/booking.py [--rounds N]
    .venv/bin/python bench/booking.py --tasks [--rounds N] [--pg URL]

One Chromium and one demo site serve every round. Each round books the cheapest
Delhi to Srinagar flight on 14 October up to the payment page twice, once with
``gofer.runtime.run_flow`` and once with :func:`bench.handwritten.book_by_hand`,
alternating which goes first. Both get a fresh browser context, made before the
clock starts; each is timed from its first navigation to its stop in front of
"Pay now". The demo airline runs as ``gofer demo-site``, a process of its own.

Prints each round's times and CPU seconds, then the medians: wall time and CPU per
booking, runtime / hand-written. CPU counts every process a booking runs in
(Chromium's, Playwright's driver and Python), read from ``/proc`` before and after
each booking (the readings' own cost taken off; the site's process left out). Then,
from one more booking of each on a browser whose driver logs its protocol
(``DEBUG=pw:protocol``), the DevTools commands each sent, per action of the
runtime's and beyond the hand-written's, and the methods that differ most; then the
median milliseconds per grounding decision (from the runs' traces) and the
process's peak RSS. Exits non-zero when a run did not stop at the payment gate or
the two found different cheapest flights. Targets: wall time at most 1.15x, CPU at
most 1.1x, at most 2 DevTools commands per action beyond the hand-written's,
grounding at most 30 ms per decision. The figures are printed, never asserted on
timing.

``--tasks`` books through the task controller instead, each round once on the
in-memory controller and once as a durable task on SQLite (and on PostgreSQL with
``--pg URL`` or GOFER_TEST_PG_URL), alternating which goes first, each timed from
``start_task`` to ``await_task`` answering the payment checkpoint. It prints the
median ratio durable / in-memory. Target: at most 1.05.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

from costs import Cpu, CpuMeter, commands_between, mark, protocol_log, sent_methods
from handwritten import book_by_hand
from playwright.async_api import Browser, CDPSession

from gofer.cli import DEMO_FACTS, demo_flow
from gofer.demo import DemoServer
from gofer.facts import Facts
from gofer.flow import Flow, parse_flow
from gofer.runtime import RunRequest, RunResult, RunStatus, Workspace, run_flow
from gofer.store import Connector
from gofer.store.postgres import PostgresConnector
from gofer.store.sqlite import SQLiteConnector
from gofer.surfaces import OPERATOR, BrowserEngine, BrowserOptions
from gofer.tasks import Tasks, WorkspaceRunner

FACTS = DEMO_FACTS


def booking_flow(url: str) -> Flow:
    """The booking as a flow: search, sort, pick the cheapest, passengers, stop before paying."""
    return parse_flow(demo_flow(url))


class BenchFailed(Exception):
    """A run did not do what the benchmark needs; the message says what."""


class Clock:
    """Wall time and CPU of what runs between :meth:`start` and :meth:`stop`; with a
    protocol session, marks in the protocol log at both ends."""

    def __init__(self, meter: CpuMeter, session: CDPSession | None = None) -> None:
        self.meter = meter
        self.session = session
        self.wall_s = 0.0
        self.cpu = Cpu()
        self._began = Cpu()
        self._started = 0.0

    async def start(self) -> None:
        if self.session is not None:
            await mark(self.session)
        self._began = self.meter.read()
        self._started = time.perf_counter()

    async def stop(self) -> None:
        self.wall_s = time.perf_counter() - self._started
        self.cpu = self.meter.used(self._began, self.meter.read())
        if self.session is not None:
            await mark(self.session)


async def by_runtime(engine: BrowserEngine, url: str, clock: Clock) -> tuple[float, RunResult]:
    """Seconds the flow took on a fresh workspace, and the run's result."""
    facts = Facts(FACTS)
    request = RunRequest(flow=booking_flow(url), variables=dict(FACTS), mask=facts.mask)
    async with Workspace(engine, BrowserOptions()) as workspace:
        await workspace.browser()  # the context is made before the clock starts
        await clock.start()
        result = await run_flow(request, workspace)
        await clock.stop()
        elapsed = clock.wall_s
    if result.status is not RunStatus.GATED or result.gate is None:
        reason = result.failure.reason if result.failure else result.reason
        raise BenchFailed(f"the run ended {result.status.value}, not at the gate: {reason}")
    if "pay" not in result.gate.label.casefold():
        raise BenchFailed(f"the run stopped before {result.gate.label!r}, not Pay now")
    return elapsed, result


async def shared_browser(engine: BrowserEngine) -> Browser:
    """The engine's Chromium, for plain Playwright contexts without gofer's page helper."""
    session = await engine.new_session(BrowserOptions())
    try:
        browser = session.context.browser
    finally:
        await session.close()
    if browser is None:
        raise BenchFailed("the session's context has no browser")
    return browser


async def by_hand(browser: Browser, url: str, clock: Clock) -> tuple[float, str]:
    """Seconds the hand-written booking took on a fresh context, and the flight it found."""
    width, height = BrowserOptions().viewport
    context = await browser.new_context(viewport={"width": width, "height": height})
    try:
        context.set_default_timeout(10_000)
        page = await context.new_page()
        await clock.start()
        found = await book_by_hand(page, url, FACTS)
        await clock.stop()
        elapsed = clock.wall_s
    finally:
        await context.close()
    return elapsed, found


def _fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).casefold()


def same_flight(read: str, by_hand_found: str) -> bool:
    """Whether the runtime's reading holds the airline, time and price found by hand."""
    return all(_fold(part) in _fold(read) for part in by_hand_found.split(", "))


def ground_ms(result: RunResult) -> list[float]:
    """Milliseconds of every grounding decision in the run's trace."""
    found: list[float] = []
    for ev in result.trace:
        ms = ev.detail.get("ms")
        if ev.event == "ground" and isinstance(ms, int | float):
            found.append(float(ms))
    return found


@asynccontextmanager
async def demo_site() -> AsyncIterator[tuple[str, int]]:
    """The demo airline in a process of its own: its address and pid."""
    gofer = str(Path(sys.executable).with_name("gofer"))
    proc = await asyncio.create_subprocess_exec(
        gofer,
        *("demo-site", "--port", "0", "--seed", "7"),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        assert proc.stdout is not None
        prefix = "Serving the demo airline on "
        async with asyncio.timeout(60):
            while line := (await proc.stdout.readline()).decode():
                if line.startswith(prefix):
                    break
        if not line:
            raise BenchFailed(f"gofer demo-site exited {await proc.wait()} without an address")
        # nothing reads its output from here on: a full pipe must not stop the site
        drain = asyncio.ensure_future(proc.stdout.read())
        try:
            yield line.removeprefix(prefix).split()[0], proc.pid
        finally:
            drain.cancel()
    finally:
        if proc.returncode is None:
            proc.terminate()
            await proc.wait()


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b > 0 else "n/a"


async def count_commands(url: str) -> None:
    """One booking of each on a browser whose driver logs its protocol: the DevTools
    commands each sent between its clock's start and stop."""
    meter = CpuMeter()
    with tempfile.TemporaryDirectory(prefix="gofer-protocol-") as tmp:
        log = Path(tmp) / "protocol.log"
        async with BrowserEngine(policy=OPERATOR) as engine:
            with protocol_log(log):
                browser = await shared_browser(engine)
            session = await browser.new_browser_cdp_session()
            _, result = await by_runtime(engine, url, Clock(meter, session))
            await by_hand(browser, url, Clock(meter, session))
            await session.detach()
        methods = sent_methods(log)
    runtime, hand = commands_between(methods, 0), commands_between(methods, 2)
    actions = result.spend.actions
    gofer_n, hand_n = sum(runtime.values()), sum(hand.values())
    print(
        f"DevTools commands: runtime {gofer_n} for {actions} actions "
        f"({gofer_n / actions:.1f} an action), by hand {hand_n} "
        f"({hand_n / actions:.1f} an action): {(gofer_n - hand_n) / actions:.1f} an action "
        "beyond the hand-written (target <= 2)"
    )
    diff = {m: runtime[m] - hand[m] for m in runtime.keys() | hand.keys()}
    top = sorted(diff.items(), key=lambda kv: -abs(kv[1]))[:12]
    print("  runtime - by hand, by method: " + ", ".join(f"{m} {d:+d}" for m, d in top if d))


async def bench(rounds: int) -> int:
    ratios: list[float] = []
    cpu_ratios: list[float] = []
    cpus: dict[str, list[Cpu]] = {"runtime": [], "hand": []}
    grounds: list[float] = []
    async with demo_site() as (url, site_pid), BrowserEngine(policy=OPERATOR) as engine:
        meter = CpuMeter(leave_out=frozenset({site_pid}))
        browser = await shared_browser(engine)
        # one unmeasured pass of each warms the browser, the site and Python's imports
        await by_runtime(engine, url, Clock(meter))
        await by_hand(browser, url, Clock(meter))
        for n in range(1, rounds + 1):
            runtime_first = n % 2 == 1
            rt_clock, hand_clock = Clock(meter), Clock(meter)
            if runtime_first:
                rt, result = await by_runtime(engine, url, rt_clock)
                hand, found = await by_hand(browser, url, hand_clock)
            else:
                hand, found = await by_hand(browser, url, hand_clock)
                rt, result = await by_runtime(engine, url, rt_clock)
            cheapest = str(result.variables.get("cheapest", ""))
            if not same_flight(cheapest, found):
                raise BenchFailed(
                    f"different cheapest flights: runtime read {cheapest!r}, by hand {found!r}"
                )
            ms = ground_ms(result)
            if not ms:
                raise BenchFailed("the run's trace holds no grounding decisions")
            grounds.extend(ms)
            ratios.append(rt / hand)
            cpu_ratios.append(rt_clock.cpu.total / hand_clock.cpu.total)
            cpus["runtime"].append(rt_clock.cpu)
            cpus["hand"].append(hand_clock.cpu)
            order = "runtime first" if runtime_first else "hand first"
            steps = sum(r.duration_ms or 0 for r in result.steps if "." not in r.path)
            print(
                f"round {n}: runtime {rt:.2f} s (steps {steps / 1000:.2f} s, "
                f"{result.spend.actions} actions), by hand {hand:.2f} s, "
                f"ratio {rt / hand:.2f} ({order}); CPU runtime {rt_clock.cpu.line()}, "
                f"by hand {hand_clock.cpu.line()}, ratio "
                f"{_ratio(rt_clock.cpu.total, hand_clock.cpu.total)}; grounding median "
                f"{statistics.median(ms):.1f} ms over {len(ms)}",
                flush=True,
            )
        await count_commands(url)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024

    def median(side: str) -> Cpu:
        found = cpus[side]
        return Cpu(
            statistics.median(c.chromium for c in found),
            statistics.median(c.driver for c in found),
            statistics.median(c.python for c in found),
        )

    print(
        f"median wall time ratio runtime / hand-written: {statistics.median(ratios):.2f} "
        "(target <= 1.15)"
    )
    print(
        f"median CPU ratio runtime / hand-written: {statistics.median(cpu_ratios):.2f} "
        f"(target <= 1.1); median CPU per booking: runtime {median('runtime').line()}, "
        f"by hand {median('hand').line()}"
    )
    overhead_ms = 1000 * statistics.median(meter.overhead_s)
    print(f"the bench's own CPU reading: {overhead_ms:.2f} ms each, taken off Python's share")
    print(
        f"median grounding decision: {statistics.median(grounds):.2f} ms over "
        f"{len(grounds)} decisions, max {max(grounds):.2f} ms (target <= 30 ms)"
    )
    print(f"peak RSS: this process {peak_mb:.0f} MB, largest exited child {children_mb:.0f} MB")
    return 0


async def by_task(engine: BrowserEngine, url: str, store: Connector | None) -> float:
    """Seconds from ``start_task`` to the payment checkpoint, on ``store`` (None: the
    in-memory controller)."""
    request = {"flow": demo_flow(url), "facts": FACTS}
    async with WorkspaceRunner(engine=engine) as runner, Tasks(runner, store=store) as tasks:
        started = time.perf_counter()
        view = await tasks.start_task(request)
        view = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        elapsed = time.perf_counter() - started
    if view.status.state != "checkpoint":
        raise BenchFailed(
            f"the task ended {view.status.state}, not at the checkpoint: {view.summary}"
        )
    return elapsed


async def bench_tasks(rounds: int, pg_url: str | None) -> int:
    ratios: dict[str, list[float]] = {"sqlite": [], "postgres": []}
    with tempfile.TemporaryDirectory() as tmp:
        stores: dict[str, Connector] = {"sqlite": SQLiteConnector(Path(tmp) / "bench.db")}
        if pg_url:
            stores["postgres"] = PostgresConnector(pg_url)
        async with (
            DemoServer(seed=7) as site,
            BrowserEngine(policy=OPERATOR) as engine,
            AsyncExitStack() as opened,
        ):
            for store in stores.values():
                await opened.enter_async_context(store)
            await by_task(engine, site.url, None)  # warms the browser, the site, imports
            for store in stores.values():
                await by_task(engine, site.url, store)
            for n in range(1, rounds + 1):
                for name, store in stores.items():
                    memory_first = n % 2 == 1
                    if memory_first:
                        memory = await by_task(engine, site.url, None)
                        durable = await by_task(engine, site.url, store)
                    else:
                        durable = await by_task(engine, site.url, store)
                        memory = await by_task(engine, site.url, None)
                    ratios[name].append(durable / memory)
                    order = "in-memory first" if memory_first else "durable first"
                    print(
                        f"round {n}: in-memory {memory:.2f} s, durable on {name} "
                        f"{durable:.2f} s, ratio {durable / memory:.3f} ({order})",
                        flush=True,
                    )
    for name, found in ratios.items():
        if found:
            print(
                f"median ratio durable on {name} / in-memory: "
                f"{statistics.median(found):.3f} (target <= 1.05)"
            )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5, help="measured rounds (default 5)")
    parser.add_argument(
        "--tasks", action="store_true", help="durable tasks against the in-memory controller"
    )
    parser.add_argument(
        "--pg",
        metavar="URL",
        default=os.environ.get("GOFER_TEST_PG_URL"),
        help="also on this PostgreSQL (with --tasks)",
    )
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    try:
        if args.tasks:
            return asyncio.run(bench_tasks(args.rounds, args.pg))
        return asyncio.run(bench(args.rounds))
    except BenchFailed as failed:
        print(f"bench failed: {failed}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
