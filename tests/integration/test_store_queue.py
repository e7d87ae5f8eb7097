"""The work queue's behaviour suite: every rule of ``gofer.store.queue`` checked on
each implementation (in memory, SQLite, PostgreSQL) through the same tests.

``db`` is an open connector and ``other`` a second one on the same database (the same
object in memory), so races and wake-ups cross connections where there are any.
Leases and preference windows meant to lapse are a millisecond long and the test sleeps
past them; those meant to hold are a minute long.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from gofer.errors import LeaseLost
from gofer.store import (
    Claim,
    Connector,
    QueueConfig,
    SerialKind,
    SerialOrder,
    WorkQueue,
)

TASK = SerialOrder(
    "task",
    {
        "turn": SerialKind("task_id", max_attempts=2),
        "reply": SerialKind(lambda p: p.get("thread"), max_attempts=1),
    },
)
CONFIG = QueueConfig(orders=[TASK], owner="owner", max_attempts=3)
KINDS = ["turn", "reply"]
HOLD = 60_000
BRIEF = 1


async def lapse() -> None:
    """Sleep past a ``BRIEF`` lease."""
    await asyncio.sleep(0.05)


@pytest.fixture
def queue(db: Connector) -> WorkQueue:
    return db.queue(CONFIG)


@pytest.fixture
def other_queue(other: Connector) -> WorkQueue:
    return other.queue(CONFIG)


async def claim(
    queue: WorkQueue, worker: str = "w1", lease_ms: int = HOLD, **kw: Any
) -> Claim | None:
    return await queue.claim(KINDS, worker, lease_ms, serial=TASK, **kw)


async def must_claim(
    queue: WorkQueue, worker: str = "w1", lease_ms: int = HOLD, **kw: Any
) -> Claim:
    got = await claim(queue, worker, lease_ms, **kw)
    assert got is not None, "expected a claimable item"
    return got


# serial order --------------------------------------------------------------------


async def test_a_group_runs_one_item_at_a_time_in_order(queue: WorkQueue) -> None:
    first = await queue.enqueue("turn", {"task_id": "t1", "n": 1})
    second = await queue.enqueue("turn", {"task_id": "t1", "n": 2})
    got = await must_claim(queue)
    assert got.id == first.id
    assert await claim(queue, "w2") is None, "the second waits while the first runs"
    await queue.finish(got)
    nxt = await must_claim(queue, "w2")
    assert (nxt.id, nxt.payload["n"]) == (second.id, 2)


async def test_other_groups_and_ungrouped_items_run_side_by_side(queue: WorkQueue) -> None:
    a = await queue.enqueue("turn", {"task_id": "a"})
    b = await queue.enqueue("turn", {"task_id": "b"})
    loose = await queue.enqueue("turn", {"n": 1})
    loose2 = await queue.enqueue("turn", {"n": 2})
    ids = {(await must_claim(queue, f"w{i}")).id for i in range(4)}
    assert ids == {a.id, b.id, loose.id, loose2.id}
    assert (await queue.get(a.id)).group == TASK.key("a")  # type: ignore[union-attr]
    assert (await queue.get(loose.id)).group is None  # type: ignore[union-attr]


async def test_kinds_in_one_order_share_it_each_with_its_own_group_and_cap(
    queue: WorkQueue,
) -> None:
    turn = await queue.enqueue("turn", {"task_id": "t1"})
    reply = await queue.enqueue("reply", {"thread": "t1"})
    assert turn.group == reply.group == TASK.key("t1")
    assert (turn.max_attempts, reply.max_attempts) == (2, 1)
    got = await must_claim(queue)
    assert got.id == turn.id
    assert await claim(queue, "w2") is None, "the reply waits behind the turn"
    await queue.finish(got)
    assert (await must_claim(queue, "w2")).id == reply.id


async def test_an_older_item_with_attempts_left_holds_its_group_even_when_lapsed(
    queue: WorkQueue,
) -> None:
    first = await queue.enqueue("turn", {"task_id": "t1"})
    await queue.enqueue("turn", {"task_id": "t1"})
    await must_claim(queue, "w1", BRIEF)
    await lapse()
    again = await must_claim(queue, "w2")
    assert (again.id, again.attempt) == (first.id, 2), "the lapsed one runs again first"


async def test_an_older_item_out_of_attempts_no_longer_holds_its_group(
    queue: WorkQueue,
) -> None:
    first = await queue.enqueue("reply", {"thread": "t1"})
    second = await queue.enqueue("turn", {"task_id": "t1"})
    await must_claim(queue, "w1", BRIEF)
    await lapse()
    assert (await queue.get(first.id)).state == "failed"  # type: ignore[union-attr]
    assert (await must_claim(queue, "w2")).id == second.id


async def test_claim_refuses_an_order_it_was_not_given_or_kinds_outside_it(
    queue: WorkQueue,
) -> None:
    stranger = SerialOrder("other", {"turn": SerialKind("task_id")})
    with pytest.raises(ValueError, match="not one of"):
        await queue.claim(["turn"], "w1", HOLD, serial=stranger)
    with pytest.raises(ValueError, match="not in serial order"):
        await queue.claim(["turn", "mail"], "w1", HOLD, serial=TASK)


# attempts and refunds ------------------------------------------------------------


async def test_the_attempt_is_counted_at_claim_and_capped(queue: WorkQueue) -> None:
    item = await queue.enqueue("turn", {"task_id": "t1"})
    one = await must_claim(queue, "w1", BRIEF)
    assert (one.attempt, one.max_attempts, one.last_attempt) == (1, 2, False)
    assert (await queue.get(item.id)).attempts == 1  # type: ignore[union-attr]
    await lapse()
    read = await queue.get(item.id)
    assert read is not None and read.state == "queued", "lapsed with an attempt left"
    two = await must_claim(queue, "w2", BRIEF)
    assert (two.attempt, two.last_attempt) == (2, True)
    await lapse()
    assert await claim(queue, "w3") is None, "out of attempts"
    read = await queue.get(item.id)
    assert read is not None and (read.state, read.attempts) == ("failed", 2)


async def test_an_unstarted_release_gives_the_attempt_back(queue: WorkQueue) -> None:
    item = await queue.enqueue("reply", {"thread": "t1"})
    got = await must_claim(queue)
    assert got.last_attempt
    await queue.release(got, unstarted=True)
    read = await queue.get(item.id)
    assert read is not None and (read.state, read.attempts) == ("queued", 0)
    again = await must_claim(queue, "w2")
    assert (again.id, again.attempt) == (item.id, 1)


async def test_a_release_requeues_with_attempts_left_and_fails_on_the_last(
    queue: WorkQueue,
) -> None:
    item = await queue.enqueue("turn", {"task_id": "t1"})
    await queue.release(await must_claim(queue), error="browser crashed")
    read = await queue.get(item.id)
    assert read is not None
    assert (read.state, read.attempts, read.last_error) == ("queued", 1, "browser crashed")
    await queue.release(await must_claim(queue, "w2"), error="crashed again")
    read = await queue.get(item.id)
    assert read is not None
    assert (read.state, read.last_error) == ("failed", "crashed again")
    assert read.finished_at is not None
    assert await claim(queue, "w3") is None


async def test_finish_merges_the_result_into_the_payload(queue: WorkQueue) -> None:
    item = await queue.enqueue("turn", {"task_id": "t1", "ask": "book", "n": 1})
    await queue.finish(await must_claim(queue), {"n": 2, "asks": True})
    read = await queue.get(item.id)
    assert read is not None and read.state == "done" and read.finished_at is not None
    assert read.payload == {"task_id": "t1", "ask": "book", "n": 2, "asks": True}


# live leases only ----------------------------------------------------------------


async def test_late_renew_finish_and_release_are_refused_and_write_nothing(
    queue: WorkQueue,
) -> None:
    item = await queue.enqueue("turn", {"task_id": "t1", "n": 1})
    late = await must_claim(queue, "w1", BRIEF)
    await lapse()
    before = await queue.get(item.id)
    with pytest.raises(LeaseLost):
        await queue.renew(late)
    with pytest.raises(LeaseLost):
        await queue.finish(late, {"n": 99})
    with pytest.raises(LeaseLost):
        await queue.release(late, unstarted=True)
    assert await queue.get(item.id) == before
    assert before is not None and (before.state, before.attempts) == ("queued", 1)


async def test_a_lapsed_holder_cannot_write_over_the_claim_now_running(
    queue: WorkQueue,
) -> None:
    item = await queue.enqueue("turn", {"task_id": "t1"})
    old = await must_claim(queue, "w1", BRIEF)
    await lapse()
    new = await must_claim(queue, "w2")
    assert new.id == old.id and new.token != old.token
    for late in (
        queue.renew(old),
        queue.finish(old, {"by": "w1"}),
        queue.release(old, unstarted=True),
    ):
        with pytest.raises(LeaseLost):
            await late
    await queue.renew(new)
    await queue.finish(new, {"by": "w2"})
    read = await queue.get(item.id)
    assert read is not None and (read.state, read.payload["by"], read.worker) == (
        "done",
        "w2",
        "w2",
    )


async def test_a_claim_with_a_forged_token_is_refused(queue: WorkQueue) -> None:
    await queue.enqueue("turn", {"task_id": "t1"})
    real = await must_claim(queue)
    forged = Claim(**{**real.__dict__, "token": "f" * len(real.token)})
    with pytest.raises(LeaseLost):
        await queue.finish(forged)
    await queue.finish(real)


async def test_an_expired_last_attempt_keeps_its_owner_and_never_revives(
    queue: WorkQueue,
) -> None:
    first = await queue.enqueue("reply", {"thread": "t1"})
    second = await queue.enqueue("reply", {"thread": "t1"})
    dead = await must_claim(queue, "w1", BRIEF)
    await lapse()
    sibling = await must_claim(queue, "w2")
    assert sibling.id == second.id, "the group moves on past the failed item"
    read = await queue.get(first.id)
    assert read is not None and (read.state, read.worker) == ("failed", "w1")
    for late in (queue.renew(dead), queue.release(dead, unstarted=True), queue.finish(dead)):
        with pytest.raises(LeaseLost):
            await late
    assert await queue.get(first.id) == read
    assert await claim(queue, "w3") is None, "nothing runs beside the sibling"


async def test_renew_extends_a_live_lease(queue: WorkQueue) -> None:
    await queue.enqueue("turn", {"task_id": "t1"})
    got = await must_claim(queue, "w1", 200)
    await queue.renew(got, HOLD)
    await asyncio.sleep(0.3)
    assert await claim(queue, "w2") is None, "the renewed lease still holds"
    await queue.finish(got)


# idempotent enqueue --------------------------------------------------------------


async def test_one_key_makes_one_item(queue: WorkQueue) -> None:
    first = await queue.enqueue("turn", {"task_id": "t1", "n": 1}, key="again:t1")
    second = await queue.enqueue("turn", {"task_id": "t1", "n": 2}, key="again:t1")
    assert second == first and second.payload["n"] == 1
    assert [i.id for i in await queue.items(key="again:t1")] == [first.id]


async def test_one_key_makes_one_item_when_enqueued_at_once(
    queue: WorkQueue, other_queue: WorkQueue
) -> None:
    got = await asyncio.gather(
        *(
            (queue if i % 2 else other_queue).enqueue(
                "turn", {"task_id": "t1", "n": i}, key="start:t1"
            )
            for i in range(20)
        )
    )
    assert len({i.id for i in got}) == 1
    assert len(await queue.items(group=TASK.key("t1"))) == 1


async def test_a_rolled_back_enqueue_leaves_nothing_and_wakes_nobody(
    db: Connector, queue: WorkQueue
) -> None:
    with queue.subscribe() as sub:
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await queue.enqueue("turn", {"task_id": "t1"}, key="k1", tx=tx)
                raise RuntimeError("the ledger write failed")
        assert await sub.wait(0.2) == []
    assert await queue.items(key="k1") == []
    assert await claim(queue) is None


async def test_a_rolled_back_finish_or_release_leaves_the_item_as_it_was(
    db: Connector, queue: WorkQueue
) -> None:
    await queue.enqueue("turn", {"task_id": "t1", "owner": "ann"})
    held = await must_claim(queue)
    for write in (
        lambda tx: queue.finish(held, {"ended": "done"}, tx=tx),
        lambda tx: queue.release(held, error="boom", tx=tx),
    ):
        with pytest.raises(RuntimeError):
            async with db.transaction() as tx:
                await write(tx)
                raise RuntimeError("the ledger write failed")
        item = await queue.get(held.id)
        assert item is not None
        assert (item.state, item.attempts, item.last_error) == ("running", 1, None)
        assert item.payload == {"task_id": "t1", "owner": "ann"}
    await queue.finish(held, {"ended": "done"})
    done = await queue.get(held.id)
    assert done is not None and done.state == "done" and done.payload["ended"] == "done"


async def test_a_cancelled_transaction_rolls_back_and_the_store_goes_on(
    db: Connector, queue: WorkQueue
) -> None:
    inside = asyncio.Event()

    async def write_then_hang() -> None:
        async with db.transaction() as tx:
            await queue.enqueue("turn", {"task_id": "t1"}, key="cancelled", tx=tx)
            inside.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(write_then_hang())
    await inside.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await queue.items(key="cancelled") == []
    kept = await queue.enqueue("turn", {"task_id": "t1"}, key="after")
    assert [i.id for i in await queue.items(group=TASK.key("t1"))] == [kept.id]


# running caps --------------------------------------------------------------------


async def test_an_owner_runs_at_most_n_and_the_next_starts_when_one_finishes(
    queue: WorkQueue,
) -> None:
    for i in range(4):
        await queue.enqueue("turn", {"task_id": f"a{i}", "owner": "ann"})
    bob = await queue.enqueue("turn", {"task_id": "b0", "owner": "bob"})
    running = [await must_claim(queue, f"w{i}", running_at_most=2) for i in range(2)]
    assert {c.owner for c in running} == {"ann"}
    third = await must_claim(queue, "w3", running_at_most=2)
    assert third.id == bob.id, "ann is at her cap, bob is not"
    assert await claim(queue, "w4", running_at_most=2) is None
    await queue.finish(running[0])
    nxt = await must_claim(queue, "w4", running_at_most=2)
    assert nxt.owner == "ann"
    ann = await queue.items(owner="ann")
    assert [i.state for i in ann] == ["done", "running", "running", "queued"]


async def test_a_lapsed_lease_frees_its_owners_slot(queue: WorkQueue) -> None:
    await queue.enqueue("turn", {"task_id": "a0", "owner": "ann"})
    await queue.enqueue("turn", {"task_id": "a1", "owner": "ann"})
    await must_claim(queue, "w1", BRIEF, running_at_most=1)
    await lapse()
    assert (await must_claim(queue, "w2", running_at_most=1)).owner == "ann"


async def test_the_cap_holds_when_workers_race(queue: WorkQueue, other_queue: WorkQueue) -> None:
    for i in range(12):
        await queue.enqueue("turn", {"task_id": f"a{i}", "owner": "ann"})
    got = await asyncio.gather(
        *(claim(queue if i % 2 else other_queue, f"w{i}", running_at_most=3) for i in range(16))
    )
    held = [c for c in got if c is not None]
    assert len(held) == 3
    assert len({c.id for c in held}) == 3


async def test_a_batch_keeps_groups_and_caps(queue: WorkQueue) -> None:
    for i in range(3):
        await queue.enqueue("turn", {"task_id": "t1", "owner": "ann", "n": i})
    for i in range(4):
        await queue.enqueue("turn", {"task_id": f"b{i}", "owner": "bob"})
    got = await queue.claim_batch(KINDS, "w1", HOLD, limit=10, serial=TASK, running_at_most=2)
    assert sorted(c.owner or "" for c in got) == ["ann", "bob", "bob"]
    assert [c.payload["n"] for c in got if c.owner == "ann"] == [0]
    assert len({c.token for c in got}) == len(got)


# claim preference ----------------------------------------------------------------


async def test_an_item_for_one_worker_goes_to_it_and_to_no_other_within_the_window(
    queue: WorkQueue,
) -> None:
    item = await queue.enqueue("turn", {"task_id": "t1"}, prefer="w1", prefer_ms=HOLD)
    assert item.preferred == "w1" and item.preferred_until is not None
    assert item.preferred_until > item.created_at
    assert await claim(queue, "w2") is None, "reserved for w1"
    got = await must_claim(queue, "w1")
    assert got.id == item.id
    read = await queue.get(item.id)
    assert read is not None and (read.worker, read.preferred) == ("w1", None)


async def test_after_the_window_any_worker_claims_it(queue: WorkQueue) -> None:
    item = await queue.enqueue("turn", {"task_id": "t1"}, prefer="w1", prefer_ms=BRIEF)
    await lapse()
    assert (await must_claim(queue, "w2")).id == item.id


async def test_a_key_taken_keeps_its_item_and_a_negative_window_is_refused(
    queue: WorkQueue,
) -> None:
    first = await queue.enqueue("turn", {"task_id": "t1"}, key="k")
    again = await queue.enqueue("turn", {"task_id": "t1"}, key="k", prefer="w1", prefer_ms=HOLD)
    assert again == first and again.preferred is None
    with pytest.raises(ValueError, match="prefer_ms"):
        await queue.enqueue("turn", {"task_id": "t2"}, prefer="w1", prefer_ms=-1)
    assert (await must_claim(queue, "w2")).id == first.id


async def test_a_batch_takes_only_what_is_for_it_or_for_anyone(queue: WorkQueue) -> None:
    mine = await queue.enqueue("turn", {"task_id": "a"}, prefer="w1", prefer_ms=HOLD)
    anyone = await queue.enqueue("turn", {"task_id": "b"})
    theirs = await queue.enqueue("turn", {"task_id": "c"}, prefer="w2", prefer_ms=HOLD)
    got = await queue.claim_batch(KINDS, "w2", HOLD, limit=10, serial=TASK)
    assert sorted(c.id for c in got) == [anyone.id, theirs.id]
    got = await queue.claim_batch(KINDS, "w1", HOLD, limit=10, serial=TASK)
    assert [c.id for c in got] == [mine.id]


async def test_a_reserved_item_holds_its_group_and_no_other(queue: WorkQueue) -> None:
    first = await queue.enqueue("turn", {"task_id": "t1", "n": 1}, prefer="w1", prefer_ms=HOLD)
    second = await queue.enqueue("reply", {"thread": "t1", "n": 2})
    elsewhere = await queue.enqueue("turn", {"task_id": "t2"})
    got = await queue.claim_batch(KINDS, "w2", HOLD, limit=10, serial=TASK)
    assert [c.id for c in got] == [elsewhere.id], "t1's reply waits behind its turn"
    held = await must_claim(queue, "w1")
    assert held.id == first.id
    await queue.finish(held)
    assert (await must_claim(queue, "w2")).id == second.id


async def test_a_reserved_group_head_goes_to_anyone_after_its_window(queue: WorkQueue) -> None:
    first = await queue.enqueue("turn", {"task_id": "t1"}, prefer="w1", prefer_ms=BRIEF)
    await queue.enqueue("turn", {"task_id": "t1"})
    await lapse()
    assert (await must_claim(queue, "w2")).id == first.id


async def test_a_reserved_item_counts_against_no_cap_and_keeps_to_it(queue: WorkQueue) -> None:
    reserved = await queue.enqueue(
        "turn", {"task_id": "a0", "owner": "ann"}, prefer="w1", prefer_ms=HOLD
    )
    loose = await queue.enqueue("turn", {"task_id": "a1", "owner": "ann"})
    running = await must_claim(queue, "w2", running_at_most=1)
    assert running.id == loose.id, "the item reserved for w1 takes none of ann's slot"
    assert await claim(queue, "w1", running_at_most=1) is None, "ann is at her cap"
    await queue.finish(running)
    assert (await must_claim(queue, "w1", running_at_most=1)).id == reserved.id


async def test_a_released_or_lapsed_item_keeps_no_preference(queue: WorkQueue) -> None:
    released = await queue.enqueue("turn", {"task_id": "t1"}, prefer="w1", prefer_ms=HOLD)
    await queue.release(await must_claim(queue, "w1"), unstarted=True)
    read = await queue.get(released.id)
    assert read is not None and (read.state, read.preferred) == ("queued", None)
    assert (await must_claim(queue, "w2")).id == released.id, "anyone's within the window"
    lapsed = await queue.enqueue("turn", {"task_id": "t2"}, prefer="w1", prefer_ms=HOLD)
    await must_claim(queue, "w1", BRIEF)
    await lapse()
    assert (await must_claim(queue, "w3")).id == lapsed.id, "anyone's within the window"


async def test_the_end_of_a_window_wakes_the_workers_that_passed_it_over(
    queue: WorkQueue, other_queue: WorkQueue
) -> None:
    with queue.subscribe() as sub:
        item = await other_queue.enqueue(
            "turn", {"task_id": "t1", "owner": "ann"}, prefer="w1", prefer_ms=BRIEF * 50
        )
        enqueued = await _wait_for(sub, "enqueued")
        assert [n.prefer_ms for n in enqueued if n.id == item.id] == [50]
        ended = await _wait_for(sub, "preference_ended")
        assert [(n.id, n.group, n.owner) for n in ended] == [(item.id, TASK.key("t1"), "ann")]
        assert (await must_claim(queue, "w2")).id == item.id


# reads ---------------------------------------------------------------------------


async def test_items_are_lookups_by_group_owner_or_key(queue: WorkQueue) -> None:
    a = await queue.enqueue("turn", {"task_id": "t1", "owner": "ann"}, key="k")
    b = await queue.enqueue("reply", {"thread": "t1", "owner": "ann"})
    c = await queue.enqueue("turn", {"task_id": "t2", "owner": "bob"})
    assert [i.id for i in await queue.items(group=TASK.key("t1"))] == [a.id, b.id]
    assert [i.id for i in await queue.items(owner="ann", kinds=["reply"])] == [b.id]
    assert [i.id for i in await queue.items(owner="bob")] == [c.id]
    assert [i.id for i in await queue.items(key="k")] == [a.id]
    assert await queue.items(owner="nobody") == []
    assert await queue.get(10**9) is None
    with pytest.raises(ValueError, match="needs a group"):
        await queue.items(kinds=["turn"])


# waking --------------------------------------------------------------------------


async def test_enqueue_finish_and_release_wake_subscribers(
    queue: WorkQueue, other_queue: WorkQueue
) -> None:
    with queue.subscribe() as sub:
        item = await other_queue.enqueue("turn", {"task_id": "t1", "owner": "ann"})
        events = await _wait_for(sub, "enqueued")
        assert any(
            n.id == item.id and n.group == TASK.key("t1") and n.owner == "ann" for n in events
        )
        got = await must_claim(other_queue)
        await other_queue.release(got, unstarted=True)
        assert any(n.id == item.id for n in await _wait_for(sub, "released"))
        got = await must_claim(other_queue)
        await other_queue.finish(got)
        assert any(n.id == item.id for n in await _wait_for(sub, "finished"))


async def test_a_ledger_notice_sent_in_a_transaction_wakes_after_commit(
    db: Connector, other: Connector
) -> None:
    from gofer.store import Notice

    with other.waker.subscribe() as sub:
        async with db.transaction() as tx:
            tx.notify(Notice("task_resolved", id=7))
        events = await _wait_for(sub, "task_resolved")
        assert any(n.id == 7 for n in events)


async def _wait_for(sub: Any, event: str) -> list[Any]:
    """Notices until one with ``event`` arrives (10 s safety limit, never reached when
    waking works)."""
    seen: list[Any] = []
    for _ in range(100):
        got = await sub.wait(10)
        assert got, f"no {event!r} notice"
        seen.extend(got)
        if any(n.event == event for n in got):
            return [n for n in seen if n.event == event]
    raise AssertionError(f"no {event!r} notice among {seen}")


# keeping a lease -----------------------------------------------------------------


async def test_keep_lease_holds_the_item_while_its_work_runs(queue: WorkQueue) -> None:
    from gofer.store import keep_lease

    await queue.enqueue("turn", {"task_id": "t1"})
    got = await must_claim(queue, "w1", 400)
    async with keep_lease(queue, got, interval_ms=50) as keeper:
        await asyncio.sleep(0.6)
        assert await claim(queue, "w2") is None, "the kept lease still holds"
    assert keeper.renewals >= 1
    await queue.finish(got)


# what a turn needs ---------------------------------------------------------------


async def test_an_item_needing_what_a_worker_lacks_is_left_for_one_that_has_it(
    queue: WorkQueue,
) -> None:
    planned = await queue.enqueue("turn", {"task_id": "t1", "needs": ["planner", "rescuer"]})
    later = await queue.enqueue("turn", {"task_id": "t1", "needs": []})
    plain = await queue.enqueue("turn", {"task_id": "t2"})
    got = await must_claim(queue, "bare", able=["rescuer", "browser:local"])
    assert got.id == plain.id, "an item with no needs is anyone's"
    assert await claim(queue, "bare", able=["rescuer"]) is None, "t1's second waits behind"
    models = await must_claim(queue, "models", able=["planner", "rescuer", "decider"])
    assert models.id == planned.id
    await queue.finish(models)
    assert (await must_claim(queue, "bare", able=[])).id == later.id


async def test_an_own_only_worker_claims_only_the_items_reserved_for_it(
    queue: WorkQueue,
) -> None:
    await queue.enqueue("turn", {"task_id": "t1"})
    mine = await queue.enqueue("turn", {"task_id": "t2"}, prefer="run-1", prefer_ms=HOLD)
    got = await must_claim(queue, "run-1", able=["browser:local"], own=True)
    assert got.id == mine.id
    assert await claim(queue, "run-1", own=True) is None, "t1 is not reserved for it"
    assert await claim(queue, "w2") is not None


async def test_a_reservation_lasts_while_its_worker_pushes_it_on(queue: WorkQueue) -> None:
    kept = await queue.enqueue("turn", {"task_id": "t1"}, prefer="w1", prefer_ms=300)
    lapsing = await queue.enqueue("turn", {"task_id": "t2"}, prefer="w3", prefer_ms=300)
    assert await queue.keep_preferred("w1", HOLD) == 1
    await asyncio.sleep(0.4)
    assert await queue.keep_preferred("w3", HOLD) == 0, "a lapsed window is not revived"
    got = await must_claim(queue, "w2")
    assert got.id == lapsing.id, "w3's window lapsed: anyone's"
    assert await claim(queue, "w2") is None, "w1's is kept"
    assert (await must_claim(queue, "w1")).id == kept.id
