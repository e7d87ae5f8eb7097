"""Live holders kept in the store (migration 0008): which process holds a paused
task's browser for a person, and the private address its live view is served at, so
a person on any server of the database can take the task over.

:class:`LiveHolders` runs the named blocks of ``sql/<dialect>/holders.sql`` on any
connector (SQLite, PostgreSQL, or the in-memory one). One row per task: the hold that
kept the browser last writes it, and a hold that ends removes its own row only (by
its random ``hold`` id), so an older hold ending late never hides a newer one. A row
whose holder died is not read after its ``expires_at``.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gofer.store.transaction import Transaction

if TYPE_CHECKING:
    from gofer.store.connector import Connector

__all__ = ["LiveHolder", "LiveHolders"]


@dataclass(frozen=True, slots=True)
class LiveHolder:
    """Who holds a task's browser (a worker's id), which hold of it, and where that
    process serves live views (``host:port``)."""

    holder: str
    hold: str
    address: str


class LiveHolders:
    """The live holders on ``connector``; times are given by the caller."""

    def __init__(self, connector: Connector) -> None:
        self.connector = connector

    async def put(
        self,
        task_id: str,
        holder: LiveHolder,
        *,
        now: float,
        expires_at: float,
        tx: Transaction | None = None,
    ) -> None:
        """Say ``holder`` holds the task's browser until ``expires_at`` (a row already
        there is replaced: the newest hold wins), in ``tx`` when given (with the turn's
        end: the hold shows with the status). Expired rows are purged."""
        q = self.connector.queries
        within: AbstractAsyncContextManager[Transaction] = (
            nullcontext(tx) if tx is not None else self.connector.transaction()
        )
        async with within as tx:
            await tx.execute(q["holders_purge"], {"now": now})
            await tx.execute(
                q["holders_put"],
                {
                    "task_id": task_id,
                    "holder": holder.holder,
                    "hold": holder.hold,
                    "address": holder.address,
                    "expires_at": expires_at,
                },
            )

    async def drop(self, task_id: str, hold: str) -> None:
        """The hold ``hold`` of the task ended (no effect on a newer hold's row)."""
        async with self.connector.transaction() as tx:
            await tx.execute(
                self.connector.queries["holders_drop"], {"task_id": task_id, "hold": hold}
            )

    async def drop_all(self, holder: str) -> None:
        """Every hold of ``holder`` ended (its process stops)."""
        async with self.connector.transaction() as tx:
            await tx.execute(self.connector.queries["holders_drop_all"], {"holder": holder})

    async def get(self, task_id: str, *, now: float) -> LiveHolder | None:
        """Who holds the task's browser now, if anyone does."""
        async with self.connector.snapshot() as tx:
            row = await tx.fetch_one(
                self.connector.queries["holders_get"], {"task_id": task_id, "now": now}
            )
        if row is None:
            return None
        return LiveHolder(str(row["holder"]), str(row["hold"]), str(row["address"]))
