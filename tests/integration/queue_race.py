"""Filling a queue for the multi-process races and counting what their runs broke."""

from __future__ import annotations

import itertools
from collections import defaultdict
from typing import Any

from gofer.store import WorkQueue


async def fill(queue: WorkQueue, *, items: int, groups: int, owners: int) -> dict[str, Any]:
    """``items`` jobs round-robin over ``groups`` groups; group ``g`` belongs to owner
    ``g % owners`` (so an owner's groups can run side by side and its cap binds); every
    seventh job fails its first attempt."""
    made: dict[int, dict[str, Any]] = {}
    for n in range(items):
        group = n % groups
        payload = {
            "group": f"g{group}",
            "owner": f"o{group % owners}",
            "n": n,
            "fail_first": n % 7 == 3,
        }
        item = await queue.enqueue("job", payload)
        made[item.id] = {"group": item.group, "fail_first": payload["fail_first"]}
    return {"owners": sorted({f"o{g % owners}" for g in range(groups)}), "items": made}


def _most_at_once(spans: list[tuple[float, float]]) -> int:
    edges = sorted(
        [(t0, 1) for t0, _ in spans] + [(t1, -1) for _, t1 in spans], key=lambda e: (e[0], e[1])
    )
    most = now = 0
    for _, step in edges:
        now += step
        most = max(most, now)
    return most


def check_runs(runs: list[dict[str, Any]], expected: dict[str, Any], *, cap: int) -> dict[str, int]:
    """Violations counted by rule (only the rules broken appear): runs of one group
    that overlap or go back in order, an owner above ``cap`` at once, an item run
    more than its two attempts or with attempts out of step, an item not run through."""
    broken: dict[str, int] = defaultdict(int)
    by_group: dict[str, list[dict[str, Any]]] = defaultdict(list)
    by_owner: dict[str, list[tuple[float, float]]] = defaultdict(list)
    by_item: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for run in runs:
        by_group[run["group"]].append(run)
        by_owner[run["owner"]].append((run["t0"], run["t1"]))
        by_item[run["item"]].append(run)
    for group_runs in by_group.values():
        group_runs.sort(key=lambda r: r["t0"])
        for before, after in itertools.pairwise(group_runs):
            if after["t0"] < before["t1"]:
                broken["serial_overlap"] += 1
            if after["item"] < before["item"]:
                broken["serial_order"] += 1
    for spans in by_owner.values():
        if _most_at_once(spans) > cap:
            broken["owner_cap"] += 1
    for item_id, want in expected["items"].items():
        got = sorted(r["attempt"] for r in by_item.get(item_id, []))
        runs_wanted = [1, 2] if want["fail_first"] else [1]
        if len(got) > 2:
            broken["attempt_cap"] += 1
        elif got != runs_wanted:
            broken["not_run_through"] += 1
    return dict(broken)
