"""Every query a task's status read (and its listing and report) runs is an index
lookup by owner and task, never a scan: the plans are read from SQLite and PostgreSQL
holding many owners' tasks, events and turns."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gofer.store import Connector

OWNERS = 200
TASKS = 6_000

FILL = {
    "sqlite": [
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {tasks}) "
        "INSERT INTO tasks (id, owner, title, request, created_at) "
        "SELECT 'task-' || i, 'owner-' || (i % {owners}), 'a task', '{{}}', i FROM n",
        "INSERT INTO task_events (owner, task_id, kind, data, at) "
        "SELECT owner, id, k.kind, '{{}}', created_at FROM tasks, "
        "(SELECT 'start' AS kind UNION ALL SELECT 'view' UNION ALL SELECT 'ended' "
        " UNION ALL SELECT 'reply') AS k",
        "INSERT INTO work_items (kind, payload, group_key, owner, state, attempts, "
        "max_attempts, created_at) "
        "SELECT k.kind, '{{}}', 'task:' || id, owner, 'done', 1, 2, created_at FROM tasks, "
        "(SELECT 'turn' AS kind UNION ALL SELECT 'reply') AS k",
        "ANALYZE",
    ],
    "postgres": [
        "INSERT INTO tasks (id, owner, title, request, created_at) "
        "SELECT 'task-' || i, 'owner-' || (i % {owners}), 'a task', '{{}}', i "
        "FROM generate_series(1, {tasks}) AS i",
        "INSERT INTO task_events (owner, task_id, kind, data, at) "
        "SELECT owner, id, k, '{{}}', created_at FROM tasks, "
        "unnest(ARRAY['start', 'view', 'ended', 'reply']) AS k",
        "INSERT INTO work_items (kind, payload, group_key, owner, state, attempts, "
        "max_attempts, created_at) "
        "SELECT k, '{{}}', 'task:' || id, owner, 'done', 1, 2, now() FROM tasks, "
        "unnest(ARRAY['turn', 'reply']) AS k",
        "ANALYZE",
    ],
}

PARAMS: dict[str, dict[str, Any]] = {
    "ledger_get_task": {"owner": "owner-7", "id": "task-407"},
    "ledger_tasks": {"owner": "owner-7"},
    "ledger_events": {"owner": "owner-7", "task_id": "task-407"},
    "ledger_last_event": {"owner": "owner-7", "task_id": "task-407", "kind": "ended"},
    "items_by_group": {"group": "task:task-407", "owner": "owner-7", "kinds": None},
}


def _pg_scans(plan: Any) -> list[str]:
    found: list[str] = []
    if isinstance(plan, dict):
        if plan.get("Node Type") == "Seq Scan":
            found.append(str(plan.get("Relation Name")))
        for value in plan.values():
            found += _pg_scans(value)
    elif isinstance(plan, list):
        for value in plan:
            found += _pg_scans(value)
    return found


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"], indirect=True)
async def test_every_status_read_is_a_lookup_by_owner_and_task(
    db: Connector,
    store_kind: str,
) -> None:
    async with db.transaction() as tx:
        for statement in FILL[store_kind]:
            await tx.execute(statement.format(owners=OWNERS, tasks=TASKS))
    for name, params in PARAMS.items():
        sql = db.queries[name]
        async with db.transaction() as tx:
            if store_kind == "sqlite":
                rows = await tx.fetch_all(f"EXPLAIN QUERY PLAN {sql}", params)
                steps = [str(r["detail"]) for r in rows]
                reads = [s for s in steps if s.startswith(("SCAN", "SEARCH"))]
                assert reads, (name, steps)
                # a scan of a list the query itself made (json_each) is not a table scan
                scans = [s for s in reads if s.startswith("SCAN") and "json_each" not in s]
                assert not scans, (name, steps)
                assert all(
                    "INDEX" in s or "PRIMARY KEY" in s for s in reads if s.startswith("SEARCH")
                ), (name, steps)
            else:
                row = await tx.fetch_one(f"EXPLAIN (FORMAT JSON) {sql}", params)
                assert row is not None
                plan = row["QUERY PLAN"]
                plan = json.loads(plan) if isinstance(plan, str) else plan
                assert _pg_scans(plan) == [], (name, plan)
