"""One open transaction, as every store part writes through it (see connector.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Protocol

from gofer.store.waking import Notice

__all__ = ["Dialect", "Row", "Transaction"]

Dialect = Literal["memory", "sqlite", "postgres"]

Row = dict[str, Any]


class Transaction(Protocol):
    """One open transaction. ``sql`` is a named block from :attr:`Connector.queries`
    (PostgreSQL: ``%(name)s`` placeholders; SQLite: ``:name``). The in-memory
    connector has no SQL: its transaction only groups writes and defers notices."""

    async def execute(self, sql: str, params: Mapping[str, Any] | None = None) -> int:
        """Run a statement; the number of rows it touched."""
        ...

    async def fetch_one(self, sql: str, params: Mapping[str, Any] | None = None) -> Row | None:
        """The first row a query returns, or ``None``."""
        ...

    async def fetch_all(self, sql: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """Every row a query returns."""
        ...

    def notify(self, notice: Notice) -> None:
        """Send ``notice`` to every process's waker once this transaction commits."""
        ...
