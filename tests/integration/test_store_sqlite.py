"""SQLite beyond the behaviour suite: migrations on open, and processes sharing a file."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest
from queue_race import check_runs, fill
from queue_worker import CONFIG

from gofer.errors import StoreError
from gofer.store.schema import load_migrations
from gofer.store.sqlite import SQLiteConnector

WORKER = Path(__file__).with_name("queue_worker.py")


def recorded(path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as conn:
        return [
            (int(v), str(n))
            for v, n in conn.execute("SELECT version, name FROM gofer_migrations ORDER BY version")
        ]


async def test_opening_applies_each_migration_once_and_records_it(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "gofer.db"
    shipped = [(m.version, m.name) for m in load_migrations("sqlite")]
    async with SQLiteConnector(path) as db:
        assert db.applied == [v for v, _ in shipped]
        async with db.transaction() as tx:
            mode = await tx.fetch_one("PRAGMA journal_mode")
        assert mode == {"journal_mode": "wal"}
    async with SQLiteConnector(path) as db:
        assert db.applied == []
    assert recorded(path) == shipped


async def test_a_database_written_by_a_newer_gofer_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "gofer.db"
    async with SQLiteConnector(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO gofer_migrations VALUES (9999, 'from_the_future', 0)")
    with pytest.raises(StoreError) as raised:
        async with SQLiteConnector(path):
            pass
    assert raised.value.code == "STORE_SCHEMA_NEWER"


def spawn(path: Path, mode: str, worker: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), str(path), mode, worker, *args],
        stdout=subprocess.PIPE,
        text=True,
    )


def records(proc: subprocess.Popen[str]) -> list[dict[str, object]]:
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0
    return [r for r in map(json.loads, out.splitlines()) if "ready" not in r]


async def test_two_processes_opening_a_new_file_at_once_apply_migrations_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "gofer.db"
    procs = [spawn(path, "grab", f"p{i}", "--for-s", "0") for i in range(2)]
    for proc in procs:
        records(proc)
    assert recorded(path) == [(m.version, m.name) for m in load_migrations("sqlite")]


async def test_two_processes_on_one_file_keep_the_per_owner_cap(tmp_path: Path) -> None:
    path = tmp_path / "gofer.db"
    async with SQLiteConnector(path) as db:
        queue = db.queue(CONFIG)
        for i in range(30):
            await queue.enqueue("job", {"owner": "ann" if i % 3 else "bob"})
    start = f"{time.time() + 1.5:.3f}"
    procs = [
        spawn(path, "grab", f"p{i}", "--cap", "2", "--start-at", start, "--for-s", "1")
        for i in range(2)
    ]
    got = [r for p in procs for r in records(p)]
    by_owner = {o: sum(1 for r in got if r["owner"] == o) for o in ("ann", "bob")}
    assert by_owner == {"ann": 2, "bob": 2}


async def test_two_processes_running_items_keep_groups_caps_and_attempts(
    tmp_path: Path,
) -> None:
    path = tmp_path / "gofer.db"
    async with SQLiteConnector(path) as db:
        expected = await fill(db.queue(CONFIG), items=120, groups=12, owners=4)
    start = f"{time.time() + 1.5:.3f}"
    procs = [
        spawn(path, "run", f"p{i}", "--cap", "2", "--start-at", start, "--idle-s", "1.5")
        for i in range(2)
    ]
    runs = [r for p in procs for r in records(p)]
    assert check_runs(runs, expected, cap=2) == {}
    async with SQLiteConnector(path) as db:
        queue = db.queue(CONFIG)
        items = [i for o in expected["owners"] for i in await queue.items(owner=o)]
    assert sorted(i.state for i in items) == ["done"] * 120


def test_the_race_checker_counts_each_rule_broken() -> None:
    expected = {
        "items": {
            1: {"fail_first": False},
            2: {"fail_first": True},
            3: {"fail_first": False},
            4: {"fail_first": False},
        }
    }

    def run(
        item: int, group: str, owner: str, attempt: int, t0: float, t1: float
    ) -> dict[str, object]:
        return {
            "item": item,
            "group": group,
            "owner": owner,
            "attempt": attempt,
            "t0": t0,
            "t1": t1,
        }

    clean = [
        run(1, "g1", "a", 1, 0, 1),
        run(2, "g1", "a", 1, 1, 2),
        run(2, "g1", "a", 2, 2, 3),
        run(3, "g2", "a", 1, 0, 3),
        run(4, "g3", "b", 1, 5, 6),
    ]
    assert check_runs(clean, expected, cap=2) == {}
    broken = [
        run(2, "g1", "a", 1, 0, 1),
        run(1, "g1", "a", 1, 1, 2),
        run(3, "g1", "a", 1, 1.5, 3),
        run(4, "g2", "a", 1, 0, 4),
        run(4, "g2", "a", 2, 4, 5),
        run(4, "g2", "a", 3, 5, 6),
        run(2, "g3", "b", 2, 7, 8),
    ]
    assert check_runs(broken, expected, cap=2) == {
        "serial_overlap": 1,
        "serial_order": 1,
        "owner_cap": 1,
        "attempt_cap": 1,
    }


@pytest.mark.parametrize("begin", ["snapshot", "transaction"])
async def test_a_transaction_cut_by_a_cancel_that_keeps_coming_is_rolled_back(
    tmp_path: Path, begin: str
) -> None:
    """A request cancelled by its server (anyio cancels every await in its scope, again
    and again: a page's stream when the browser goes away) must not leave its
    transaction open on the shared connection: the next caller's BEGIN would fail."""
    async with SQLiteConnector(tmp_path / "gofer.db") as db:
        with anyio.CancelScope() as scope:
            async with getattr(db, begin)() as tx:
                await tx.run(lambda c: c.execute("SELECT 1").fetchall())
                scope.cancel()
                await anyio.sleep(1)
        assert scope.cancelled_caught
        async with db.transaction() as tx:
            assert await tx.run(lambda c: c.execute("SELECT 2").fetchone()[0]) == 2
