"""Idempotency keys kept in the store, so a retried create finds what the first one
made after a restart, and from any process on the same database.

A key is ``(owner, route, key)``. :meth:`KeyLedger.claim` writes a pending row for a
request about to run, unless the key has a row already, which it returns: finished
(with the JSON its request made), or pending (that request still runs, or died; a
pending row older than ``stale_s`` is taken over, as is any row older than the
time to live). :meth:`KeyLedger.complete` records the result, :meth:`KeyLedger.forget`
drops a pending row whose request failed, so it may be retried.
:meth:`KeyLedger.secret` is a random key made once per database (the digests of
request bodies are keyed with it).

:class:`SQLKeys` runs the named blocks of ``sql/<dialect>/keys.sql`` (migration
0004) on every connector (the in-memory one is SQLite in memory).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from gofer.store.transaction import Transaction

if TYPE_CHECKING:
    from gofer.store.connector import Connector

__all__ = ["Claimed", "KeyLedger", "SQLKeys", "keys_for", "named_secret"]


@dataclass(frozen=True)
class Claimed:
    """A key's row: ``result`` is None while its request runs; ``mine`` says this call
    wrote (or took over) the row, ``created_at`` names that claim."""

    fingerprint: str
    result: Any
    created_at: float
    mine: bool


class KeyLedger(Protocol):
    """Idempotency keys on one connector."""

    async def claim(
        self,
        owner: str,
        route: str,
        key: str,
        fingerprint: str,
        *,
        now: float,
        ttl_s: float,
        stale_s: float,
    ) -> Claimed:
        """The key's row, claimed for this request when it had none (or a stale one)."""
        ...

    async def complete(self, owner: str, route: str, key: str, claimed: float, result: Any) -> None:
        """Record what the request that made claim ``claimed`` made."""
        ...

    async def forget(self, owner: str, route: str, key: str, claimed: float) -> None:
        """Drop claim ``claimed``'s pending row (its request failed)."""
        ...

    async def secret(self) -> bytes:
        """This database's key for request digests (made on first use)."""
        ...


def keys_for(connector: Connector) -> KeyLedger:
    """The idempotency keys on ``connector`` (in memory, too, they run the same SQL)."""
    return SQLKeys(connector)


class SQLKeys:
    """Keys in SQL (migration 0004), through ``sql/<dialect>/keys.sql``."""

    def __init__(self, connector: Connector) -> None:
        self.connector = connector
        self.queries = connector.queries

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[Transaction]:
        async with self.connector.transaction() as tx:
            yield tx

    async def claim(
        self,
        owner: str,
        route: str,
        key: str,
        fingerprint: str,
        *,
        now: float,
        ttl_s: float,
        stale_s: float,
    ) -> Claimed:
        """The key's row, or a new pending one (one transaction)."""
        slot = {"owner": owner, "route": route, "key": key}
        async with self._tx() as tx:
            await tx.execute(self.queries["keys_expire"], {"expired": now - ttl_s})
            params = {
                **slot,
                "fingerprint": fingerprint,
                "now": now,
                "expired": now - ttl_s,
                "stale": now - stale_s,
            }
            if await tx.execute(self.queries["keys_claim"], params) or await tx.execute(
                self.queries["keys_take_over"], params
            ):
                return Claimed(fingerprint, None, now, True)
            row = await tx.fetch_one(self.queries["keys_get"], slot)
        assert row is not None, "a key that could not be claimed has a row"
        result = row["result"]
        if isinstance(result, str | bytes):
            result = json.loads(result)
        return Claimed(str(row["fingerprint"]), result, float(row["created_at"]), False)

    async def complete(self, owner: str, route: str, key: str, claimed: float, result: Any) -> None:
        """Record the result of claim ``claimed``."""
        async with self._tx() as tx:
            await tx.execute(
                self.queries["keys_complete"],
                {
                    "owner": owner,
                    "route": route,
                    "key": key,
                    "claimed": claimed,
                    "result": json.dumps(result),
                },
            )

    async def forget(self, owner: str, route: str, key: str, claimed: float) -> None:
        """Drop claim ``claimed``'s pending row."""
        async with self._tx() as tx:
            await tx.execute(
                self.queries["keys_forget"],
                {"owner": owner, "route": route, "key": key, "claimed": claimed},
            )

    async def secret(self) -> bytes:
        """This database's digest key, made by whichever process asked first."""
        return await named_secret(self.connector, "idempotency")


async def named_secret(connector: Connector, name: str) -> bytes:
    """The database's random key called ``name`` (256 bits), made by whichever process
    asked first; every process on the database reads the same one."""
    async with connector.transaction() as tx:
        await tx.execute(
            connector.queries["secret_put"], {"name": name, "value": secrets.token_hex(32)}
        )
        row = await tx.fetch_one(connector.queries["secret_get"], {"name": name})
    assert row is not None, "secret_put leaves a row"
    return bytes.fromhex(str(row["value"]))
