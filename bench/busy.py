"""The same CMS flow on a quiet page and on a busy one, side by side.

    .venv/bin/python bench/busy.py [--rounds N]

Two copies of one content admin (tests/e2e/sites/cms.py) are served: a quiet one,
and a busy one whose every page also polls a notifications endpoint every 250 ms,
spins an icon with an endless CSS animation and runs a clock that ticks every
second. Each round runs the same flow with ``gofer.runtime.run_flow`` (default
settings) on both, alternating which goes first: open the posts list, write a new
post (title, summary, category, publish date, featured), save it, go back to the
list and read it. Each run gets a fresh browser context made before the clock
starts and is timed from its first navigation to its end. Prints each round's
times, the slowest step of each run, and the median ratio busy / quiet. Exits
non-zero when a run did not complete or the site did not get the post. Target:
ratio at most 1.3. The figures are printed, never asserted on timing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

# the repository's root, for the test sites
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.e2e.sites import cms
from tests.e2e.sites.base import Site, serve

from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunResult, RunStatus, Workspace, run_flow
from gofer.surfaces import OPERATOR, BrowserEngine, BrowserOptions


class BenchFailed(Exception):
    """A run did not do what the benchmark needs; the message says what."""


async def by_runtime(engine: BrowserEngine, site: Site) -> tuple[float, RunResult]:
    """Seconds the flow took on ``site`` in a fresh workspace, and the run's result."""
    flow = parse_flow({"vars": {"posts": []}, "steps": [{"browse": site.url("/posts")}, *cms.FLOW]})
    saved = len(site.sent("/api/posts"))
    async with Workspace(engine, BrowserOptions()) as workspace:
        await workspace.browser()  # the context is made before the clock starts
        started = time.perf_counter()
        result = await run_flow(RunRequest(flow=flow), workspace)
        elapsed = time.perf_counter() - started
    kind = "busy" if site.state["busy"] else "quiet"
    if result.status is not RunStatus.COMPLETED:
        reason = result.failure.reason if result.failure else result.reason
        raise BenchFailed(f"the {kind} run ended {result.status.value}: {reason}")
    posted = site.sent("/api/posts")[saved:]
    titles = [p.get("title") for p in posted]
    if titles != [cms.FLOW_TITLE] or posted[0].get("featured") is not True:
        raise BenchFailed(f"the {kind} site got {posted!r}, not the one featured post")
    if cms.FLOW_TITLE not in str(result.variables.get("posts")):
        raise BenchFailed(f"the {kind} run read back {result.variables.get('posts')!r}")
    return elapsed, result


def slowest(result: RunResult) -> str:
    """The run's slowest top-level step, as "kind path: seconds"."""
    top = [r for r in result.steps if "." not in r.path]
    worst = max(top, key=lambda r: r.duration_ms or 0)
    return f"{worst.kind} {worst.path} {(worst.duration_ms or 0) / 1000:.2f} s"


async def bench(rounds: int) -> int:
    ratios: list[float] = []
    async with (
        serve(cms.build(busy=False)) as quiet,
        serve(cms.build(busy=True)) as busy,
        BrowserEngine(policy=OPERATOR) as engine,
    ):
        # one unmeasured pass of each warms the browser, the sites and Python's imports
        await by_runtime(engine, quiet)
        await by_runtime(engine, busy)
        for n in range(1, rounds + 1):
            quiet_first = n % 2 == 1
            if quiet_first:
                q, q_result = await by_runtime(engine, quiet)
                b, b_result = await by_runtime(engine, busy)
            else:
                b, b_result = await by_runtime(engine, busy)
                q, q_result = await by_runtime(engine, quiet)
            ratios.append(b / q)
            order = "quiet first" if quiet_first else "busy first"
            print(
                f"round {n}: quiet {q:.2f} s (slowest {slowest(q_result)}), busy {b:.2f} s "
                f"(slowest {slowest(b_result)}), ratio {b / q:.2f} ({order})",
                flush=True,
            )
        polls = busy.state["polls"]
    print(f"median ratio busy / quiet: {statistics.median(ratios):.2f} (target <= 1.3)")
    print(f"the busy site answered {polls} notification polls")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=5, help="measured rounds (default 5)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    try:
        return asyncio.run(bench(args.rounds))
    except BenchFailed as failed:
        print(f"bench failed: {failed}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
