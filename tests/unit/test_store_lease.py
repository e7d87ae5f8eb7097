"""keep_lease: renewals on a clock the test drives, and exactly when it gives up."""

from __future__ import annotations

import asyncio

import pytest

from gofer.errors import LeaseLost, StoreError, StoreUnavailable
from gofer.store import Claim, keep_lease


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        await asyncio.sleep(0)


class Renewals:
    """A queue whose renewals answer from a script (``ok``, ``down`` or ``lost``)."""

    def __init__(self, clock: Clock, script: list[str]) -> None:
        self.clock = clock
        self.script = script
        self.at: list[float] = []

    async def renew(self, claim: Claim, lease_ms: int | None = None) -> None:
        self.at.append(round(self.clock.now, 3))
        answer = self.script.pop(0) if self.script else "down"
        if answer == "down":
            raise StoreUnavailable("the database is unreachable")
        if answer == "lost":
            raise LeaseLost("taken over", item=claim.id)


CLAIM = Claim(
    id=1,
    kind="turn",
    payload={},
    group=None,
    owner=None,
    attempt=1,
    max_attempts=2,
    worker="w1",
    token="t",
    lease_ms=300,
)


async def run_until_given_up(queue: Renewals, clock: Clock) -> float:
    with pytest.raises(LeaseLost) as raised:
        async with keep_lease(queue, CLAIM, interval_ms=100, clock=clock, sleep=clock.sleep):
            await asyncio.Event().wait()
    assert raised.value.code == "LEASE_LOST"
    return round(clock.now, 3)


async def test_failing_renewals_give_up_exactly_one_interval_before_the_lapse() -> None:
    clock = Clock()
    queue = Renewals(clock, [])
    gave_up = await run_until_given_up(queue, clock)
    assert gave_up == 0.2, "the lease lapses at 0.3: the tick at 0.3 would be too late"
    assert queue.at == [0.1, 0.2]


async def test_a_successful_renewal_moves_the_lapse_it_gives_up_before() -> None:
    clock = Clock()
    queue = Renewals(clock, ["ok", "ok"])
    gave_up = await run_until_given_up(queue, clock)
    assert queue.at == [0.1, 0.2, 0.3, 0.4]
    assert gave_up == 0.4, "renewed at 0.2 the lease lapses at 0.5"


async def test_a_refused_renewal_gives_up_at_once() -> None:
    clock = Clock()
    queue = Renewals(clock, ["ok", "lost"])
    assert await run_until_given_up(queue, clock) == 0.2


async def test_work_that_ends_in_time_keeps_its_result_and_stops_renewing() -> None:
    clock = Clock()
    queue = Renewals(clock, ["ok"] * 10)
    async with keep_lease(queue, CLAIM, interval_ms=100, clock=clock, sleep=clock.sleep) as keeper:
        for _ in range(5):
            await asyncio.sleep(0)
        result = "done"
    assert result == "done" and not keeper.lost.is_set()
    count = len(queue.at)
    await asyncio.sleep(0)
    assert len(queue.at) == count


async def test_an_interval_as_long_as_the_lease_is_refused() -> None:
    with pytest.raises(ValueError, match="shorter than the lease"):
        async with keep_lease(Renewals(Clock(), []), CLAIM, interval_ms=300):
            pass


async def test_a_renewal_that_fails_with_any_store_error_cancels_its_work_at_once() -> None:
    class Broken:
        tries = 0

        async def renew(self, claim: Claim, lease_ms: int | None = None) -> None:
            self.tries += 1
            raise StoreError("attempt to write a readonly database")

    clock = Clock()
    queue = Broken()
    ran_on = asyncio.Event()
    with pytest.raises(LeaseLost) as raised:
        async with (
            asyncio.timeout(5),  # the old renewer died quietly and the work ran on
            keep_lease(queue, CLAIM, interval_ms=100, clock=clock, sleep=clock.sleep),
        ):
            await asyncio.Event().wait()
            ran_on.set()
    assert queue.tries == 1
    assert not ran_on.is_set()
    assert "StoreError" in raised.value.message
    assert clock.now == pytest.approx(0.1)  # given up at the first failed renewal
