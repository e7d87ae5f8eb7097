"""The relay credential a server shows a browser's holder: it opens one owner's view
of one task during one hold, for 30 s; anything forged, altered, expired, or for
another task, owner or hold is refused."""

from __future__ import annotations

import asyncio
import time

from gofer.store import MemoryConnector
from gofer.store.holders import LiveHolders
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.held_board import RELAY_TTL_S, relay_credential, relay_credential_ok
from gofer.tasks.testing import fail
from gofer.tasks.worker import TurnLimits

FLOW = [{"browse": "https://shop.example.com/account"}, {"click": "Orders"}]
WALL = "Sign in to continue\nUsername\nPassword"


async def paused(tasks: Tasks, runner: ScriptedRunner, *entries: object) -> str:
    runner.add(*entries)  # type: ignore[arg-type]
    view = await tasks.start_task({"flow": FLOW})
    view = await tasks.await_task({"id": view.id})
    assert view.status.state == "needs_human", view.status
    return view.id


KEY = bytes(range(32))


def test_a_credential_opens_only_what_it_was_signed_for() -> None:
    signed = relay_credential(KEY, "task-1", "alice", "hold-1", now=1000.0)
    assert relay_credential_ok(KEY, signed, "task-1", "alice", "hold-1", now=1000.0)
    assert relay_credential_ok(KEY, signed, "task-1", "alice", "hold-1", now=1029.0)
    assert not relay_credential_ok(
        KEY, signed, "task-1", "alice", "hold-1", now=1000.0 + RELAY_TTL_S
    )
    for task, owner, hold in (
        ("task-2", "alice", "hold-1"),
        ("task-1", "bob", "hold-1"),
        ("task-1", "alice", "hold-2"),
    ):
        assert not relay_credential_ok(KEY, signed, task, owner, hold, now=1000.0)
    assert not relay_credential_ok(bytes(32), signed, "task-1", "alice", "hold-1", now=1000.0)


def test_a_forged_or_altered_credential_is_refused() -> None:
    signed = relay_credential(KEY, "task-1", "alice", "hold-1", now=1000.0)
    expires, mac = signed.split(".")
    later = f"{int(expires) + 3600}.{mac}"
    flipped = f"{expires}.{mac[:-1]}{'0' if mac[-1] != '0' else '1'}"
    for forged in (later, flipped, "", ".", "x.y", f"{expires}.", "-5." + mac, mac):
        assert not relay_credential_ok(KEY, forged, "task-1", "alice", "hold-1", now=1000.0)


async def test_a_hold_is_on_the_board_while_it_lasts_once_the_process_serves_live_views() -> None:
    runner = ScriptedRunner()
    async with MemoryConnector() as db:
        board = LiveHolders(db)
        async with Tasks(runner, store=db, limits=TurnLimits(hold_s=0.3)) as tasks:
            first = await paused(tasks, runner, fail("1", "no Orders", screen_text=WALL))
            assert await board.get(first, now=time.time()) is None, "no live endpoint yet"

            await tasks.relay.offer("127.0.0.1:9")
            held = await board.get(first, now=time.time())
            assert held is not None and held.address == "127.0.0.1:9"
            assert held.holder == tasks.worker.worker_id

            timer, _ = tasks.worker.holding[first]
            await asyncio.wait([timer])  # nothing acted on it: the hold ends
            assert await board.get(first, now=time.time()) is None

            second = await paused(tasks, runner, fail("1", "no Orders", screen_text=WALL))
            assert await board.get(second, now=time.time()) is not None
        assert await board.get(second, now=time.time()) is None, "a stopping worker's holds go"
