"""The PostgreSQL connector and work queue: many worker processes on many machines.

PostgreSQL coordinates the workers. A claim is one call of the ``gofer_claim``
function (migration 0003): one streaming scan of the open items, each group and each
owner looked at once a call under advisory locks that are tried rather than waited for
(a busy owner is passed over), rows taken ``FOR UPDATE SKIP LOCKED``, so racing workers
can pass neither a serial group nor a running cap and seldom wait on each other.
Every queue call outside a caller's transaction is a single statement on an
autocommit connection from a pool (one round trip). Leases run on the
database's clock, so workers on machines with skewed clocks agree on them.

Waking: writes NOTIFY on channel ``gofer_queue`` inside their own transaction; one
connection per connector LISTENs and forwards every notice to the connector's
:class:`~gofer.store.Waker`, so a worker in any process wakes on any other's enqueue
or finish. If that connection drops it is opened again; waiters' timeouts (seconds
apart) cover the gap. The channel is the database's, so each notice names the schema
it was written in and a connector hears only its own schema's: stores kept in
schemas of one database do not wake each other.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager, asynccontextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any, cast

import psycopg
from psycopg.rows import DictRow, dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from gofer.errors import StoreError, StoreUnavailable
from gofer.store.queue import Fit, QueueBase, lease_lost, preference
from gofer.store.schema import MIGRATIONS_TABLE, load_migrations, load_queries, pending
from gofer.store.sealing import SecretBox
from gofer.store.transaction import Dialect, Row, Transaction
from gofer.store.types import Claim, Item, QueueConfig, read_state
from gofer.store.waking import CHANNEL, Notice, Subscription, Waker

if TYPE_CHECKING:
    from gofer.store.connector import Connector
    from gofer.store.queue import WorkQueue

__all__ = ["PostgresConnector", "PostgresQueue", "PostgresTransaction"]

log = logging.getLogger(__name__)

Conn = psycopg.AsyncConnection[DictRow]

_MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(hashtext('gofer_migrations'))"


_READ_ONLY = psycopg.errors.ReadOnlySqlTransaction


def _store_error(error: Exception) -> StoreError:
    # a full disk (class 53) is an OperationalError; a read-only server is not
    if isinstance(error, psycopg.OperationalError | PoolTimeout | _READ_ONLY):
        return StoreUnavailable(f"PostgreSQL: {error}")
    if isinstance(error, psycopg.errors.IntegrityError):
        return StoreError(f"PostgreSQL refused the write: {error}", code="STORE_CONSTRAINT")
    return StoreError(f"PostgreSQL: {error}")


@asynccontextmanager
async def _errors() -> AsyncIterator[None]:
    try:
        yield
    except (psycopg.Error, PoolTimeout) as error:
        raise _store_error(error) from error


class PostgresTransaction:
    """An open transaction on one pooled connection of a :class:`PostgresConnector`."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn
        self.notices: list[Notice] = []

    async def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        """Run a statement; the number of rows it touched."""
        async with _errors():
            cur = await self.conn.execute(sql, params)
            return cur.rowcount

    async def fetch_one(self, sql: str, params: Mapping[str, Any] | None = None) -> Row | None:
        """The first row a query returns, or ``None``."""
        async with _errors():
            cur = await self.conn.execute(sql, params)
            return await cur.fetchone()

    async def fetch_all(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """Every row a query returns."""
        async with _errors():
            cur = await self.conn.execute(sql, params)
            return await cur.fetchall()

    def notify(self, notice: Notice) -> None:
        """NOTIFY every process's waker with ``notice`` when this transaction commits."""
        self.notices.append(notice)


class PostgresConnector:
    """A PostgreSQL database at ``url`` (a ``postgresql://`` URL).

    ``min_size``/``max_size`` bound the connection pool (plus one LISTEN connection);
    ``connect_timeout_s`` is how long a call waits for a pooled connection before it
    raises :class:`~gofer.errors.StoreUnavailable`. Fact values and answers are sealed
    with ``secrets`` (every process on the database needs the same key); without one
    they are written as they are.
    """

    dialect: Dialect = "postgres"

    def __init__(
        self,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 8,
        connect_timeout_s: float = 10.0,
        secrets: SecretBox | None = None,
    ) -> None:
        self.url = url
        self.secrets = secrets
        self.queries: Mapping[str, str] = load_queries("postgres")
        self.waker = Waker()
        self.applied: list[int] = []
        self.listening = asyncio.Event()
        self._timeout = connect_timeout_s
        self._pool: AsyncConnectionPool[Conn] = AsyncConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            open=False,
            timeout=connect_timeout_s,
            kwargs={"autocommit": True, "row_factory": dict_row},
            connection_class=psycopg.AsyncConnection[DictRow],
            name="gofer-store",
        )
        self._listener: asyncio.Task[None] | None = None
        self._stopping = asyncio.Event()

    async def __aenter__(self) -> PostgresConnector:
        async with _errors():
            await self._pool.open(wait=True, timeout=self._timeout)
        try:
            self.applied = await self._migrate()
            self._stopping.clear()
            self._listener = asyncio.create_task(self._listen(), name="gofer-store-listen")
            try:
                await asyncio.wait_for(self.listening.wait(), self._timeout)
            except TimeoutError:
                raise StoreUnavailable(
                    f"PostgreSQL: no LISTEN connection within {self._timeout:g} s"
                ) from None
        except BaseException:
            await self.__aexit__()
            raise
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._stopping.set()
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.cancel()
            await asyncio.wait([listener])
        await self._pool.close()

    async def _migrate(self) -> list[int]:
        """Apply the pending migrations in one transaction under an advisory lock:
        processes opening one database at once apply each migration exactly once."""
        async with _errors(), self._pool.connection() as conn, conn.transaction():
            await conn.execute(_MIGRATION_LOCK)
            await conn.execute(
                f"CREATE TABLE IF NOT EXISTS {MIGRATIONS_TABLE} (version integer PRIMARY KEY,"
                " name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
            )
            cur = await conn.execute(f"SELECT version, name FROM {MIGRATIONS_TABLE}")
            applied = {int(r["version"]): str(r["name"]) for r in await cur.fetchall()}
            done: list[int] = []
            for migration in pending(load_migrations("postgres"), applied):
                await conn.execute(migration.sql.encode())
                await conn.execute(
                    f"INSERT INTO {MIGRATIONS_TABLE} (version, name) VALUES (%s, %s)",
                    (migration.version, migration.name),
                )
                done.append(migration.version)
            return done

    async def _listen(self) -> None:
        """LISTEN on the store's channel and forward what it hears, reconnecting after
        a drop (a second apart) until the connector closes."""
        while not self._stopping.is_set():
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with conn:
                    cur = await conn.execute("SELECT current_schema()")
                    row = await cur.fetchone()
                    schema = str(row[0]) if row is not None else None
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    async for note in conn.notifies():
                        self._forward(note.payload, schema)
            except psycopg.Error as error:
                log.warning("store LISTEN connection lost (%s); reconnecting", error)
            self.listening.clear()
            await asyncio.sleep(1.0)

    def _forward(self, payload: str, schema: str | None) -> None:
        try:
            data = json.loads(payload)
        except json.JSONDecodeError:
            log.warning("a notice on %s that is not JSON was ignored", CHANNEL)
            return
        if isinstance(data, dict) and data.get("store") == schema:
            self.waker.notify(Notice.from_dict(data))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTransaction]:
        """``BEGIN`` ... ``COMMIT`` on one pooled connection (rolled back if the block
        raises); its notices are sent with the commit."""
        async with _errors(), self._pool.connection() as conn, conn.transaction():
            tx = PostgresTransaction(conn)
            yield tx
            for notice in tx.notices:
                await conn.execute(
                    self.queries["notify"], {"payload": json.dumps(notice.to_dict())}
                )

    def snapshot(self) -> AbstractAsyncContextManager[PostgresTransaction]:
        """A transaction for reads (PostgreSQL's reads never block its writers)."""
        return self.transaction()

    @asynccontextmanager
    async def conn(self, tx: Transaction | None) -> AsyncIterator[Conn]:
        """``tx``'s connection, or a pooled autocommit one for a single statement."""
        if tx is not None:
            if not isinstance(tx, PostgresTransaction):
                raise StoreError(
                    "that transaction is not a PostgreSQL one", code="STORE_FOREIGN_TRANSACTION"
                )
            async with _errors():
                yield tx.conn
            return
        async with _errors(), self._pool.connection() as conn:
            yield conn

    def queue(self, config: QueueConfig | None = None) -> PostgresQueue:
        """The work queue on this connector."""
        return PostgresQueue(self, config or QueueConfig())


def _epoch(value: datetime | None) -> float | None:
    return None if value is None else value.timestamp()


def _item(row: Mapping[str, Any]) -> Item:
    lease = _epoch(row["lease_expires_at"])
    now = cast(datetime, row["read_at"]).timestamp()
    return Item(
        id=row["id"],
        kind=row["kind"],
        key=row["key"],
        payload=dict(row["payload"]),
        group=row["group_key"],
        owner=row["owner"],
        state=read_state(row["state"], row["attempts"], row["max_attempts"], lease, now),
        attempts=row["attempts"],
        max_attempts=row["max_attempts"],
        worker=row["worker"],
        last_error=row["last_error"],
        created_at=cast(datetime, row["created_at"]).timestamp(),
        finished_at=_epoch(row["finished_at"]),
        lease_expires_at=lease,
        preferred=row["preferred_worker"],
        preferred_until=_epoch(row["preferred_until"]),
    )


class PostgresQueue(QueueBase):
    """The work queue in PostgreSQL (see the module's docstring)."""

    def __init__(self, connector: PostgresConnector, config: QueueConfig) -> None:
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
        for the worker ``prefer`` for ``prefer_ms`` (the database's clock) when given."""
        group, owner, max_attempts = self.config.placement(kind, payload)
        worker, window = preference(prefer, prefer_ms)
        async with self.connector.conn(tx) as conn:
            cur = await conn.execute(
                self._q["enqueue_item"],
                {
                    "kind": kind,
                    "key": key,
                    "payload": Jsonb(dict(payload)),
                    "group_key": group,
                    "owner": owner,
                    "max_attempts": max_attempts,
                    "prefer": worker,
                    "prefer_ms": window,
                },
            )
            row = await cur.fetchone()
            if row is None:
                # the key was taken: read the item in a fresh snapshot, where a
                # concurrent enqueue that won the race has committed
                cur = await conn.execute(self._q["item_by_key"], {"key": key})
                row = await cur.fetchone()
                if row is None:
                    raise StoreError(
                        f"the item enqueued under key {key!r} vanished", code="STORE_ERROR"
                    )
                return _item(row)
            return _item({**row, "read_at": row["created_at"]})

    async def _lease(
        self,
        kinds: Sequence[str],
        worker: str,
        lease_ms: int,
        limit: int,
        running_at_most: int | None,
        fit: Fit,
    ) -> list[Claim]:
        """Lease up to ``limit`` items under the queue's rules, in one statement."""
        async with self.connector.conn(None) as conn:
            cur = await conn.execute(
                self._q["claim_items"],
                {
                    "kinds": list(kinds),
                    "worker": worker,
                    "lease_ms": lease_ms,
                    "limit": limit,
                    "cap": running_at_most,
                    "able": None if fit.able is None else sorted(set(fit.able)),
                    "own": fit.own,
                },
            )
            rows = await cur.fetchall()
        return [
            Claim(
                id=r["id"],
                kind=r["kind"],
                payload=dict(r["payload"]),
                group=r["group_key"],
                owner=r["owner"],
                attempt=r["attempts"],
                max_attempts=r["max_attempts"],
                worker=worker,
                token=r["token"],
                lease_ms=lease_ms,
            )
            for r in rows
        ]

    async def keep_preferred(self, worker: str, prefer_ms: int) -> int:
        """Push on the windows of the queued items reserved for ``worker``."""
        async with self.connector.conn(None) as conn:
            cur = await conn.execute(
                self._q["keep_preferred"], {"worker": worker, "prefer_ms": prefer_ms}
            )
            return cur.rowcount

    async def renew(self, claim: Claim, lease_ms: int | None = None) -> None:
        """Extend a live lease from now (the database's clock)."""
        async with self.connector.conn(None) as conn:
            cur = await conn.execute(
                self._q["renew_lease"],
                {
                    "id": claim.id,
                    "token": claim.token,
                    "lease_ms": lease_ms or claim.lease_ms,
                },
            )
            if cur.rowcount != 1:
                raise lease_lost(claim)

    async def finish(
        self,
        claim: Claim,
        result: Mapping[str, Any] | None = None,
        *,
        tx: Transaction | None = None,
    ) -> None:
        """Mark the item done, merging ``result`` into its payload."""
        async with self.connector.conn(tx) as conn:
            cur = await conn.execute(
                self._q["finish_item"],
                {
                    "id": claim.id,
                    "token": claim.token,
                    "result": Jsonb(dict(result or {})),
                },
            )
            if await cur.fetchone() is None:
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
        async with self.connector.conn(tx) as conn:
            cur = await conn.execute(
                self._q["release_item"],
                {
                    "id": claim.id,
                    "token": claim.token,
                    "refund": 1 if unstarted else 0,
                    "error": error,
                },
            )
            if await cur.fetchone() is None:
                raise lease_lost(claim)

    async def open_count(self, owner: str, *, tx: Transaction | None = None) -> int:
        """How many of the owner's items wait or run."""
        async with self.connector.conn(tx) as conn:
            cur = await conn.execute(self._q["open_items_of_owner"], {"owner": owner})
            row = await cur.fetchone()
        return 0 if row is None else int(row["n"])

    async def get(self, item_id: int, *, tx: Transaction | None = None) -> Item | None:
        """One item by id."""
        async with self.connector.conn(tx) as conn:
            cur = await conn.execute(self._q["get_item"], {"id": item_id})
            row = await cur.fetchone()
        return None if row is None else _item(row)

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
        names = None if kinds is None else list(kinds)
        async with self.connector.conn(tx) as conn:
            if key is not None:
                cur = await conn.execute(self._q["item_by_key"], {"key": key})
            elif group is not None:
                cur = await conn.execute(
                    self._q["items_by_group"], {"group": group, "owner": owner, "kinds": names}
                )
            else:
                cur = await conn.execute(
                    self._q["items_by_owner"], {"owner": owner, "kinds": names}
                )
            rows = await cur.fetchall()
        found = [_item(r) for r in rows]
        return [
            i
            for i in found
            if (group is None or i.group == group)
            and (owner is None or i.owner == owner)
            and (kinds is None or i.kind in kinds)
        ]

    def subscribe(self) -> AbstractContextManager[Subscription]:
        """Wake-ups for enqueues, finishes and releases in every process."""
        return self.connector.waker.subscribe()


if TYPE_CHECKING:

    def _conforms(
        queue: PostgresQueue, connector: PostgresConnector
    ) -> tuple[WorkQueue, Connector]:
        return queue, connector
