"""gofer's durable store: the work queue (and, beside it, the ledgers, the idempotency
keys, the bearer tokens and the page sessions) on SQLite, on PostgreSQL, or in memory
(SQLite in memory: the same SQL), behind one connector interface (see ``connector.py``)."""

from __future__ import annotations

from gofer.store.connector import Connector
from gofer.store.lease import LeaseKeeper, keep_lease
from gofer.store.memory import MemoryConnector
from gofer.store.postgres import PostgresConnector, PostgresQueue, PostgresTransaction
from gofer.store.queue import WorkQueue
from gofer.store.sealing import SecretBox
from gofer.store.sessions import Sessions, StoredSession
from gofer.store.sqlite import SQLiteConnector, SQLiteQueue, SQLiteTransaction
from gofer.store.tokens import IssuedToken, TokenInfo, Tokens, token_digest
from gofer.store.transaction import Dialect, Row, Transaction
from gofer.store.types import (
    Claim,
    GroupNamer,
    Item,
    ItemState,
    QueueConfig,
    SerialKind,
    SerialOrder,
)
from gofer.store.waking import CHANNEL, Notice, Subscription, Waker

__all__ = [
    "CHANNEL",
    "Claim",
    "Connector",
    "Dialect",
    "GroupNamer",
    "IssuedToken",
    "Item",
    "ItemState",
    "LeaseKeeper",
    "MemoryConnector",
    "Notice",
    "PostgresConnector",
    "PostgresQueue",
    "PostgresTransaction",
    "QueueConfig",
    "Row",
    "SQLiteConnector",
    "SQLiteQueue",
    "SQLiteTransaction",
    "SecretBox",
    "SerialKind",
    "SerialOrder",
    "Sessions",
    "StoredSession",
    "Subscription",
    "TokenInfo",
    "Tokens",
    "Transaction",
    "Waker",
    "WorkQueue",
    "keep_lease",
    "token_digest",
]
