"""``await_task`` over HTTP: how soon a long-poll wakes after a change, and 200 of them
held at once by one server process.

    .venv/bin/python bench/await_http.py [--rounds N] [--polls P]

The server is ``gofer serve``'s: :class:`GoferServer` (uvicorn) over the controller
on a SQLite store, its runs scripted so a run ends exactly when the bench says (a
held run answers "needs approval" once released). The change is that release.

1. Wake-up: each round starts a held task, opens one long-poll (``await_task`` with
   a 30 s timeout) over HTTP and one through the Python API in-process (the
   baseline: the same controller and store, no HTTP), alternating which round goes
   first, releases the run and times release → answer. Prints every round and the
   medians, and the ratio HTTP / in-process. Target: HTTP median within 50 ms.
2. Held: P held tasks (default 200), and P long-polls on them from another process
   (this script with ``--load``, one connection each), so the server's figures are
   its own: the server process's resident memory before and while the polls are
   held (and per poll); then N tasks released one at a time while the others' polls
   stay held, each one's release → answer (median, target within 50 ms, and its
   ratio to one poll alone); then the rest released at once, each poll's release →
   answer (median, p99, max), beside the same through the Python API in-process.
   Every poll must answer with the new view, none before its release.

The figures are printed, never asserted on timing; exits non-zero when a poll
answered wrong or early. The machine is shared: compare ratios, not absolute numbers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

# bench/ holds a queue.py: keep it off the path, or ``import queue`` would load it
sys.path.remove(str(Path(__file__).resolve().parent))

import httpx

from gofer.api import GoferServer, MemoryTokenStore
from gofer.runtime import RunRequest, RunResult
from gofer.store import SQLiteConnector
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import gate
from gofer.tasks.worker import TurnLimits

FLOW = [{"browse": "https://shop.example.com/"}, {"stop_before": "confirming the booking"}]
POLL_TIMEOUT_MS = 30_000


class BenchFailed(Exception):
    """A poll did not do what the benchmark needs; the message says what."""


def rss_kb() -> int:
    """This process's resident memory, kB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class Held:
    """Scripted runs that end (needs approval) when released: one at a time, or all."""

    def __init__(self, runner: ScriptedRunner) -> None:
        self.runner = runner
        self.waiting: list[asyncio.Event] = []
        self.changed = asyncio.Event()

    def add(self, count: int) -> None:
        async def held(request: RunRequest) -> RunResult:
            go = asyncio.Event()
            self.waiting.append(go)
            self.changed.set()
            await go.wait()
            result = gate("1", "Confirm booking")(request)
            assert isinstance(result, RunResult)
            return result

        self.runner.add(*[held] * count)

    async def running(self, count: int) -> None:
        while len(self.waiting) < count:
            self.changed.clear()
            await self.changed.wait()

    def release_one(self) -> float:
        self.waiting.pop(0).set()
        return time.monotonic()

    def release(self) -> float:
        for go in self.waiting:
            go.set()
        self.waiting.clear()
        return time.monotonic()


async def wake_round(tasks: Tasks, held: Held, poll: Callable[[str], Awaitable[str]]) -> float:
    """Seconds from releasing one held run to its long-poll's answer."""
    held.add(1)
    view = await tasks.start_task({"flow": FLOW})
    await held.running(1)
    waiting = asyncio.ensure_future(poll(view.id))
    await asyncio.sleep(0.2)  # the poll is in: the server holds it
    if waiting.done():
        raise BenchFailed(f"a long-poll answered before the change: {waiting.result()!r}")
    released = held.release()
    state = await waiting
    answered = time.monotonic()
    if state != "needs_approval":
        raise BenchFailed(f"a long-poll answered {state!r}, not needs_approval")
    return answered - released


async def bench(rounds: int, polls: int) -> int:
    tokens = MemoryTokenStore()
    token = (await tokens.create("bench")).token
    runner = ScriptedRunner()
    held = Held(runner)
    limits = TurnLimits(per_owner=polls + 10, per_process=polls + 10)
    with tempfile.TemporaryDirectory(prefix="gofer-bench-") as tmp:
        async with (
            SQLiteConnector(Path(tmp) / "gofer.db") as db,
            Tasks(runner, store=db, limits=limits) as tasks,
            GoferServer(tasks, tokens) as server,
            httpx.AsyncClient(
                base_url=server.url, timeout=60, headers={"Authorization": f"Bearer {token}"}
            ) as client,
        ):
            mine = tasks.for_owner("bench")

            async def over_http(task_id: str) -> str:
                response = await client.post(
                    "/v1/calls/await_task", json={"id": task_id, "timeout_ms": POLL_TIMEOUT_MS}
                )
                return str(response.json()["status"]["state"])

            async def in_process(task_id: str) -> str:
                view = await mine.await_task({"id": task_id, "timeout_ms": POLL_TIMEOUT_MS})
                return str(view.status.state)

            # one unmeasured round of each warms the server, the store and the imports
            await wake_round(mine, held, over_http)
            await wake_round(mine, held, in_process)
            http_s: list[float] = []
            local_s: list[float] = []
            for n in range(1, rounds + 1):
                http_first = n % 2 == 1
                for kind in ("http", "local") if http_first else ("local", "http"):
                    if kind == "http":
                        http_s.append(await wake_round(mine, held, over_http))
                    else:
                        local_s.append(await wake_round(mine, held, in_process))
                print(
                    f"round {n}: HTTP {http_s[-1] * 1000:.1f} ms, in-process "
                    f"{local_s[-1] * 1000:.1f} ms "
                    f"({'HTTP' if http_first else 'in-process'} first)",
                    flush=True,
                )
            wake_http = statistics.median(http_s)
            wake_local = statistics.median(local_s)
            print(
                f"median wake-up over HTTP: {wake_http * 1000:.1f} ms (target <= 50 ms); "
                f"in-process: {wake_local * 1000:.1f} ms; ratio HTTP / in-process: "
                f"{wake_http / wake_local:.2f}"
            )
            await held_polls(server.url, token, mine, held, polls, wake_http, rounds)
    return 0


async def held_polls(
    url: str, token: str, tasks: Tasks, held: Held, polls: int, single_s: float, singles_n: int
) -> None:
    """P long-polls from another process on P held tasks, then all released at once;
    the same with P waits through the Python API in-process as the baseline."""
    held.add(polls)
    ids = [(await tasks.start_task({"flow": FLOW})).id for _ in range(polls)]
    await held.running(polls)
    before = rss_kb()
    load = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--load", url, token, *ids, stdout=subprocess.PIPE
    )
    assert load.stdout is not None
    line = await load.stdout.readline()
    if line.strip() != b"sent":
        raise BenchFailed(f"the load process said {line!r}")
    await asyncio.sleep(2.0)  # every poll reaches the server and waits there
    during = rss_kb()
    print(
        f"{polls} long-polls held by one server process: resident memory "
        f"{before / 1024:.1f} MB before, {during / 1024:.1f} MB while held "
        f"({(during - before) / polls:.1f} kB a poll)"
    )
    singles: list[float] = []
    for _ in range(min(singles_n, polls - 1)):
        released = held.release_one()
        singles.extend(_waits([json.loads(await load.stdout.readline())], released, 1))
        await asyncio.sleep(0.05)
    if singles:
        print(
            f"one task at a time changed while the others' polls are held: its poll "
            f"answered after median {_ms(statistics.median(singles))} (target <= 50 ms), "
            f"max {_ms(max(singles))}; ratio to one poll alone: "
            f"{statistics.median(singles) / single_s:.2f}"
        )
    rest = polls - len(singles)
    released = held.release()
    out, _ = await load.communicate()
    over_http = _waits([json.loads(line) for line in out.splitlines()], released, rest)

    held.add(polls)
    ids = [(await tasks.start_task({"flow": FLOW})).id for _ in range(polls)]
    await held.running(polls)

    async def wait(task_id: str) -> dict[str, object]:
        view = await tasks.await_task({"id": task_id, "timeout_ms": POLL_TIMEOUT_MS})
        return {"at": time.monotonic(), "state": str(view.status.state)}

    waiting = [asyncio.ensure_future(wait(task_id)) for task_id in ids]
    await asyncio.sleep(2.0)
    released = held.release()
    in_process = _waits(list(await asyncio.gather(*waiting[:rest])), released, rest)
    await asyncio.gather(*waiting[rest:])
    for name, waits in (("over HTTP", over_http), ("in-process", in_process)):
        print(
            f"the other {rest} released at once, {name}: each answered after median "
            f"{_ms(statistics.median(waits))}, p99 {_ms(waits[round(0.99 * (rest - 1))])}, "
            f"max {_ms(waits[-1])}"
        )
    print(
        f"ratio of medians HTTP / in-process at {rest} at once: "
        f"{statistics.median(over_http) / statistics.median(in_process):.2f} (the runs' "
        f"own ends, journaled one by one, set the pace)"
    )


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _waits(answers: list[dict[str, object]], released: float, polls: int) -> list[float]:
    """Each answer's seconds after the release, sorted; every one must be the new view
    and none may come before the release."""
    at = [float(a["at"]) for a in answers]  # type: ignore[arg-type]
    wrong = [a for a in answers if a["state"] != "needs_approval"]
    early = [t for t in at if t < released]
    if len(answers) != polls or early or wrong:
        raise BenchFailed(
            f"{len(answers)} of {polls} polls answered; {len(early)} before "
            f"the change, {len(wrong)} not needs_approval: {wrong[:3]!r}"
        )
    return sorted(t - released for t in at)


async def load(url: str, token: str, ids: list[str]) -> None:
    """The other process: one long-poll per id, each on its own connection; prints
    ``sent`` once all are on their way, then each answer's state and time as a JSON
    line, as it comes."""
    limits = httpx.Limits(max_connections=len(ids) + 10, max_keepalive_connections=0)
    async with httpx.AsyncClient(
        base_url=url, timeout=60, limits=limits, headers={"Authorization": f"Bearer {token}"}
    ) as client:

        async def poll(task_id: str) -> dict[str, object]:
            response = await client.post(
                "/v1/calls/await_task", json={"id": task_id, "timeout_ms": POLL_TIMEOUT_MS}
            )
            return {"at": time.monotonic(), "state": response.json()["status"]["state"]}

        running = [asyncio.ensure_future(poll(task_id)) for task_id in ids]
        await asyncio.sleep(0)
        print("sent", flush=True)
        for answered in asyncio.as_completed(running):
            print(json.dumps(await answered), flush=True)


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--load":
        asyncio.run(load(sys.argv[2], sys.argv[3], sys.argv[4:]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=15, help="measured rounds (default 15)")
    parser.add_argument(
        "--polls", type=int, default=200, help="long-polls held at once (default 200)"
    )
    args = parser.parse_args()
    if args.rounds < 1 or args.polls < 1:
        parser.error("--rounds and --polls must be at least 1")
    try:
        return asyncio.run(bench(args.rounds, args.polls))
    except BenchFailed as failed:
        print(f"bench failed: {failed}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
