"""Keeping a lease alive while its work runs.

``async with keep_lease(queue, claim):`` renews the claim every ``interval`` in a
background task. A renewal the store refuses (:class:`~gofer.errors.LeaseLost`) ends
the lease at once; renewals that fail because the store is unreachable are retried on
the next tick until the lease is one interval from lapsing, and then given up: the next
tick would come at or after the lapse, when another worker may already hold the item.
A renewal that fails any other way (a store error that is not transient, a bug) gives
up at once. Giving up cancels the work inside the block, which then raises ``LeaseLost``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Protocol

from gofer.errors import LeaseLost, StoreUnavailable
from gofer.store.types import Claim

__all__ = ["LeaseKeeper", "Renewer", "keep_lease"]


class Renewer(Protocol):
    """What keeping a lease needs of a queue."""

    async def renew(self, claim: Claim, lease_ms: int | None = None) -> None: ...


class LeaseKeeper:
    """The state of a kept lease: ``lost`` is set once it was given up."""

    def __init__(self, claim: Claim, interval_s: float, clock: Callable[[], float]) -> None:
        self.claim = claim
        self.interval_s = interval_s
        self.lost = asyncio.Event()
        self.reason: str | None = None
        self._clock = clock
        self.lapses_at = clock() + claim.lease_ms / 1000
        self.renewals = 0

    def _give_up(self, reason: str) -> None:
        self.reason = reason
        self.lost.set()


@asynccontextmanager
async def keep_lease(
    queue: Renewer,
    claim: Claim,
    *,
    interval_ms: int | None = None,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> AsyncIterator[LeaseKeeper]:
    """Renew ``claim`` every ``interval_ms`` (default a third of its lease) while the
    block runs; see the module's docstring for when it gives up."""
    interval_s = (interval_ms if interval_ms is not None else claim.lease_ms // 3) / 1000
    if interval_s <= 0 or interval_s * 1000 >= claim.lease_ms:
        raise ValueError("the renewal interval must be shorter than the lease")
    keeper = LeaseKeeper(claim, interval_s, clock)
    work = asyncio.current_task()
    assert work is not None, "keep_lease runs inside a task"

    async def renew_forever() -> None:
        while True:
            await sleep(interval_s)
            sent = clock()
            try:
                await queue.renew(claim)
            except LeaseLost as lost:
                keeper._give_up(lost.message)
            except StoreUnavailable as down:
                if keeper.lapses_at - clock() <= interval_s:
                    keeper._give_up(
                        f"renewals failed until one interval before the "
                        f"lease lapsed: {down.message}"
                    )
            except Exception as failed:  # noqa: BLE001 -- not hidden: it ends the lease and its work
                # Any other failure (a store error, a bug) leaves the lease unrenewed:
                # the work must not run on once another worker may hold the item.
                keeper._give_up(f"a renewal failed with {type(failed).__name__}")
            else:
                keeper.renewals += 1
                keeper.lapses_at = sent + claim.lease_ms / 1000
            if keeper.lost.is_set():
                work.cancel()
                return

    renewer = asyncio.create_task(renew_forever(), name=f"keep-lease-{claim.id}")
    try:
        yield keeper
    except asyncio.CancelledError:
        if keeper.lost.is_set() and work.uncancel() == 0:
            raise LeaseLost(
                f"item {claim.id}: lease given up ({keeper.reason})",
                item=claim.id,
                worker=claim.worker,
            ) from None
        raise
    finally:
        renewer.cancel()
        await asyncio.wait([renewer])
        if not renewer.cancelled() and renewer.exception() is not None:
            raise renewer.exception()  # type: ignore[misc]
