"""The work queue's interface: one protocol, three implementations (in-memory, SQLite,
PostgreSQL), one behaviour suite.

Rules every implementation keeps:

- ``enqueue`` with a key makes one item for that key, however many enqueue it at once;
  a second enqueue returns the first item unchanged.
- ``claim`` counts the attempt. An item is claimable while ``attempts < max_attempts``
  and it is queued or its lease lapsed. Within a serial group an item waits while
  another of the group holds a live lease, or while an older one is unfinished with
  attempts left (an older one out of attempts no longer holds the group back).
- ``running_at_most=n`` leaves an item queued while its owner already has ``n`` live
  leases among the claimed kinds, counted under a lock so racing workers cannot pass it.
- ``renew``, ``finish`` and ``release`` act only on a live lease held by that claim's
  token, else raise :class:`~gofer.errors.LeaseLost` and write nothing. An expired lease
  on its last attempt keeps its worker and token but can never be written again, so it
  cannot come back beside the item now running in its place.
- ``finish`` merges ``result`` into the payload; ``release`` puts the item back
  (``unstarted=True`` gives the attempt back), or leaves it failed with ``error`` when
  that was its last attempt.
- ``enqueue(..., prefer=w, prefer_ms=n)`` reserves a new item for worker ``w`` for
  ``n`` ms: until then only ``w`` may claim it (to anyone else it is not there: it
  counts against no cap, and as its group's oldest it holds the group as any unfinished
  item does). A preference never outlives its window and is spent by the first claim,
  so an item released or lapsed back to the queue goes to any worker.
- ``able=[...]`` leaves an item whose payload's ``needs`` (a list of names) holds a
  name outside ``able`` to a worker that has them all (an item with no ``needs`` is
  anyone's); ``own=True`` claims only items reserved for the claiming worker. Either
  way a passed-over item holds its group as any unfinished item does.
- ``keep_preferred(w, n)`` pushes the window of every queued item reserved for ``w``
  (its window still running) to ``n`` ms from now: a worker that calls it while it
  lives keeps its items; once it dies their windows lapse and any worker claims them.
- ``enqueue``, ``finish`` and ``release`` notify the connector's waker once committed;
  when a preference window ends the waker of every process sends ``preference_ended``
  for the item, so workers that passed it over claim it then without a re-read.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from gofer.errors import LeaseLost
from gofer.store.transaction import Transaction
from gofer.store.types import Claim, Item, QueueConfig, SerialOrder
from gofer.store.waking import Subscription

__all__ = ["Fit", "QueueBase", "WorkQueue", "lease_lost", "preference"]


@dataclass(frozen=True, slots=True)
class Fit:
    """Which items a worker may claim: those whose payload's every ``needs`` is in
    ``able`` (None: any), and with ``own`` only those reserved for it."""

    able: Sequence[str] | None = None
    own: bool = False

    @property
    def able_json(self) -> str | None:
        """``able`` as a JSON array (None: no filter)."""
        return None if self.able is None else json.dumps(sorted(set(self.able)))


class WorkQueue(Protocol):
    """A durable queue of work items with leases, attempts, serial groups and caps.

    Every write takes an optional ``tx`` to run inside a caller's transaction on the
    same connector (its notices are sent when that transaction commits)."""

    config: QueueConfig

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
        """Add an item (or return the one already enqueued under ``key``, unchanged);
        with ``prefer``, only that worker may claim it for its first ``prefer_ms``."""
        ...

    async def claim(
        self,
        kinds: Sequence[str],
        worker: str,
        lease_ms: int,
        *,
        serial: SerialOrder | None = None,
        running_at_most: int | None = None,
        able: Sequence[str] | None = None,
        own: bool = False,
    ) -> Claim | None:
        """Lease the oldest claimable item of ``kinds``, or ``None``. ``serial`` names
        the order the kinds share (it must be one of ``config.orders``); groups are
        honoured for every item that has one."""
        ...

    async def claim_batch(
        self,
        kinds: Sequence[str],
        worker: str,
        lease_ms: int,
        *,
        limit: int,
        serial: SerialOrder | None = None,
        running_at_most: int | None = None,
        able: Sequence[str] | None = None,
        own: bool = False,
    ) -> list[Claim]:
        """Lease up to ``limit`` items at once, under the same rules as :meth:`claim`."""
        ...

    async def renew(self, claim: Claim, lease_ms: int | None = None) -> None:
        """Extend a live lease by ``lease_ms`` (default: the claim's own) from now."""
        ...

    async def finish(
        self,
        claim: Claim,
        result: Mapping[str, Any] | None = None,
        *,
        tx: Transaction | None = None,
    ) -> None:
        """Mark the item done, merging ``result`` into its payload."""
        ...

    async def release(
        self,
        claim: Claim,
        *,
        unstarted: bool = False,
        error: str | None = None,
        tx: Transaction | None = None,
    ) -> None:
        """Give the item back: queued again, with the attempt refunded when
        ``unstarted``; failed with ``error`` when the attempt spent was its last."""
        ...

    async def get(self, item_id: int, *, tx: Transaction | None = None) -> Item | None:
        """One item by id."""
        ...

    async def items(
        self,
        *,
        group: str | None = None,
        owner: str | None = None,
        kinds: Sequence[str] | None = None,
        key: str | None = None,
        tx: Transaction | None = None,
    ) -> list[Item]:
        """Items of a group, an owner, some kinds or a key, oldest first (at least one
        of ``group``, ``owner`` or ``key`` is required: every read is a lookup)."""
        ...

    async def open_count(self, owner: str, *, tx: Transaction | None = None) -> int:
        """How many of the owner's items wait or run (one indexed count)."""
        ...

    async def keep_preferred(self, worker: str, prefer_ms: int) -> int:
        """Push the window of the queued items reserved for ``worker`` whose window
        still runs to ``prefer_ms`` from now; how many there were."""
        ...

    def subscribe(self) -> AbstractContextManager[Subscription]:
        """Wake-ups for enqueues, finishes and releases (take it before checking)."""
        ...


class QueueBase(ABC):
    """What every implementation shares: ``claim`` is a batch of one, and a batch is
    checked against the queue's orders before the store is asked. An implementation
    writes only :meth:`_lease`."""

    config: QueueConfig

    async def claim(
        self,
        kinds: Sequence[str],
        worker: str,
        lease_ms: int,
        *,
        serial: SerialOrder | None = None,
        running_at_most: int | None = None,
        able: Sequence[str] | None = None,
        own: bool = False,
    ) -> Claim | None:
        """Lease the oldest claimable item of ``kinds``, or ``None``."""
        got = await self.claim_batch(
            kinds,
            worker,
            lease_ms,
            limit=1,
            serial=serial,
            running_at_most=running_at_most,
            able=able,
            own=own,
        )
        return got[0] if got else None

    async def claim_batch(
        self,
        kinds: Sequence[str],
        worker: str,
        lease_ms: int,
        *,
        limit: int,
        serial: SerialOrder | None = None,
        running_at_most: int | None = None,
        able: Sequence[str] | None = None,
        own: bool = False,
    ) -> list[Claim]:
        """Lease up to ``limit`` items under the queue's rules (none when ``limit`` is
        below 1); ``ValueError`` for an order the queue was not given or kinds outside
        it."""
        self.config.check_claim(kinds, serial)
        if limit < 1:
            return []
        return await self._lease(kinds, worker, lease_ms, limit, running_at_most, Fit(able, own))

    @abstractmethod
    async def _lease(
        self,
        kinds: Sequence[str],
        worker: str,
        lease_ms: int,
        limit: int,
        running_at_most: int | None,
        fit: Fit,
    ) -> list[Claim]:
        """Lease up to ``limit`` (at least 1) of the oldest claimable items of
        ``kinds`` that ``fit`` lets this worker run, keeping groups and the running
        cap."""


def preference(prefer: str | None, prefer_ms: int) -> tuple[str | None, int]:
    """``(worker, window ms)`` stored with a new item: no worker when there is no
    window to keep; ``ValueError`` for a negative window."""
    if prefer_ms < 0:
        raise ValueError("prefer_ms must not be negative")
    if prefer is None or prefer_ms == 0:
        return None, 0
    return prefer, prefer_ms


def lease_lost(claim: Claim) -> LeaseLost:
    """The error for a write on ``claim`` once its lease is gone or never was."""
    return LeaseLost(
        f"item {claim.id} is no longer leased to this claim", item=claim.id, worker=claim.worker
    )
