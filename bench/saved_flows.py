"""A saved flow's rerun beside its first, planned run: model calls and time.

    .venv/bin/python bench/saved_flows.py [--rounds N] [--model-delay-s S]

One Chromium and one demo site serve every round; every model pass is configured on
one scripted OpenAI-compatible endpoint (loopback), answering after ``--model-delay-s``
(0 by default: the figures then show gofer's own time; a hosted model adds its
latency to each of the planned run's calls). Each round books the cheapest Delhi to
Srinagar flight on 14 October up to the payment checkpoint twice as a task: once
planned from plain words, once from the flow the first round saved (with the
grounding hints its run learned) with other passenger details. Each is timed from
``start_task`` to ``await_task`` answering the checkpoint. Prints each round's model
calls and seconds and the medians; exits non-zero when a run does not reach the
payment checkpoint or the rerun calls a model.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from gofer.cli import DEMO_FACTS, demo_flow
from gofer.demo import DemoServer
from gofer.models import ChatServer, ModelsConfig, Reply
from gofer.surfaces import OPERATOR, BrowserEngine
from gofer.tasks import Tasks, WorkspaceRunner
from gofer.wiring import ModelPasses, store_for

OTHER = {**DEMO_FACTS, "first name": "Kiran", "last name": "Das", "email": "kiran@example.com"}


class BenchFailed(Exception):
    """A run did not do what the benchmark needs; the message says what."""


async def timed(tasks: Tasks, request: dict[str, Any]) -> tuple[str, float, int]:
    """The task's id, its seconds from start to the checkpoint, and its model calls."""
    started = time.perf_counter()
    view = await tasks.start_task(request)
    done = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
    elapsed = time.perf_counter() - started
    if done.status.state != "checkpoint":
        raise BenchFailed(f"task {view.id} ended {done.status.state}: {done.summary}")
    report = await tasks.task_report({"id": view.id})
    return view.id, elapsed, report.spend.model_calls


async def bench(rounds: int, delay_s: float) -> int:
    rows: list[tuple[float, int, float, int]] = []
    with tempfile.TemporaryDirectory() as tmp, ChatServer() as chat:
        chat.default = Reply(text=json.dumps({"steps": []}), delay_s=delay_s)
        async with (
            DemoServer(seed=7) as demo,
            BrowserEngine(policy=OPERATOR) as engine,
            store_for(str(Path(tmp) / "gofer.db")) as db,
            ModelPasses(ModelsConfig.on_endpoint(chat.base_url, "sk-bench")) as passes,
            WorkspaceRunner(engine=engine, decider=passes.decider) as runner,
            Tasks(runner, store=db, **passes.for_tasks()) as tasks,
        ):
            plan = "Here is the flow:\n" + json.dumps(demo_flow(demo.url))
            constraints = {"origins": [demo.url.rstrip("/")]}
            for n in range(rounds):
                chat.add(Reply(text=plan, delay_s=delay_s))
                task_id, planned_s, planned_calls = await timed(
                    tasks,
                    {
                        "task": f"Book the cheapest Delhi to Srinagar flight on 14 October on "
                        f"{demo.url} with my details, up to payment",
                        "facts": DEMO_FACTS,
                        "constraints": constraints,
                    },
                )
                if n == 0:
                    await tasks.flows.save({"name": "demo booking", "task_id": task_id})
                _id, rerun_s, rerun_calls = await timed(
                    tasks,
                    {
                        "saved_flow": {"name": "demo booking"},
                        "facts": OTHER,
                        "constraints": constraints,
                    },
                )
                if rerun_calls:
                    raise BenchFailed(f"the rerun made {rerun_calls} model calls")
                rows.append((planned_s, planned_calls, rerun_s, rerun_calls))
                print(
                    f"round {n + 1}: planned {planned_s:.2f} s, {planned_calls} model calls; "
                    f"saved-flow rerun {rerun_s:.2f} s, {rerun_calls} model calls"
                )
    planned = statistics.median(r[0] for r in rows)
    rerun = statistics.median(r[2] for r in rows)
    print(
        f"median: planned {planned:.2f} s, rerun {rerun:.2f} s "
        f"(rerun / planned {rerun / planned:.2f}); model delay {delay_s:.1f} s per call"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--model-delay-s", type=float, default=0.0)
    args = parser.parse_args()
    try:
        return asyncio.run(bench(args.rounds, args.model_delay_s))
    except BenchFailed as exc:
        print(f"bench failed: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
