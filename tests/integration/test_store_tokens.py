"""The bearer tokens in the store: the same behaviour on every connector (memory,
SQLite, PostgreSQL), and only digests at rest."""

from __future__ import annotations

import asyncio

import pytest

from gofer.errors import GoferError
from gofer.store import Connector, Tokens


async def test_a_token_names_its_owner_until_it_is_revoked(db: Connector) -> None:
    tokens = Tokens(db, clock=lambda: 100.0)
    issued = await tokens.create("asha", "laptop")
    assert issued.token.startswith("gofer_") and issued.info.owner == "asha"
    assert await tokens.owner_of(issued.token) == "asha"
    assert await tokens.owner_of(issued.token + "x") is None
    assert await tokens.revoke(issued.info.id)
    assert not await tokens.revoke(issued.info.id)
    assert await tokens.owner_of(issued.token) is None
    (listed,) = await tokens.list()
    assert (listed.id, listed.owner, listed.label, listed.revoked_at) == (
        issued.info.id,
        "asha",
        "laptop",
        100.0,
    )


async def test_another_connector_on_the_database_sees_the_tokens(
    db: Connector, other: Connector
) -> None:
    issued = await Tokens(db).create("asha")
    assert await Tokens(other).owner_of(issued.token) == "asha"
    rows = [await Tokens(db).create(owner) for owner in ("bob", "carol")]
    assert [t.owner for t in await Tokens(other).list()] == ["asha", "bob", "carol"]
    assert await Tokens(other).revoke(rows[0].info.id)
    assert await Tokens(db).owner_of(rows[0].token) is None


async def test_only_a_digest_is_kept(db: Connector) -> None:
    issued = await Tokens(db).create("asha")
    async with db.transaction() as tx:
        rows = await tx.fetch_all("SELECT * FROM api_tokens")
    assert rows and issued.token not in repr(rows)


async def test_a_malformed_owner_is_refused(db: Connector) -> None:
    with pytest.raises(GoferError, match="INVALID_REQUEST"):
        await Tokens(db).create("no spaces allowed")
    assert await Tokens(db).list() == []


@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"])
async def test_a_token_is_looked_up_while_another_process_writes(
    db: Connector, other: Connector
) -> None:
    """Every request looks its token up: a read that waits on no writer."""
    issued = await Tokens(db).create("asha")
    async with db.transaction() as tx:
        await tx.execute("UPDATE api_tokens SET label = 'renamed'")  # a writer, still open
        async with asyncio.timeout(2):
            assert await Tokens(other).owner_of(issued.token) == "asha"
            assert [t.label for t in await Tokens(other).list()] == [""]
