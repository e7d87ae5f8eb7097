"""The task ledgers: the ``tasks`` table and each task's event log.

A task's row holds only what its caller or its start can say (owner, title, why,
source, link, the request, when it was made, ``resolved_at``); it has no status. The
event log holds what happened to the task in order: the caller's replies and
decisions, each run's update and report as it ended, the views published as steps
start. A task's status is worked out on every read from its turns on the work queue
and this log; nothing here stores it.

Every read names an owner and a task (or an owner's tasks), so every read is a
lookup: another owner's task is the same as no task. Writes take the caller's
``tx`` so a ledger row and an enqueue commit together.

:class:`SQLLedger` runs the named blocks of ``sql/<dialect>/ledgers.sql`` on every
connector (the in-memory one is SQLite in memory).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, Protocol

from gofer.store.sealing import SecretBox, open_event, open_request, seal_event, seal_request
from gofer.store.transaction import Row, Transaction

if TYPE_CHECKING:
    from gofer.store.connector import Connector

__all__ = ["Ledger", "SQLLedger", "TaskEvent", "TaskRecord", "ledger_for"]


@dataclass(frozen=True)
class TaskRecord:
    """One task as its caller and its start described it (``request`` is JSON data)."""

    id: str
    owner: str
    title: str
    request: dict[str, Any]
    created_at: float
    why: str | None = None
    source: str | None = None
    link: str | None = None
    resolved_at: float | None = None


@dataclass(frozen=True)
class TaskEvent:
    """One entry of a task's event log; ``seq`` orders every log (ascending)."""

    seq: int
    owner: str
    task_id: str
    kind: str
    data: dict[str, Any]
    at: float


class Ledger(Protocol):
    """The ``tasks`` table and the event log, on one connector."""

    async def add_task(self, record: TaskRecord, *, tx: Transaction | None = None) -> None:
        """Write a new task's row."""
        ...

    async def get_task(
        self, owner: str, task_id: str, *, tx: Transaction | None = None
    ) -> TaskRecord | None:
        """The owner's task ``task_id``, or ``None`` (also for another owner's task)."""
        ...

    async def tasks(self, owner: str, *, tx: Transaction | None = None) -> list[TaskRecord]:
        """The owner's tasks, oldest first."""
        ...

    async def page(
        self,
        owner: str,
        *,
        limit: int,
        after: int | None = None,
        newest_first: bool = False,
        tx: Transaction | None = None,
    ) -> tuple[list[TaskRecord], int | None]:
        """Up to ``limit`` of the owner's tasks, oldest first (or newest first), past the
        one at cursor ``after``; and the cursor of the next page (None after the last)."""
        ...

    async def owners(self, *, tx: Transaction | None = None) -> list[str]:
        """Every owner with a task, in order."""
        ...

    async def set_resolved(
        self, owner: str, task_id: str, at: float | None, *, tx: Transaction | None = None
    ) -> bool:
        """Set (or clear, with ``None``) ``resolved_at``; whether the task was found."""
        ...

    async def drop_task(self, owner: str, task_id: str, *, tx: Transaction | None = None) -> None:
        """Forget a task and its log (an in-memory controller making room)."""
        ...

    async def append(
        self,
        owner: str,
        task_id: str,
        kind: str,
        data: Mapping[str, Any],
        at: float,
        *,
        tx: Transaction | None = None,
    ) -> TaskEvent:
        """Add an event to the task's log."""
        ...

    async def events(
        self,
        owner: str,
        task_id: str,
        *,
        kinds: Sequence[str] | None = None,
        tx: Transaction | None = None,
    ) -> list[TaskEvent]:
        """The task's events (optionally of some kinds), in order."""
        ...

    async def last_event(
        self,
        owner: str,
        task_id: str,
        kinds: Sequence[str],
        *,
        tx: Transaction | None = None,
    ) -> TaskEvent | None:
        """The task's latest event of one of ``kinds``."""
        ...


def ledger_for(connector: Connector) -> Ledger:
    """The ledger on ``connector`` (in memory, too, it runs the same SQL)."""
    return SQLLedger(connector)


def _event(row: Mapping[str, Any], box: SecretBox | None = None) -> TaskEvent:
    data = row["data"]
    return TaskEvent(
        seq=int(row["seq"]),
        owner=str(row["owner"]),
        task_id=str(row["task_id"]),
        kind=str(row["kind"]),
        data=open_event(
            box, json.loads(data) if isinstance(data, str) else json.loads(json.dumps(data))
        ),
        at=float(row["at"]),
    )


# ---------------------------------------------------------------- SQL


class SQLLedger:
    """The ledgers in SQL tables (migration 0002), through the connector's named
    queries (``sql/<dialect>/ledgers.sql``)."""

    def __init__(self, connector: Connector) -> None:
        self.connector = connector
        self.queries = connector.queries

    @property
    def box(self) -> SecretBox | None:
        """What fact values and answers are sealed with (gofer.store.sealing)."""
        return self.connector.secrets

    @asynccontextmanager
    async def _tx(self, tx: Transaction | None) -> AsyncIterator[Transaction]:
        if tx is not None:
            yield tx
            return
        async with self.connector.transaction() as own:
            yield own

    @asynccontextmanager
    async def _read(self, tx: Transaction | None) -> AsyncIterator[Transaction]:
        if tx is not None:
            yield tx
            return
        async with self.connector.snapshot() as own:
            yield own

    async def add_task(self, record: TaskRecord, *, tx: Transaction | None = None) -> None:
        """Write a new task's row."""
        params = asdict(record)
        params["request"] = json.dumps(seal_request(self.box, record.request))
        async with self._tx(tx) as t:
            await t.execute(self.queries["ledger_add_task"], params)

    async def get_task(
        self, owner: str, task_id: str, *, tx: Transaction | None = None
    ) -> TaskRecord | None:
        """The owner's task, or ``None``."""
        async with self._read(tx) as t:
            row = await t.fetch_one(
                self.queries["ledger_get_task"], {"owner": owner, "id": task_id}
            )
        return None if row is None else _record(row, self.box)

    async def tasks(self, owner: str, *, tx: Transaction | None = None) -> list[TaskRecord]:
        """The owner's tasks, oldest first."""
        async with self._read(tx) as t:
            rows = await t.fetch_all(self.queries["ledger_tasks"], {"owner": owner})
        return [_record(r, self.box) for r in rows]

    async def page(
        self,
        owner: str,
        *,
        limit: int,
        after: int | None = None,
        newest_first: bool = False,
        tx: Transaction | None = None,
    ) -> tuple[list[TaskRecord], int | None]:
        """A page of the owner's tasks (one indexed range read) and the next page's
        cursor."""
        query = "ledger_tasks_newest" if newest_first else "ledger_tasks_oldest"
        edge = after if after is not None else (_LAST_SEQ if newest_first else 0)
        async with self._read(tx) as t:
            rows = await t.fetch_all(
                self.queries[query], {"owner": owner, "after": edge, "limit": limit + 1}
            )
        kept = rows[:limit]
        more = len(rows) > limit
        return [_record(r, self.box) for r in kept], (int(kept[-1]["seq"]) if more else None)

    async def owners(self, *, tx: Transaction | None = None) -> list[str]:
        """Every owner with a task, in order."""
        async with self._tx(tx) as t:
            rows = await t.fetch_all(self.queries["ledger_owners"])
        return [str(r["owner"]) for r in rows]

    async def set_resolved(
        self, owner: str, task_id: str, at: float | None, *, tx: Transaction | None = None
    ) -> bool:
        """Set or clear ``resolved_at``."""
        async with self._tx(tx) as t:
            touched = await t.execute(
                self.queries["ledger_set_resolved"],
                {"owner": owner, "id": task_id, "resolved_at": at},
            )
        return touched > 0

    async def drop_task(self, owner: str, task_id: str, *, tx: Transaction | None = None) -> None:
        """Forget the task, its log and its files."""
        async with self._tx(tx) as t:
            params = {"owner": owner, "id": task_id}
            await t.execute(self.queries["ledger_drop_files"], params)
            await t.execute(self.queries["ledger_drop_events"], params)
            await t.execute(self.queries["ledger_drop_task"], params)

    async def append(
        self,
        owner: str,
        task_id: str,
        kind: str,
        data: Mapping[str, Any],
        at: float,
        *,
        tx: Transaction | None = None,
    ) -> TaskEvent:
        """Add an event to the task's log."""
        text = json.dumps(seal_event(self.box, data))
        params = {"owner": owner, "task_id": task_id, "kind": kind, "data": text, "at": at}
        async with self._tx(tx) as t:
            row = await t.fetch_one(self.queries["ledger_append"], params)
        assert row is not None, "ledger_append returns the new event's seq"
        return TaskEvent(
            seq=int(row["seq"]),
            owner=owner,
            task_id=task_id,
            kind=kind,
            data=json.loads(json.dumps(dict(data))),
            at=at,
        )

    async def events(
        self,
        owner: str,
        task_id: str,
        *,
        kinds: Sequence[str] | None = None,
        tx: Transaction | None = None,
    ) -> list[TaskEvent]:
        """The task's events in order."""
        async with self._read(tx) as t:
            rows = await t.fetch_all(
                self.queries["ledger_events"], {"owner": owner, "task_id": task_id}
            )
        return [_event(r, self.box) for r in rows if kinds is None or r["kind"] in kinds]

    async def last_event(
        self,
        owner: str,
        task_id: str,
        kinds: Sequence[str],
        *,
        tx: Transaction | None = None,
    ) -> TaskEvent | None:
        """The task's latest event of one of ``kinds``: one indexed lookup per kind."""
        best: Row | None = None
        async with self._read(tx) as t:
            for kind in kinds:
                row = await t.fetch_one(
                    self.queries["ledger_last_event"],
                    {"owner": owner, "task_id": task_id, "kind": kind},
                )
                if row is not None and (best is None or int(row["seq"]) > int(best["seq"])):
                    best = row
        return None if best is None else _event(best, self.box)


_LAST_SEQ = 2**62
"""Past every task's seq: where a newest-first listing starts."""


def _record(row: Row, box: SecretBox | None) -> TaskRecord:
    request: Any = row["request"]
    resolved = row.get("resolved_at")
    return TaskRecord(
        id=str(row["id"]),
        owner=str(row["owner"]),
        title=str(row["title"]),
        request=open_request(
            box, json.loads(request) if isinstance(request, str | bytes) else dict(request)
        ),
        created_at=float(row["created_at"]),
        why=row.get("why"),
        source=row.get("source"),
        link=row.get("link"),
        resolved_at=None if resolved is None else float(resolved),
    )
