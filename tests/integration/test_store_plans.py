"""Status reads are index lookups, never scans, over a queue holding many owners'
items: the query plans of the queue's reads, read from SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gofer.store import PostgresConnector, SQLiteConnector

OWNERS = 500
ITEMS = 30_000

# each status read with the index it must use
READS: list[tuple[str, dict[str, Any], str]] = [
    ("items_by_owner", {"owner": "o7", "kinds": None}, "work_items_owner_idx"),
    ("items_by_owner", {"owner": "o7", "kinds": ["turn"]}, "work_items_owner_idx"),
    ("items_by_group", {"group": "task:t77", "owner": None, "kinds": None}, "work_items_group_idx"),
    (
        "items_by_group",
        {"group": "task:t77", "owner": "o7", "kinds": ["turn", "reply"]},
        "work_items_group_idx",
    ),
    ("item_by_key", {"key": "k77"}, "work_items_key_key"),
]

SQLITE_FILL = f"""
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {ITEMS})
INSERT INTO work_items (kind, key, payload, group_key, owner, state, attempts,
                        max_attempts, created_at)
SELECT CASE i % 3 WHEN 0 THEN 'reply' ELSE 'turn' END, 'k' || i, '{{}}',
       'task:t' || (i % 5000), 'o' || (i % {OWNERS}),
       CASE WHEN i % 10 = 0 THEN 'queued' ELSE 'done' END, 1, 2, 0
  FROM n
"""

PG_FILL = f"""
INSERT INTO work_items (kind, key, payload, group_key, owner, state, attempts,
                        max_attempts)
SELECT CASE i % 3 WHEN 0 THEN 'reply' ELSE 'turn' END, 'k' || i, '{{}}',
       'task:t' || (i % 5000), 'o' || (i % {OWNERS}),
       CASE WHEN i % 10 = 0 THEN 'queued' ELSE 'done' END, 1, 2
  FROM generate_series(1, {ITEMS}) AS i
"""


def _sqlite_params(params: dict[str, Any]) -> dict[str, Any]:
    return {k: json.dumps(v) if isinstance(v, list) else v for k, v in params.items()}


@pytest.mark.parametrize("name, params, index", READS)
async def test_sqlite_status_reads_search_an_index(
    tmp_path: Path, name: str, params: dict[str, Any], index: str
) -> None:
    async with SQLiteConnector(tmp_path / "gofer.db") as db, db.transaction() as tx:
        await tx.execute(SQLITE_FILL)
        await tx.execute("ANALYZE")
        plan = await tx.fetch_all("EXPLAIN QUERY PLAN " + db.queries[name], _sqlite_params(params))
    details = [row["detail"] for row in plan]
    on_items = [d for d in details if "work_items" in d]
    want = "sqlite_autoindex_work_items_1" if index.endswith("_key") else index
    assert any(d.startswith("SEARCH") and want in d for d in on_items), details
    assert not any(d.startswith("SCAN work_items") for d in on_items), details


def _nodes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    found = [plan]
    for child in plan.get("Plans", []):
        found.extend(_nodes(child))
    return found


@pytest.mark.parametrize("name, params, index", READS)
async def test_postgres_status_reads_use_an_index(
    pg_url: str, name: str, params: dict[str, Any], index: str
) -> None:
    async with PostgresConnector(pg_url) as db:
        async with db.transaction() as tx:
            await tx.execute(PG_FILL)
        async with db.transaction() as tx:
            await tx.execute("ANALYZE work_items")
            row = await tx.fetch_one("EXPLAIN (FORMAT JSON) " + db.queries[name], params)
    assert row is not None
    nodes = _nodes(row["QUERY PLAN"][0]["Plan"])
    on_items = [
        n
        for n in nodes
        if n.get("Relation Name") == "work_items" or "work_items" in n.get("Index Name", "")
    ]
    kinds = [(n["Node Type"], n.get("Index Name")) for n in on_items]
    assert any(n.get("Index Name") == index for n in on_items), kinds
    assert not any(n["Node Type"] == "Seq Scan" for n in on_items), kinds
