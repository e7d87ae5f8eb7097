"""A worker process for the store's multi-process tests (run as a script).

    python queue_worker.py URL MODE WORKER [--cap N] [--start-at EPOCH] [--batch N]

``URL`` is a SQLite path or a ``postgresql://`` URL. Modes:

- ``grab``: at ``--start-at``, claim as often as it can (never finishing) for
  ``--for-s`` seconds and print one JSON line per claim it got.
- ``run``: claim and finish until the queue has nothing left for ``--idle-s``
  seconds, printing one JSON line per run: item, group, owner, attempt and the
  times just after its claim returned and just before its finish or release was
  sent (inside the lease, so overlaps seen here are overlaps that happened). An item
  whose payload says ``fail_first`` is released with an error on its first attempt.
- ``hang``: claim one item, print it, then sleep until killed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time

from gofer.store import Connector, QueueConfig, SerialKind, SerialOrder
from gofer.store.sqlite import SQLiteConnector

ORDER = SerialOrder("race", {"job": SerialKind("group", max_attempts=2)})
CONFIG = QueueConfig(orders=[ORDER], owner="owner")


def connect(url: str) -> Connector:
    if url.startswith("postgresql://"):
        from gofer.store.postgres import PostgresConnector

        return PostgresConnector(url, min_size=1, max_size=2)
    return SQLiteConnector(url)


def emit(record: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("mode", choices=["grab", "run", "hang"])
    parser.add_argument("worker")
    parser.add_argument("--cap", type=int, default=None)
    parser.add_argument("--start-at", type=float, default=0.0)
    parser.add_argument("--for-s", type=float, default=1.0)
    parser.add_argument("--idle-s", type=float, default=1.0)
    parser.add_argument("--lease-ms", type=int, default=60_000)
    parser.add_argument("--batch", type=int, default=1)
    args = parser.parse_args()
    async with connect(args.url) as db:
        queue = db.queue(CONFIG)
        emit({"ready": args.worker})
        await asyncio.sleep(max(0.0, args.start_at - time.time()))
        if args.mode == "hang":
            claim = None
            while claim is None:
                claim = await queue.claim(["job"], args.worker, args.lease_ms, serial=ORDER)
            emit({"item": claim.id, "attempt": claim.attempt, "token": claim.token})
            await asyncio.Event().wait()
        if args.mode == "grab":
            end = time.time() + args.for_s
            while time.time() < end:
                got = await queue.claim(
                    ["job"], args.worker, args.lease_ms, serial=ORDER, running_at_most=args.cap
                )
                if got is not None:
                    emit({"item": got.id, "owner": got.owner})
            return
        idle_since = time.time()
        rng = random.Random(args.worker)
        with queue.subscribe() as woken:
            while time.time() - idle_since < args.idle_s:
                claims = await queue.claim_batch(
                    ["job"],
                    args.worker,
                    args.lease_ms,
                    limit=args.batch,
                    serial=ORDER,
                    running_at_most=args.cap,
                )
                if not claims:
                    await woken.wait(0.2)
                    continue
                idle_since = time.time()
                for claim in claims:
                    t0 = time.time()
                    await asyncio.sleep(rng.random() / 1000)
                    record = {
                        "item": claim.id,
                        "group": claim.group,
                        "owner": claim.owner,
                        "attempt": claim.attempt,
                        "worker": args.worker,
                        "t0": t0,
                    }
                    if claim.payload.get("fail_first") and claim.attempt == 1:
                        record["t1"] = time.time()
                        await queue.release(claim, error="failed on purpose")
                    else:
                        record["t1"] = time.time()
                        await queue.finish(claim, {"by": args.worker})
                    emit(record)


if __name__ == "__main__":
    asyncio.run(main())
