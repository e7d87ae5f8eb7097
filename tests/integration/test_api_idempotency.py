"""Idempotency keys kept in the store, on memory, SQLite and PostgreSQL: a retried
create finds the task the first one opened after a server restart and from another
server on the same store; a key whose first request still runs elsewhere is busy,
and taken over once that request is stale; a failed request leaves no trace; no
fact value is stored."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from gofer.api import GoferServer, Idempotency, MemoryTokenStore
from gofer.store import Connector
from gofer.store.keys import keys_for
from gofer.tasks import ScriptedRunner, Tasks

FLOW = [{"browse": "https://shop.example.com/"}, {"click": "Next"}]
BODY = {"flow": FLOW, "facts": {"email": "asha.idem@example.com"}}


@asynccontextmanager
async def serving(
    db: Connector, tokens: MemoryTokenStore, token: str
) -> AsyncIterator[httpx.AsyncClient]:
    """A server on ``db`` (tasks and keys), and a client with ``token``."""
    async with (
        Tasks(ScriptedRunner(), store=db) as tasks,
        GoferServer(tasks, tokens, store=db) as server,
        httpx.AsyncClient(
            base_url=server.url, timeout=30, headers={"Authorization": f"Bearer {token}"}
        ) as client,
    ):
        yield client


async def post(client: httpx.AsyncClient, path: str, body: Any, key: str) -> httpx.Response:
    return await client.post(path, json=body, headers={"Idempotency-Key": key})


async def test_a_replayed_key_after_a_restart_opens_no_second_task(
    reopen: Callable[[], Any], canary: Callable[[str], str]
) -> None:
    canary(BODY["facts"]["email"])  # type: ignore[index]
    tokens = MemoryTokenStore()
    token = (await tokens.create("asha")).token
    async with reopen() as db, serving(db, tokens, token) as client:
        first = await post(client, "/v1/calls/start_task", BODY, "order-7")
        made = await post(client, "/v1/tasks", {"instruction": "Book it.", "flow": FLOW}, "plus-1")
        assert first.status_code == 200 and made.status_code == 201
    async with reopen() as db, serving(db, tokens, token) as client:
        again = await post(client, "/v1/calls/start_task", BODY, "order-7")
        assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
        remade = await post(
            client, "/v1/tasks", {"instruction": "Book it.", "flow": FLOW}, "plus-1"
        )
        assert remade.status_code == 201 and remade.json()["id"] == made.json()["id"]
        other = await post(client, "/v1/calls/start_task", {"flow": FLOW}, "order-7")
        assert other.status_code == 422
        assert other.json()["error"]["code"] == "IDEMPOTENCY_KEY_REUSED"
        listed = await client.post("/v1/calls/list_tasks", json={})
        assert sorted(t["id"] for t in listed.json()["tasks"]) == sorted(
            [first.json()["id"], made.json()["id"]]
        )
        rows = await _rows(db)
    assert len(rows) == 2
    assert "asha.idem@example.com" not in json.dumps(rows, default=str)


async def test_two_servers_on_one_store_share_their_keys(db: Connector, other: Connector) -> None:
    tokens = MemoryTokenStore()
    token = (await tokens.create("asha")).token
    async with serving(db, tokens, token) as one, serving(other, tokens, token) as two:
        refused = await post(one, "/v1/calls/start_task", {"flow": [{"fly": 1}]}, "k-1")
        assert refused.json()["error"]["code"] == "INVALID_FLOW"
        started = await post(two, "/v1/calls/start_task", BODY, "k-1")
        assert started.status_code == 200
        replayed = await post(one, "/v1/calls/start_task", BODY, "k-1")
        assert replayed.json()["id"] == started.json()["id"]
        listed = await one.post("/v1/calls/list_tasks", json={})
        assert [t["id"] for t in listed.json()["tasks"]] == [started.json()["id"]]


async def test_a_key_still_running_elsewhere_is_busy_until_it_is_stale(
    db: Connector, other: Connector
) -> None:
    now = [1_000.0]
    keys = Idempotency(db, stale_s=60, clock=lambda: now[0])
    elsewhere = keys_for(other)
    secret = await elsewhere.secret()
    assert secret == await keys_for(db).secret()
    text = json.dumps({"n": 1}, sort_keys=True, separators=(",", ":"))
    fingerprint = hmac.new(secret, text.encode(), hashlib.sha256).hexdigest()
    claimed = await elsewhere.claim(
        "asha", "create", "k-2", fingerprint, now=now[0], ttl_s=3600, stale_s=60
    )
    assert claimed.mine
    runs: list[int] = []

    async def work() -> list[str]:
        runs.append(1)
        return ["task-1"]

    with pytest.raises(Exception, match="IDEMPOTENCY_KEY_BUSY"):
        await keys.once("asha", "create", "k-2", {"n": 1}, work)
    assert runs == []
    now[0] += 61  # the process that claimed it never answered
    assert await keys.once("asha", "create", "k-2", {"n": 1}, work) == (["task-1"], False)
    assert await keys.once("asha", "create", "k-2", {"n": 1}, work) == (["task-1"], True)
    assert runs == [1]
    # the old claim's late answer changes nothing
    await elsewhere.complete("asha", "create", "k-2", claimed.created_at, ["task-9"])
    assert await keys.once("asha", "create", "k-2", {"n": 1}, work) == (["task-1"], True)


async def _rows(db: Connector) -> list[dict[str, Any]]:
    async with db.transaction() as tx:
        return await tx.fetch_all("SELECT * FROM idempotency_keys")
