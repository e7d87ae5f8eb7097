"""The SQLite connector and work queue: the embedded default (one file, no server).

One connector owns one ``sqlite3`` connection on one thread of its own; every call
hops to that thread once (a whole queue operation is one hop). The file is in WAL
mode and every write transaction starts with ``BEGIN IMMEDIATE``, which takes the
file's write lock before anything is read: a claim's checks (group, owner cap) and its
update are one step for every connector and process on the file. Connectors on the
same file in one process share a :class:`~gofer.store.Waker`, which also wakes the
other processes on the file through Unix datagram sockets (``peers.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import tempfile
import time
import uuid
import weakref
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, AbstractContextManager, asynccontextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from gofer.errors import StoreError, StoreUnavailable
from gofer.store.files import private_file
from gofer.store.peers import peer_waker
from gofer.store.queue import Fit, QueueBase, lease_lost, preference
from gofer.store.schema import MIGRATIONS_TABLE, load_migrations, load_queries, pending
from gofer.store.sealing import SecretBox
from gofer.store.transaction import Dialect, Row, Transaction
from gofer.store.types import Claim, Item, QueueConfig, read_state
from gofer.store.waking import Notice, Subscription, Waker

if TYPE_CHECKING:
    from gofer.store.connector import Connector
    from gofer.store.queue import WorkQueue

__all__ = ["SQLiteConnector", "SQLiteQueue", "SQLiteTransaction"]

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]

_WAKERS: weakref.WeakValueDictionary[str, Waker] = weakref.WeakValueDictionary()
_BUSY = ("locked", "busy", "disk i/o", "unable to open", "disk is full", "readonly database")
"""Errors the store may get over (another writer, a full disk, a read-only file): the
call is refused as unavailable, never as the caller's fault."""


def store_error(error: sqlite3.Error) -> StoreError:
    text = str(error)
    if isinstance(error, sqlite3.OperationalError) and any(b in text.lower() for b in _BUSY):
        return StoreUnavailable(f"SQLite: {text}")
    if isinstance(error, sqlite3.IntegrityError):
        return StoreError(f"SQLite refused the write: {text}", code="STORE_CONSTRAINT")
    return StoreError(f"SQLite: {text}")


def _statements(script: str) -> list[str]:
    """``script`` cut into whole statements (a trigger's body stays in one piece)."""
    out: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            out.append(buffer.strip())
            buffer = ""
    if buffer.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in buffer.splitlines()
    ):
        raise StoreError("a migration ends inside a statement", code="STORE_BAD_SQL")
    return out


def migrate(conn: sqlite3.Connection, clock: Callable[[], float]) -> list[int]:
    """Apply the pending migrations in one ``BEGIN IMMEDIATE`` transaction: two
    processes opening one new file at once apply each migration exactly once."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE} (version INTEGER PRIMARY KEY,"
            " name TEXT NOT NULL, applied_at REAL NOT NULL)"
        )
        applied = {
            int(v): str(n) for v, n in conn.execute(f"SELECT version, name FROM {MIGRATIONS_TABLE}")
        }
        done: list[int] = []
        for migration in pending(load_migrations("sqlite"), applied):
            for statement in _statements(migration.sql):
                conn.execute(statement)
            conn.execute(
                f"INSERT INTO {MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, clock()),
            )
            done.append(migration.version)
        conn.execute("COMMIT")
        return done
    except BaseException:
        _rollback_if_open(conn)
        raise


def _rollback_if_open(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")


class SQLiteTransaction:
    """An open ``BEGIN IMMEDIATE`` transaction on a :class:`SQLiteConnector`."""

    def __init__(self, connector: SQLiteConnector) -> None:
        self.connector = connector
        self.notices: list[Notice] = []

    async def run(self, work: Work[T]) -> T:
        """Run ``work(connection)`` on the connector's thread inside this transaction."""
        return await self.connector._call(work)

    async def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        """Run a statement; the number of rows it touched."""
        return await self.run(lambda c: c.execute(sql, dict(params or {})).rowcount)

    async def fetch_one(self, sql: str, params: Mapping[str, Any] | None = None) -> Row | None:
        """The first row a query returns, or ``None``."""

        def one(c: sqlite3.Connection) -> Row | None:
            row = c.execute(sql, dict(params or {})).fetchone()
            return None if row is None else dict(row)

        return await self.run(one)

    async def fetch_all(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """Every row a query returns."""
        return await self.run(
            lambda c: [dict(r) for r in c.execute(sql, dict(params or {})).fetchall()]
        )

    def notify(self, notice: Notice) -> None:
        """Send ``notice`` to this process's waker once the transaction commits."""
        self.notices.append(notice)


class SQLiteConnector:
    """A SQLite database file (created with its schema when missing).

    The file (with its ``-wal`` and ``-shm``) is its owner's only (0600), in a folder
    made 0700; fact values and answers are sealed with ``secrets``, by default the key
    in ``<file>.key`` beside it (made 0600 the first time).

    ``clock`` gives seconds since the epoch (leases are measured on it, so every
    process on one file must share it: the system clock); ``busy_timeout_ms`` is how
    long a write waits for another process's write lock before the call raises
    :class:`~gofer.errors.StoreUnavailable`. ``runtime_dir`` is where the wake-up
    sockets go when the folder beside the file makes too long a socket address (default:
    the system's temporary folder; see ``peers.py``).
    """

    dialect: Dialect = "sqlite"

    def __init__(
        self,
        path: str | os.PathLike[str],
        *,
        clock: Callable[[], float] = time.time,
        busy_timeout_ms: int = 10_000,
        secrets: SecretBox | None = None,
        runtime_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        self.path = Path(path)
        self.runtime_dir = Path(runtime_dir or tempfile.gettempdir())
        self.secrets = secrets
        self.clock = clock
        self.busy_timeout_ms = busy_timeout_ms
        self.queries: Mapping[str, str] = load_queries("sqlite")
        self.waker = self._shared_waker()
        self.applied: list[int] = []
        self._executor: ThreadPoolExecutor | None = None
        self._conn: sqlite3.Connection | None = None
        self._lock = asyncio.Lock()
        self._holder: SQLiteTransaction | None = None

    def _shared_waker(self) -> Waker:
        key = str(self.path.resolve())
        waker = _WAKERS.get(key)
        if waker is None:
            waker = _WAKERS[key] = peer_waker(Path(key), self.runtime_dir)
        return waker

    async def __aenter__(self) -> SQLiteConnector:
        if self._executor is not None:
            raise StoreError("this connector is already open", code="STORE_OPEN")
        private_file(self.path)
        if self.secrets is None:
            self.secrets = SecretBox.from_file(self.path.with_name(self.path.name + ".key"))
        self._executor = ThreadPoolExecutor(1, thread_name_prefix=f"gofer-sqlite-{self.path.name}")
        try:
            self._conn = await self._call(lambda _: self._connect())
            self.applied = await self._call(lambda c: migrate(c, self.clock))
        except BaseException:
            await self.__aexit__()
            raise
        return self

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path,
            isolation_level=None,
            check_same_thread=True,
            timeout=self.busy_timeout_ms / 1000,
        )
        conn.row_factory = sqlite3.Row
        _write_ahead(conn, self.busy_timeout_ms / 1000)
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute("PRAGMA foreign_keys = ON")
        conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
        return conn

    async def __aexit__(self, *exc: object) -> None:
        executor, self._executor = self._executor, None
        if executor is None:
            return
        conn, self._conn = self._conn, None
        if conn is not None:
            await asyncio.get_running_loop().run_in_executor(executor, conn.close)
        executor.shutdown(wait=True)

    async def _call(self, work: Work[T]) -> T:
        executor = self._executor
        if executor is None:
            raise StoreError("the SQLite connector is not open", code="STORE_CLOSED")

        def run() -> T:
            try:
                return work(self._conn)  # type: ignore[arg-type]
            except sqlite3.Error as error:
                raise store_error(error) from error

        return await asyncio.get_running_loop().run_in_executor(executor, run)

    async def _roll_back(self) -> None:
        """Roll back whatever transaction is open, even under a cancel that comes again
        at every await (anyio's, a server's request whose client went away): the
        rollback is handed to the connector's one thread before anything else can be,
        and runs there whether or not this waits for it."""
        executor = self._executor
        if executor is None:  # work runs in the loop's own thread (the in-memory store)
            await self._call(_rollback_if_open)
            return

        def run() -> None:
            with contextlib.suppress(sqlite3.Error):
                _rollback_if_open(self._conn)  # type: ignore[arg-type]

        await asyncio.shield(asyncio.get_running_loop().run_in_executor(executor, run))

    def transaction(self) -> AbstractAsyncContextManager[SQLiteTransaction]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` if the block raises); its
        notices reach the waker after the commit."""
        return self._begun("BEGIN IMMEDIATE")

    def snapshot(self) -> AbstractAsyncContextManager[SQLiteTransaction]:
        """A deferred ``BEGIN`` for reads: one consistent view of the file (WAL) that
        takes no write lock, so a long listing never holds up a writer."""
        return self._begun("BEGIN")

    @asynccontextmanager
    async def _begun(self, begin: str) -> AsyncIterator[SQLiteTransaction]:
        async with self._lock:
            tx = SQLiteTransaction(self)
            try:
                await self._call(lambda c: c.execute(begin))
                self._holder = tx
                yield tx
                self._holder = None
                await self._call(lambda c: c.execute("COMMIT"))
            except BaseException:
                # also when cancelled mid-hop: the thread may have begun it regardless
                self._holder = None
                await self._roll_back()
                raise
        self.waker.publish(tx.notices)

    async def write(
        self,
        work: Callable[[sqlite3.Connection, SQLiteTransaction], T],
        tx: Transaction | None = None,
    ) -> T:
        """Run ``work`` in ``tx`` (this connector's open transaction) or, without one,
        in a transaction of its own begun and committed in the same hop."""
        if tx is not None:
            if tx is not self._holder:
                raise StoreError(
                    "that transaction is not open on this connector",
                    code="STORE_FOREIGN_TRANSACTION",
                )
            mine = self._holder
            return await mine.run(lambda c: work(c, mine))
        async with self._lock:
            own = SQLiteTransaction(self)

            def whole(c: sqlite3.Connection) -> T:
                c.execute("BEGIN IMMEDIATE")
                try:
                    result = work(c, own)
                    c.execute("COMMIT")
                except BaseException:
                    _rollback_if_open(c)
                    raise
                return result

            result = await self._call(whole)
        self.waker.publish(own.notices)
        return result

    async def read(self, work: Work[T], tx: Transaction | None = None) -> T:
        """Run a read in ``tx`` or, without one, on its own."""
        if tx is not None:
            return await self.write(lambda c, _: work(c), tx)
        async with self._lock:
            return await self._call(work)

    def queue(self, config: QueueConfig | None = None) -> SQLiteQueue:
        """The work queue on this connector."""
        return SQLiteQueue(self, config or QueueConfig())


def _write_ahead(conn: sqlite3.Connection, timeout_s: float) -> None:
    """Put the file in WAL mode (kept in the file: a later opener finds it so). Another
    process that is creating the same new file holds the lock this needs, and SQLite
    answers "locked" at once rather than waiting: try again until ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    pause = 0.005
    while True:
        try:
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
            if str(mode).lower() != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)  # no event says a lock in another process was released
        pause = min(pause * 2, 0.1)


def _item(row: sqlite3.Row | Mapping[str, Any], now: float) -> Item:
    return Item(
        id=row["id"],
        kind=row["kind"],
        key=row["key"],
        payload=json.loads(row["payload"]),
        group=row["group_key"],
        owner=row["owner"],
        state=read_state(
            row["state"], row["attempts"], row["max_attempts"], row["lease_expires_at"], now
        ),
        attempts=row["attempts"],
        max_attempts=row["max_attempts"],
        worker=row["worker"],
        last_error=row["last_error"],
        created_at=row["created_at"],
        finished_at=row["finished_at"],
        lease_expires_at=row["lease_expires_at"],
        preferred=row["preferred_worker"],
        preferred_until=row["preferred_until"],
    )


class SQLiteQueue(QueueBase):
    """The work queue in a SQLite file (see the module's docstring)."""

    def __init__(self, connector: SQLiteConnector, config: QueueConfig) -> None:
        self.connector = connector
        self.config = config
        self._q = connector.queries

    async def enqueue(
        self,
        kind: str,
        payload: Mapping[str, Any],
        key: str | None = None,
        *,
        tx: Transaction | None = None,
        prefer: str | None = None,
        prefer_ms: int = 0,
    ) -> Item:
        """Add an item (or return the one already enqueued under ``key``), reserved
        for the worker ``prefer`` for ``prefer_ms`` when given."""
        group, owner, max_attempts = self.config.placement(kind, payload)
        worker, window = preference(prefer, prefer_ms)
        data = json.dumps(dict(payload))

        def work(c: sqlite3.Connection, t: SQLiteTransaction) -> Item:
            now = self.connector.clock()
            row = c.execute(
                self._q["enqueue_item"],
                {
                    "kind": kind,
                    "key": key,
                    "payload": data,
                    "group_key": group,
                    "owner": owner,
                    "max_attempts": max_attempts,
                    "now": now,
                    "prefer": worker,
                    "prefer_until": now + window / 1000 if worker else None,
                },
            ).fetchone()
            if row is None:
                row = c.execute(self._q["item_by_key"], {"key": key}).fetchone()
                return _item(row, now)
            t.notify(
                Notice(
                    "enqueued",
                    kind=kind,
                    group=group,
                    owner=owner,
                    id=row["id"],
                    prefer_ms=window or None,
                )
            )
            return _item(row, now)

        return await self.connector.write(work, tx)

    async def _lease(
        self,
        kinds: Sequence[str],
        worker: str,
        lease_ms: int,
        limit: int,
        running_at_most: int | None,
        fit: Fit,
    ) -> list[Claim]:
        """Lease up to ``limit`` items under the queue's rules, in one transaction."""
        names = json.dumps(list(kinds))
        return await self.connector.write(
            partial(self._claim, names, worker, lease_ms, limit, running_at_most, fit)
        )

    def _claim(
        self,
        names: str,
        worker: str,
        lease_ms: int,
        limit: int,
        cap: int | None,
        fit: Fit,
        c: sqlite3.Connection,
        _: SQLiteTransaction,
    ) -> list[Claim]:
        now = self.connector.clock()
        scan = max(limit * 2, 16)
        picked: dict[str | None, int] = {}
        chosen: list[int] = []
        after = 0
        while len(chosen) < limit:
            rows = c.execute(
                self._q["claim_candidates"],
                {
                    "kinds": names,
                    "now": now,
                    "cap": cap,
                    "after": after,
                    "scan": scan,
                    "worker": worker,
                    "able": fit.able_json,
                    "own": int(fit.own),
                },
            ).fetchall()
            for row in rows:
                owner = row["owner"]
                if cap is not None and owner is not None:
                    if row["running"] + picked.get(owner, 0) >= cap:
                        continue
                    picked[owner] = picked.get(owner, 0) + 1
                chosen.append(row["id"])
                if len(chosen) >= limit:
                    break
            if len(rows) < scan:
                break
            after = rows[-1]["id"]
        claims: list[Claim] = []
        expires = now + lease_ms / 1000
        for item_id in chosen:
            token = uuid.uuid4().hex
            row = c.execute(
                self._q["claim_item"],
                {
                    "id": item_id,
                    "worker": worker,
                    "token": token,
                    "expires": expires,
                },
            ).fetchone()
            claims.append(
                Claim(
                    id=row["id"],
                    kind=row["kind"],
                    payload=json.loads(row["payload"]),
                    group=row["group_key"],
                    owner=row["owner"],
                    attempt=row["attempts"],
                    max_attempts=row["max_attempts"],
                    worker=worker,
                    token=token,
                    lease_ms=lease_ms,
                )
            )
        return claims

    async def keep_preferred(self, worker: str, prefer_ms: int) -> int:
        """Push on the windows of the queued items reserved for ``worker``."""

        def work(c: sqlite3.Connection, _: SQLiteTransaction) -> int:
            now = self.connector.clock()
            params = {"worker": worker, "now": now, "until": now + prefer_ms / 1000}
            return c.execute(self._q["keep_preferred"], params).rowcount

        return await self.connector.write(work)

    async def renew(self, claim: Claim, lease_ms: int | None = None) -> None:
        """Extend a live lease from now."""

        def work(c: sqlite3.Connection, _: SQLiteTransaction) -> int:
            now = self.connector.clock()
            return c.execute(
                self._q["renew_lease"],
                {
                    "id": claim.id,
                    "token": claim.token,
                    "now": now,
                    "expires": now + (lease_ms or claim.lease_ms) / 1000,
                },
            ).rowcount

        if await self.connector.write(work) != 1:
            raise lease_lost(claim)

    async def finish(
        self,
        claim: Claim,
        result: Mapping[str, Any] | None = None,
        *,
        tx: Transaction | None = None,
    ) -> None:
        """Mark the item done, merging ``result`` into its payload."""

        def work(c: sqlite3.Connection, t: SQLiteTransaction) -> bool:
            now = self.connector.clock()
            lease = {"id": claim.id, "token": claim.token, "now": now}
            merged = None
            if result:
                row = c.execute(self._q["leased_payload"], lease).fetchone()
                if row is None:
                    return False
                merged = json.dumps({**json.loads(row["payload"]), **dict(result)})
            done = c.execute(self._q["finish_item"], {**lease, "payload": merged}).fetchone()
            if done is None:
                return False
            t.notify(
                Notice(
                    "finished",
                    kind=done["kind"],
                    group=done["group_key"],
                    owner=done["owner"],
                    id=claim.id,
                )
            )
            return True

        if not await self.connector.write(work, tx):
            raise lease_lost(claim)

    async def release(
        self,
        claim: Claim,
        *,
        unstarted: bool = False,
        error: str | None = None,
        tx: Transaction | None = None,
    ) -> None:
        """Give the item back (refunding the attempt when ``unstarted``)."""

        def work(c: sqlite3.Connection, t: SQLiteTransaction) -> bool:
            row = c.execute(
                self._q["release_item"],
                {
                    "id": claim.id,
                    "token": claim.token,
                    "now": self.connector.clock(),
                    "refund": 1 if unstarted else 0,
                    "error": error,
                },
            ).fetchone()
            if row is None:
                return False
            t.notify(
                Notice(
                    "released",
                    kind=row["kind"],
                    group=row["group_key"],
                    owner=row["owner"],
                    id=claim.id,
                )
            )
            return True

        if not await self.connector.write(work, tx):
            raise lease_lost(claim)

    async def open_count(self, owner: str, *, tx: Transaction | None = None) -> int:
        """How many of the owner's items wait or run."""

        def work(c: sqlite3.Connection) -> int:
            row = c.execute(self._q["open_items_of_owner"], {"owner": owner}).fetchone()
            return int(row["n"])

        return await self.connector.read(work, tx)

    async def get(self, item_id: int, *, tx: Transaction | None = None) -> Item | None:
        """One item by id."""

        def work(c: sqlite3.Connection) -> Item | None:
            row = c.execute(self._q["get_item"], {"id": item_id}).fetchone()
            return None if row is None else _item(row, self.connector.clock())

        return await self.connector.read(work, tx)

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
        first; each read is an index lookup on its first given filter."""
        if group is None and owner is None and key is None:
            raise ValueError("items() needs a group, an owner or a key")
        names = None if kinds is None else json.dumps(list(kinds))

        def work(c: sqlite3.Connection) -> list[Item]:
            now = self.connector.clock()
            if key is not None:
                rows = c.execute(self._q["item_by_key"], {"key": key}).fetchall()
            elif group is not None:
                rows = c.execute(
                    self._q["items_by_group"], {"group": group, "owner": owner, "kinds": names}
                ).fetchall()
            else:
                rows = c.execute(
                    self._q["items_by_owner"], {"owner": owner, "kinds": names}
                ).fetchall()
            found = [_item(r, now) for r in rows]
            return [
                i
                for i in found
                if (group is None or i.group == group)
                and (owner is None or i.owner == owner)
                and (kinds is None or i.kind in kinds)
            ]

        return await self.connector.read(work, tx)

    def subscribe(self) -> AbstractContextManager[Subscription]:
        """Wake-ups for enqueues, finishes and releases in this process."""
        return self.connector.waker.subscribe()


if TYPE_CHECKING:

    def _conforms(queue: SQLiteQueue, connector: SQLiteConnector) -> tuple[WorkQueue, Connector]:
        return queue, connector
