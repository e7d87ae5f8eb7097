"""Page sessions in the store: the same behaviour on every connector (memory, SQLite,
PostgreSQL), shared by every process on the database and outliving a restart, with
only digests at rest."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

from gofer.api.page_auth import PageSessions
from gofer.store import Connector, Tokens


async def count(db: Connector) -> int:
    async with db.snapshot() as tx:
        row = await tx.fetch_one("SELECT count(*) AS n FROM page_sessions")
    assert row is not None
    return int(row["n"])


async def test_a_session_opened_in_one_process_is_known_and_ended_in_another(
    db: Connector, other: Connector
) -> None:
    issued = await Tokens(db).create("asha")
    here, there = PageSessions(Tokens(db)), PageSessions(Tokens(other))
    session = await here.open(issued.token)
    assert session is not None and session.owner == "asha"
    assert await there.get(session.id) == session
    assert await there.get(session.id + "x") is None
    await there.close(session.id)
    assert await here.get(session.id) is None
    await there.close(session.id)  # again: nothing to end


async def test_a_session_outlives_a_restart(reopen: Callable[[], Any]) -> None:
    async with reopen() as db:
        token = (await Tokens(db).create("asha")).token
        session = await PageSessions(Tokens(db)).open(token)
    assert session is not None
    async with reopen() as db:
        assert await PageSessions(Tokens(db)).get(session.id) == session


async def test_expiry_and_revocation_end_a_session_everywhere(
    db: Connector, other: Connector
) -> None:
    now = [1000.0]
    tokens = Tokens(db)
    issued = await tokens.create("asha")
    here = PageSessions(tokens, ttl_s=60, clock=lambda: now[0])
    there = PageSessions(Tokens(other), ttl_s=60, clock=lambda: now[0])
    old = await here.open(issued.token)
    assert old is not None and old.expires_at == 1060.0
    now[0] = 1059.0
    assert await there.get(old.id) == old
    now[0] = 1060.0
    assert await there.get(old.id) is None
    fresh = await there.open(issued.token)
    assert fresh is not None and await here.get(fresh.id) == fresh
    await Tokens(other).revoke(issued.info.id)
    assert await here.get(fresh.id) is None and await there.get(fresh.id) is None
    assert await here.open(issued.token) is None


async def test_the_limits_hold_across_processes_oldest_first(
    db: Connector, other: Connector
) -> None:
    alice = (await Tokens(db).create("alice")).token
    bob = (await Tokens(db).create("bob")).token
    here = PageSessions(Tokens(db), max_sessions=5, max_per_owner=3)
    there = PageSessions(Tokens(other), max_sessions=5, max_per_owner=3)
    kept = await here.open(bob)
    assert kept is not None
    mine = [await (here, there)[i % 2].open(alice) for i in range(7)]
    live = [s for s in mine if s is not None and await here.get(s.id) is not None]
    assert [s.id for s in live] == [s.id for s in mine[-3:] if s is not None]
    assert await there.get(kept.id) == kept
    carol = (await Tokens(db).create("carol")).token
    theirs = [await (there, here)[i % 2].open(carol) for i in range(2)]
    assert await here.get(kept.id) is None  # the oldest of all five went first
    assert [await there.get(s.id) for s in theirs if s is not None] == theirs
    assert await count(db) == 5


async def test_sign_ins_at_once_on_two_connectors_keep_the_limit(
    db: Connector, other: Connector
) -> None:
    alice = (await Tokens(db).create("alice")).token
    here = PageSessions(Tokens(db), max_per_owner=4)
    there = PageSessions(Tokens(other), max_per_owner=4)
    opened = await asyncio.gather(*((here, there)[i % 2].open(alice) for i in range(16)))
    assert all(s is not None for s in opened)
    assert await count(db) == 4


async def test_expired_sessions_are_purged_by_the_next_sign_in(db: Connector) -> None:
    now = [1000.0]
    tokens = Tokens(db)
    token = (await tokens.create("asha")).token
    sessions = PageSessions(tokens, ttl_s=60, clock=lambda: now[0])
    for _ in range(3):
        await sessions.open(token)
    revoked = await tokens.create("bob")
    await sessions.open(revoked.token)
    await tokens.revoke(revoked.info.id)
    assert await count(db) == 4
    now[0] += 61
    assert await sessions.open(token) is not None
    assert await count(db) == 1


async def test_only_digests_are_at_rest(store_kind: str, store_url: str, db: Connector) -> None:
    issued = await Tokens(db).create("asha")
    sessions = [await PageSessions(Tokens(db)).open(issued.token) for _ in range(3)]
    secrets = [issued.token] + [s.id for s in sessions if s] + [s.csrf for s in sessions if s]
    async with db.snapshot() as tx:
        rows = repr(await tx.fetch_all("SELECT * FROM page_sessions"))
    if store_kind == "sqlite":  # the file's own bytes, its write-ahead log too
        files = [Path(store_url + tail) for tail in ("", "-wal", "-shm")]
        rows += "".join(f.read_bytes().decode("latin-1") for f in files if f.exists())
    elif store_kind == "postgres":
        with psycopg.connect(store_url) as conn:
            raw = conn.execute("SELECT p::text FROM page_sessions p").fetchall()
        rows += repr(raw)
    assert len(sessions) == 3 and "asha" in rows
    assert [s for s in secrets if s in rows] == []
