"""The in-memory connector: a SQLite database held in memory, for one process.

It is the one fake of the store, faked at the connector (as procrastinate fakes its
connector once): the work queue, the ledgers, the idempotency keys and the tokens run
the very SQL they run on a SQLite file, so there is no second implementation of their
rules to keep in step. Its calls run on the event loop's own thread (a database in
memory answers in microseconds, and has no file to wait on), so an uncontended call
completes without giving the loop away, as a dict would. It opens itself on first use
(a controller or a face without a store makes one) and is gone when closed.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from typing import TypeVar

from gofer.errors import StoreError
from gofer.store.sqlite import SQLiteConnector, Work, migrate, store_error
from gofer.store.waking import Waker

__all__ = ["MemoryConnector"]

T = TypeVar("T")


class MemoryConnector(SQLiteConnector):
    """A SQLite database in memory; ``clock`` gives seconds since the epoch."""

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        super().__init__(":memory:", clock=clock)
        self._closed = False

    def _shared_waker(self) -> Waker:
        return Waker()  # no other connector sees this database

    def _open(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreError("the in-memory connector is closed", code="STORE_CLOSED")
        if self._conn is None:
            conn = self._connect()
            self.applied = migrate(conn, self.clock)
            self._conn = conn
        return self._conn

    async def __aenter__(self) -> MemoryConnector:
        self._open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._closed = True
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    async def _call(self, work: Work[T]) -> T:
        conn = self._open()
        try:
            return work(conn)
        except sqlite3.Error as error:
            raise store_error(error) from error
