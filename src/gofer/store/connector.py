"""The one connector interface every store part shares.

A connector is a database handle opened with ``async with``: opening it applies the
migrations not yet recorded, closing it stops its background work. The work queue and
the ledgers both write through :meth:`Connector.transaction`, so a ledger's rows and an
enqueue can commit together (or not at all). Notices added to a transaction reach the
:attr:`Connector.waker` of every process only once it commits.

    async with SQLiteConnector(path) as db:          # or PostgresConnector(url)
        queue = db.queue(config)
        async with db.transaction() as tx:
            await tx.execute(db.queries["insert_task"], {...})
            await queue.enqueue("turn", {...}, tx=tx)
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Protocol

from gofer.store.transaction import Dialect, Transaction
from gofer.store.waking import Waker

if TYPE_CHECKING:
    from gofer.store.queue import WorkQueue
    from gofer.store.sealing import SecretBox
    from gofer.store.types import QueueConfig

__all__ = ["Connector"]


class Connector(Protocol):
    """A database handle shared by the queue and the ledgers."""

    dialect: Dialect
    waker: Waker
    queries: Mapping[str, str]
    secrets: SecretBox | None
    """What the ledgers seal fact values and answers with (None: written as they are)."""

    async def __aenter__(self) -> Connector: ...

    async def __aexit__(self, *exc: object) -> None: ...

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """A transaction: committed when the block ends, rolled back if it raises.
        Writers are serialized where the database needs it (SQLite: BEGIN IMMEDIATE)."""
        ...

    def snapshot(self) -> AbstractAsyncContextManager[Transaction]:
        """A transaction for reads only: a consistent view that takes no write lock
        (SQLite: a deferred BEGIN). Nothing may be written in it."""
        ...

    def queue(self, config: QueueConfig | None = None) -> WorkQueue:
        """The work queue on this connector."""
        ...
