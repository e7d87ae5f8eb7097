"""Idempotency keys: a retried create answers with the task the first one opened.

A key belongs to one owner. The first request with a key runs; one with the same key
and the same body, at the same time or later, waits for it and gets the same task;
one with the same key and another body is refused (IDEMPOTENCY_KEY_REUSED). A request
that failed leaves no trace, so it may be retried with its key. Bodies are kept only
as a keyed HMAC (a fact's value is never stored, even hashed as itself).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from gofer.errors import ApiError, InvalidRequest

__all__ = ["IDEMPOTENCY_TTL_S", "MAX_KEYS", "Idempotency"]

IDEMPOTENCY_TTL_S = 24 * 3600
"""How long a key is remembered."""

MAX_KEYS = 10_000
"""The most keys remembered at once; the oldest go first."""

_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")

T = TypeVar("T")


@dataclass(slots=True)
class _Entry:
    fingerprint: str
    result: asyncio.Future[Any]
    at: float


class Idempotency:
    """The keys seen lately, per owner and route."""

    def __init__(
        self, *, ttl_s: float = IDEMPOTENCY_TTL_S, limit: int = MAX_KEYS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._ttl = ttl_s
        self._limit = limit
        self._clock = clock
        self._secret = secrets.token_bytes(32)
        self._entries: OrderedDict[tuple[str, str, str], _Entry] = OrderedDict()

    def _fingerprint(self, body: Any) -> str:
        text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hmac.new(self._secret, text.encode("utf-8"), hashlib.sha256).hexdigest()

    def _forget_old(self) -> None:
        now = self._clock()
        while self._entries:
            key, entry = next(iter(self._entries.items()))
            if now - entry.at < self._ttl and len(self._entries) <= self._limit:
                break
            if not entry.result.done():
                break
            del self._entries[key]

    async def once(
        self, owner: str, route: str, key: str | None, body: Any,
        work: Callable[[], Awaitable[T]],
    ) -> tuple[T, bool]:
        """Run ``work`` once per (owner, route, key); returns its result and whether this
        call replayed an earlier one. Without a key, ``work`` just runs."""
        if key is None:
            return await work(), False
        if not _KEY.match(key):
            raise InvalidRequest("an Idempotency-Key is 1 to 200 visible ASCII characters")
        self._forget_old()
        fingerprint = self._fingerprint(body)
        slot = (owner, route, key)
        entry = self._entries.get(slot)
        if entry is not None:
            if not hmac.compare_digest(entry.fingerprint, fingerprint):
                raise ApiError(
                    "this Idempotency-Key was used with another request body; use a new key "
                    "for a new request", code="IDEMPOTENCY_KEY_REUSED",
                )
            result: T = await asyncio.shield(entry.result)
            return result, True
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._entries[slot] = _Entry(fingerprint, future, self._clock())
        try:
            value = await work()
        except asyncio.CancelledError:
            del self._entries[slot]
            future.cancel()
            raise
        except BaseException as exc:
            del self._entries[slot]
            future.set_exception(exc)
            future.exception()  # marked retrieved: only a waiter replaying it needs it
            raise
        future.set_result(value)
        return value, False
