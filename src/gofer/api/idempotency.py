"""Idempotency keys: a retried create answers with the tasks the first one opened,
also after a restart and from another server process on the same store.

A key belongs to one owner and one call. The first request with a key runs; one
with the same key and the same body, at the same time or later, gets the tasks the
first one made; one with the same key and another body is refused
(IDEMPOTENCY_KEY_REUSED); one while the first still runs in another process is told
to retry (IDEMPOTENCY_KEY_BUSY), and in this process it waits for the first. A
request that failed leaves no trace, so it may be retried with its key. Keys live in
the store (:mod:`gofer.store.keys`) for IDEMPOTENCY_TTL_S. Bodies are kept only as an
HMAC under a key the database makes once (a fact's value is never stored, even
hashed as itself).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from gofer.errors import ApiError, InvalidRequest
from gofer.store import Connector, MemoryConnector
from gofer.store.keys import KeyLedger, keys_for

__all__ = ["IDEMPOTENCY_TTL_S", "STALE_S", "Idempotency"]

IDEMPOTENCY_TTL_S = 24 * 3600
"""How long a key is remembered."""

STALE_S = 120.0
"""A key whose request has run this long without an answer is taken as abandoned (its
process died): a retry runs it afresh."""

_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")

Ids = list[str]
"""What a keyed request made: the ids of the tasks it started."""


@dataclass(slots=True)
class _Flight:
    fingerprint: str
    result: asyncio.Future[Ids]


class Idempotency:
    """The keys of ``store`` (an in-memory connector of its own when None)."""

    def __init__(
        self,
        store: Connector | None = None,
        *,
        ttl_s: float = IDEMPOTENCY_TTL_S,
        stale_s: float = STALE_S,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._keys: KeyLedger = keys_for(store if store is not None else MemoryConnector())
        self._ttl = ttl_s
        self._stale = stale_s
        self._clock = clock
        self._secret: bytes | None = None
        self._flights: dict[tuple[str, str, str], _Flight] = {}

    async def _fingerprint(self, body: Any) -> str:
        if self._secret is None:
            self._secret = await self._keys.secret()
        text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hmac.new(self._secret, text.encode("utf-8"), hashlib.sha256).hexdigest()

    async def once(
        self,
        owner: str,
        route: str,
        key: str | None,
        body: Any,
        work: Callable[[], Awaitable[Ids]],
    ) -> tuple[Ids, bool]:
        """Run ``work`` once per (owner, route, key); returns the ids it made and whether
        this call replayed an earlier one. Without a key, ``work`` just runs."""
        if key is None:
            return await work(), False
        if not _KEY.match(key):
            raise InvalidRequest("an Idempotency-Key is 1 to 200 visible ASCII characters")
        fingerprint = await self._fingerprint(body)
        slot = (owner, route, key)
        flight = self._flights.get(slot)
        if flight is not None:
            _same(flight.fingerprint, fingerprint)
            return await asyncio.shield(flight.result), True
        future: asyncio.Future[Ids] = asyncio.get_running_loop().create_future()
        self._flights[slot] = _Flight(fingerprint, future)
        try:
            ids, replayed = await self._run(owner, route, key, fingerprint, work)
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(exc)
                future.exception()  # marked retrieved: only a waiter replaying it needs it
            raise
        finally:
            del self._flights[slot]
        future.set_result(ids)
        return ids, replayed

    async def _run(
        self, owner: str, route: str, key: str, fingerprint: str, work: Callable[[], Awaitable[Ids]]
    ) -> tuple[Ids, bool]:
        claimed = await self._keys.claim(
            owner, route, key, fingerprint, now=self._clock(), ttl_s=self._ttl, stale_s=self._stale
        )
        if not claimed.mine:
            _same(claimed.fingerprint, fingerprint)
            if claimed.result is None:
                raise ApiError(
                    "a request with this Idempotency-Key is still running; retry in a moment",
                    code="IDEMPOTENCY_KEY_BUSY",
                )
            return [str(i) for i in claimed.result], True
        try:
            ids = await work()
        except BaseException:
            await asyncio.shield(self._keys.forget(owner, route, key, claimed.created_at))
            raise
        await asyncio.shield(self._keys.complete(owner, route, key, claimed.created_at, ids))
        return ids, False


def _same(stored: str, fingerprint: str) -> None:
    if not hmac.compare_digest(stored, fingerprint):
        raise ApiError(
            "this Idempotency-Key was used with another request body; use a new key "
            "for a new request",
            code="IDEMPOTENCY_KEY_REUSED",
        )
