"""The in-memory connector and work queue: the same interface and rules as SQLite and
PostgreSQL, in one process, for unit tests and the embedded default's tests.

A transaction holds the connector's lock, snapshots :attr:`MemoryConnector.tables` and
puts them back if the block raises, so a ledger kept in ``tables`` commits or rolls
back together with the queue's own rows. The snapshot copies each table and each of
its rows one level down (not every value nested in them, which made every call cost
as much as all the data held): a writer sets a row's fields or replaces a nested
value, and never changes a nested value in place.
"""

from __future__ import annotations

import asyncio
import copy
import time
import uuid
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gofer.errors import StoreError
from gofer.store.queue import QueueBase, lease_lost
from gofer.store.transaction import Dialect, Row, Transaction
from gofer.store.types import Claim, Item, QueueConfig, read_state
from gofer.store.waking import Notice, Subscription, Waker

if TYPE_CHECKING:
    from gofer.store.connector import Connector
    from gofer.store.queue import WorkQueue
    from gofer.store.sealing import SecretBox

__all__ = ["MemoryConnector", "MemoryQueue", "MemoryTransaction"]


class MemoryTransaction:
    """A transaction on :class:`MemoryConnector`: no SQL, only grouped writes."""

    def __init__(self) -> None:
        self.notices: list[Notice] = []

    async def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        """The in-memory connector runs no SQL."""
        raise StoreError("the in-memory connector runs no SQL", code="STORE_NO_SQL")

    async def fetch_one(self, sql: str, params: Mapping[str, Any] | None = None) -> Row | None:
        """The in-memory connector runs no SQL."""
        raise StoreError("the in-memory connector runs no SQL", code="STORE_NO_SQL")

    async def fetch_all(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """The in-memory connector runs no SQL."""
        raise StoreError("the in-memory connector runs no SQL", code="STORE_NO_SQL")

    def notify(self, notice: Notice) -> None:
        """Send ``notice`` when the transaction commits."""
        self.notices.append(notice)


class MemoryConnector:
    """Tables in a dict, one writer at a time; ``clock`` gives seconds since the epoch."""

    dialect: Dialect = "memory"

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self.secrets: SecretBox | None = None  # nothing of it is at rest
        self.clock = clock
        self.waker = Waker()
        self.queries: Mapping[str, str] = {}
        self.tables: dict[str, Any] = {}
        self._lock = asyncio.Lock()
        self._holder: MemoryTransaction | None = None

    async def __aenter__(self) -> MemoryConnector:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[MemoryTransaction]:
        """Hold the lock; on an exception put every table back as it was."""
        async with self._lock:
            tx = MemoryTransaction()
            saved = _snapshot(self.tables)
            self._holder = tx
            try:
                yield tx
            except BaseException:
                self.tables.clear()
                self.tables.update(saved)
                raise
            finally:
                self._holder = None
        for notice in tx.notices:
            self.waker.notify(notice)

    def snapshot(self) -> AbstractAsyncContextManager[MemoryTransaction]:
        """A transaction for reads (the same lock: nothing here waits on a file)."""
        return self.transaction()

    @asynccontextmanager
    async def within(self, tx: Transaction | None) -> AsyncIterator[Transaction]:
        """``tx`` itself when given (it must be this connector's open one), else a new
        transaction."""
        if tx is None:
            async with self.transaction() as own:
                yield own
            return
        holder = self._holder
        if holder is None or tx is not holder:
            raise StoreError(
                "that transaction is not open on this connector", code="STORE_FOREIGN_TRANSACTION"
            )
        yield holder

    def queue(self, config: QueueConfig | None = None) -> MemoryQueue:
        """The work queue on this connector."""
        return MemoryQueue(self, config or QueueConfig())


def _snapshot(tables: dict[str, Any]) -> dict[str, Any]:
    """Each table copied, and each of its rows (a dict table's values) copied one
    level down: what a rollback needs to undo writes that set a row's fields."""
    return {
        name: {key: copy.copy(row) for key, row in table.items()}
        if isinstance(table, dict)
        else copy.copy(table)
        for name, table in tables.items()
    }


@dataclass
class _Row:
    id: int
    kind: str
    key: str | None
    payload: dict[str, Any]
    group: str | None
    owner: str | None
    state: str
    attempts: int
    max_attempts: int
    worker: str | None
    token: str | None
    lease_expires_at: float | None
    last_error: str | None
    created_at: float
    finished_at: float | None

    def live(self, now: float) -> bool:
        return (
            self.state == "running"
            and self.lease_expires_at is not None
            and self.lease_expires_at > now
        )

    def open_with_attempts(self, now: float) -> bool:
        """Unfinished with attempts left: claimable now or later."""
        if self.attempts >= self.max_attempts:
            return False
        return self.state == "queued" or (self.state == "running" and not self.live(now))


class MemoryQueue(QueueBase):
    """The work queue kept in a :class:`MemoryConnector`'s tables."""

    def __init__(self, connector: MemoryConnector, config: QueueConfig) -> None:
        self.connector = connector
        self.config = config
        tables = connector.tables
        tables.setdefault("work_items", {})
        tables.setdefault("work_item_keys", {})
        tables.setdefault("work_item_seq", [0])

    @property
    def _rows(self) -> dict[int, _Row]:
        rows: dict[int, _Row] = self.connector.tables["work_items"]
        return rows

    def _item(self, row: _Row, now: float) -> Item:
        return Item(
            id=row.id,
            kind=row.kind,
            key=row.key,
            payload=copy.deepcopy(row.payload),
            group=row.group,
            owner=row.owner,
            state=read_state(row.state, row.attempts, row.max_attempts, row.lease_expires_at, now),
            attempts=row.attempts,
            max_attempts=row.max_attempts,
            worker=row.worker,
            last_error=row.last_error,
            created_at=row.created_at,
            finished_at=row.finished_at,
            lease_expires_at=row.lease_expires_at,
        )

    async def enqueue(
        self,
        kind: str,
        payload: Mapping[str, Any],
        key: str | None = None,
        *,
        tx: Transaction | None = None,
    ) -> Item:
        """Add an item (or return the one already enqueued under ``key``)."""
        group, owner, max_attempts = self.config.placement(kind, payload)
        async with self.connector.within(tx) as t:
            now = self.connector.clock()
            keys: dict[str, int] = self.connector.tables["work_item_keys"]
            if key is not None and key in keys:
                return self._item(self._rows[keys[key]], now)
            seq: list[int] = self.connector.tables["work_item_seq"]
            seq[0] += 1
            row = _Row(
                id=seq[0],
                kind=kind,
                key=key,
                payload=copy.deepcopy(dict(payload)),
                group=group,
                owner=owner,
                state="queued",
                attempts=0,
                max_attempts=max_attempts,
                worker=None,
                token=None,
                lease_expires_at=None,
                last_error=None,
                created_at=now,
                finished_at=None,
            )
            self._rows[row.id] = row
            if key is not None:
                keys[key] = row.id
            t.notify(Notice("enqueued", kind=kind, group=group, owner=owner, id=row.id))
            return self._item(row, now)

    async def _lease(
        self,
        kinds: Sequence[str],
        worker: str,
        lease_ms: int,
        limit: int,
        running_at_most: int | None,
    ) -> list[Claim]:
        """Lease up to ``limit`` items under the queue's rules."""
        wanted = set(kinds)
        claims: list[Claim] = []
        async with self.connector.within(None):
            now = self.connector.clock()
            rows = sorted((r for r in self._rows.values() if r.kind in wanted), key=lambda r: r.id)
            for row in rows:
                if len(claims) >= limit:
                    break
                if not row.open_with_attempts(now) or self._held_back(row, now):
                    continue
                if running_at_most is not None and row.owner is not None:
                    running = sum(1 for r in rows if r.owner == row.owner and r.live(now))
                    if running >= running_at_most:
                        continue
                row.state = "running"
                row.attempts += 1
                row.worker = worker
                row.token = uuid.uuid4().hex
                row.lease_expires_at = now + lease_ms / 1000
                claims.append(
                    Claim(
                        id=row.id,
                        kind=row.kind,
                        payload=copy.deepcopy(row.payload),
                        group=row.group,
                        owner=row.owner,
                        attempt=row.attempts,
                        max_attempts=row.max_attempts,
                        worker=worker,
                        token=row.token,
                        lease_ms=lease_ms,
                    )
                )
        return claims

    def _held_back(self, row: _Row, now: float) -> bool:
        if row.group is None:
            return False
        for other in self._rows.values():
            if other.group != row.group or other.id == row.id:
                continue
            if other.live(now) or (other.id < row.id and other.open_with_attempts(now)):
                return True
        return False

    def _leased(self, claim: Claim, now: float) -> _Row:
        row = self._rows.get(claim.id)
        if row is None or row.token != claim.token or not row.live(now):
            raise lease_lost(claim)
        return row

    async def renew(self, claim: Claim, lease_ms: int | None = None) -> None:
        """Extend a live lease from now."""
        async with self.connector.within(None):
            now = self.connector.clock()
            row = self._leased(claim, now)
            row.lease_expires_at = now + (lease_ms or claim.lease_ms) / 1000

    async def finish(
        self,
        claim: Claim,
        result: Mapping[str, Any] | None = None,
        *,
        tx: Transaction | None = None,
    ) -> None:
        """Mark the item done, merging ``result`` into its payload."""
        async with self.connector.within(tx) as t:
            now = self.connector.clock()
            row = self._leased(claim, now)
            row.payload = {**row.payload, **copy.deepcopy(dict(result or {}))}
            row.state = "done"
            row.lease_expires_at = None
            row.finished_at = now
            t.notify(Notice("finished", kind=row.kind, group=row.group, owner=row.owner, id=row.id))

    async def release(
        self,
        claim: Claim,
        *,
        unstarted: bool = False,
        error: str | None = None,
        tx: Transaction | None = None,
    ) -> None:
        """Give the item back (refunding the attempt when ``unstarted``)."""
        async with self.connector.within(tx) as t:
            now = self.connector.clock()
            row = self._leased(claim, now)
            if unstarted:
                row.attempts -= 1
            row.last_error = error
            row.lease_expires_at = None
            if row.attempts >= row.max_attempts:
                row.state = "failed"
                row.finished_at = now
            else:
                row.state = "queued"
                row.worker = None
                row.token = None
            t.notify(Notice("released", kind=row.kind, group=row.group, owner=row.owner, id=row.id))

    async def open_count(self, owner: str, *, tx: Transaction | None = None) -> int:
        """How many of the owner's items wait or run."""
        async with self.connector.within(tx):
            return sum(
                1
                for r in self._rows.values()
                if r.owner == owner and r.state in ("queued", "running")
            )

    async def get(self, item_id: int, *, tx: Transaction | None = None) -> Item | None:
        """One item by id."""
        async with self.connector.within(tx):
            row = self._rows.get(item_id)
            return None if row is None else self._item(row, self.connector.clock())

    async def items(
        self,
        *,
        group: str | None = None,
        owner: str | None = None,
        kinds: Sequence[str] | None = None,
        key: str | None = None,
        tx: Transaction | None = None,
    ) -> list[Item]:
        """Items of a group, an owner and/or a key (optionally of some kinds), oldest
        first."""
        if group is None and owner is None and key is None:
            raise ValueError("items() needs a group, an owner or a key")
        async with self.connector.within(tx):
            now = self.connector.clock()
            return [
                self._item(r, now)
                for r in sorted(self._rows.values(), key=lambda r: r.id)
                if (group is None or r.group == group)
                and (owner is None or r.owner == owner)
                and (key is None or r.key == key)
                and (kinds is None or r.kind in kinds)
            ]

    def subscribe(self) -> AbstractContextManager[Subscription]:
        """Wake-ups for enqueues, finishes and releases."""
        return self.connector.waker.subscribe()


if TYPE_CHECKING:

    def _conforms(queue: MemoryQueue, connector: MemoryConnector) -> tuple[WorkQueue, Connector]:
        return queue, connector
