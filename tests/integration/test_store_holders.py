"""The board of held browsers in the store (migration 0008), on every connector: one
row per task, the newest hold wins, a hold that ended removes its own row only, an
expired row is not read, and a stopping process takes all of its rows off."""

from __future__ import annotations

from gofer.store import Connector
from gofer.store.holders import LiveHolder, LiveHolders


async def test_the_newest_hold_of_a_task_is_read_from_every_process(
    db: Connector, other: Connector
) -> None:
    here, there = LiveHolders(db), LiveHolders(other)
    first = LiveHolder("worker-a", "hold-1", "127.0.0.1:9001")
    await here.put("task-1", first, now=100.0, expires_at=200.0)
    assert await there.get("task-1", now=150.0) == first
    assert await there.get("task-2", now=150.0) is None

    # the task's next turn ran in another worker, which holds it now
    second = LiveHolder("worker-b", "hold-2", "127.0.0.1:9002")
    await there.put("task-1", second, now=160.0, expires_at=260.0)
    await here.drop("task-1", "hold-1")  # the first hold ends late: the row stays
    assert await here.get("task-1", now=170.0) == second
    await there.drop("task-1", "hold-2")
    assert await here.get("task-1", now=170.0) is None
    await there.drop("task-1", "hold-2")  # again: nothing to drop


async def test_an_expired_row_is_not_read_and_a_stopping_holder_takes_its_rows_off(
    db: Connector,
) -> None:
    board = LiveHolders(db)
    await board.put("task-1", LiveHolder("worker-a", "h1", "a:1"), now=0.0, expires_at=100.0)
    await board.put("task-2", LiveHolder("worker-a", "h2", "a:1"), now=0.0, expires_at=500.0)
    await board.put("task-3", LiveHolder("worker-b", "h3", "b:1"), now=0.0, expires_at=500.0)
    assert await board.get("task-1", now=99.0) is not None
    assert await board.get("task-1", now=100.0) is None, "its holder died: it expired"
    await board.drop_all("worker-a")
    assert await board.get("task-2", now=1.0) is None
    assert await board.get("task-3", now=1.0) == LiveHolder("worker-b", "h3", "b:1")
    # a put purges what expired
    await board.put("task-4", LiveHolder("worker-b", "h4", "b:1"), now=600.0, expires_at=900.0)
    async with db.snapshot() as tx:
        row = await tx.fetch_one("SELECT count(*) AS n FROM live_holders")
    assert row is not None and int(row["n"]) == 1
