"""The faces held to the review's findings (real uvicorn on loopback, httpx, the MCP
client over streamable HTTP; scripted runs): a broken store is 503, a malformed
address 422, no exception's message reaches a log line, JSON is never cached, facts
are capped, listings come a page at a time, and each owner's tasks, streams and
long-polls are capped."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import httpx2
import psycopg
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from gofer.api import GoferServer, MemoryTokenStore
from gofer.api.errors import http_status
from gofer.api.limits import OwnerSlots
from gofer.errors import StoreError
from gofer.store import Connector, PostgresConnector, SecretBox, SQLiteConnector
from gofer.store.postgres import _store_error as pg_store_error
from gofer.store.sqlite import store_error
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import hang

FLOW = [{"browse": "https://shop.example.com/"}, {"click": "Next"}]
ASK = [{"browse": "https://shop.example.com/"}, {"enter": "${email}", "into": "Email"}]


@asynccontextmanager
async def serving(
    tasks: Tasks, *, slots: OwnerSlots | None = None
) -> AsyncIterator[tuple[GoferServer, httpx.AsyncClient, str]]:
    tokens = MemoryTokenStore()
    alice = (await tokens.create("alice")).token
    async with GoferServer(tasks, tokens, local_owner="local") as server:
        if slots is not None:
            server.service._slots = slots
        headers = {"Authorization": f"Bearer {alice}"}
        async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=30) as http:
            yield server, http, alice


@asynccontextmanager
async def mcp_client(url: str, token: str) -> AsyncIterator[Client]:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=30)
    async with http, Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
        yield client


def code_of(response: httpx.Response) -> str:
    return str(response.json()["error"]["code"])


def tool_code(result: Any) -> str:
    assert result.is_error, result
    text = result.content[0].text
    return str(json.loads(text[text.index("{") :])["error"]["code"])


# ------------------------------------------------------------------ a store that fails


@asynccontextmanager
async def read_only(
    store_kind: str, store_url: str, secrets: SecretBox
) -> AsyncIterator[Connector]:
    """The test's database, opened and then turned read-only, as a full disk or a
    read-only mount leaves it: every write fails in the driver."""
    if store_kind == "sqlite":
        async with SQLiteConnector(store_url) as lite:
            await lite._call(lambda c: c.execute("PRAGMA query_only = ON"))
            yield lite
        return
    async with PostgresConnector(store_url, max_size=1, secrets=secrets) as pg:
        async with pg._pool.connection() as conn:
            await conn.execute("SET default_transaction_read_only = on")
        yield pg


# the in-memory store has no disk to fill
@pytest.mark.parametrize("store_kind", ["sqlite", "postgres"], indirect=True)
async def test_a_store_that_cannot_write_answers_503_over_http_and_mcp(
    store_kind: str, store_url: str, pg_secrets: SecretBox
) -> None:
    async with (
        read_only(store_kind, store_url, pg_secrets) as db,
        Tasks(ScriptedRunner(), store=db, work=False) as tasks,
        serving(tasks) as (server, http, alice),
    ):
        started = await http.post("/v1/tasks", json={"flow": FLOW})
        assert started.status_code == 503, started.text
        assert code_of(started) == "STORE_UNAVAILABLE"
        call = await http.post("/v1/calls/start_task", json={"flow": FLOW})
        assert call.status_code == 503 and code_of(call) == "STORE_UNAVAILABLE"
        listed = await http.get("/v1/tasks")
        assert listed.status_code == 200, "reads still work"
        async with mcp_client(server.url, alice) as client:
            result = await client.call_tool("start_task", {"flow": FLOW})
            assert tool_code(result) == "STORE_UNAVAILABLE"


# ------------------------------------------------------------------ malformed input, logs


async def test_a_malformed_address_is_422_never_500_over_http_and_mcp() -> None:
    flow = [{"browse": "http://[x"}, {"click": "Next"}]
    async with Tasks(ScriptedRunner()) as tasks, serving(tasks) as (server, http, alice):
        created = await http.post("/v1/tasks", json={"flow": flow})
        assert created.status_code == 422, created.text
        call = await http.post("/v1/calls/start_task", json={"flow": flow})
        assert call.status_code == 422
        async with mcp_client(server.url, alice) as client:
            result = await client.call_tool("start_task", {"flow": flow})
            assert tool_code(result).startswith("INVALID")


async def test_no_exception_message_reaches_a_log_line(
    caplog: pytest.LogCaptureFixture, canary: Callable[[str], str]
) -> None:
    secret = canary("canary-in-an-exception-31f7")

    class Broken(Tasks):
        async def describe(self, request: Any = None) -> Any:
            raise RuntimeError(f"the request quoted {secret}")

    caplog.set_level(logging.INFO)
    async with Broken(ScriptedRunner()) as tasks, serving(tasks) as (_server, http, _alice):
        crashed = await http.post("/v1/calls/describe")
        assert crashed.status_code == 500
        assert code_of(crashed) == "INTERNAL_ERROR" and secret not in crashed.text
        again = await http.get("/health")
        assert again.status_code == 200, "the connection and the server go on"
    lines = [caplog.handler.format(r) for r in caplog.records]
    assert any("RuntimeError" in line for line in lines), "the crash itself is logged"
    assert not [line for line in lines if secret in line]
    assert not [r for r in caplog.records if r.name.startswith("uvicorn") and r.exc_info]


async def test_json_answers_are_never_cached() -> None:
    async with Tasks(ScriptedRunner()) as tasks, serving(tasks) as (_server, http, _alice):
        for response in (
            await http.post("/v1/calls/start_task", json={"flow": FLOW}),
            await http.get("/v1/tasks"),
            await http.post("/v1/calls/await_task", json={"id": "task-missing"}),
            await http.get("/v1/tasks", headers={"Authorization": "Bearer nope"}),
        ):
            assert response.headers["content-type"].startswith("application/json")
            assert response.headers["cache-control"] == "no-store"


# ------------------------------------------------------------------ bounded work


async def test_facts_and_answers_are_capped_naming_the_fact_never_its_value(
    canary: Callable[[str], str],
) -> None:
    long = canary("7" * 5000)
    async with Tasks(ScriptedRunner()) as tasks, serving(tasks) as (server, http, alice):
        refused = await http.post(
            "/v1/tasks", json={"flow": FLOW, "facts": {"account number": long}}
        )
        assert refused.status_code == 422 and code_of(refused) == "INVALID_REQUEST"
        assert "account number" in refused.json()["error"]["message"]
        assert long not in refused.text and "7777777" not in refused.text
        many = {f"fact {i}": "x" for i in range(101)}
        too_many = await http.post("/v1/calls/start_task", json={"flow": FLOW, "facts": many})
        assert too_many.status_code == 422 and code_of(too_many) == "INVALID_REQUEST"
        asking = await http.post("/v1/calls/start_task", json={"flow": ASK})
        task_id = asking.json()["id"]
        answer = await http.post(f"/v1/tasks/{task_id}/reply", json={"inputs": {"email": long}})
        assert answer.status_code == 422 and long not in answer.text
        async with mcp_client(server.url, alice) as client:
            result = await client.call_tool(
                "start_task", {"flow": FLOW, "facts": {"account number": long}}
            )
            assert tool_code(result) == "INVALID_REQUEST"
            assert "account number" in result.content[0].text
            assert "7777777" not in result.content[0].text


async def test_listings_come_a_page_at_a_time(db: Connector) -> None:
    async with (
        Tasks(ScriptedRunner(), store=db, owner="alice", work=False) as tasks,
        serving(tasks) as (server, http, alice),
    ):
        ids = [(await tasks.start_task({"flow": ASK})).id for _ in range(5)]
        everything = await http.post("/v1/calls/list_tasks", json={})
        assert [t["id"] for t in everything.json()["tasks"]] == ids
        assert everything.json()["next_cursor"] is None
        seen: list[str] = []
        cursor = None
        for size in (2, 2, 1):
            page = await http.post("/v1/calls/list_tasks", json={"limit": 2, "cursor": cursor})
            body = page.json()
            assert len(body["tasks"]) == size
            seen += [t["id"] for t in body["tasks"]]
            cursor = body["next_cursor"]
        assert seen == ids and cursor is None
        newest = await http.get("/v1/tasks", params={"limit": 3})
        assert [t["id"] for t in newest.json()["tasks"]] == ids[::-1][:3]
        older = await http.get("/v1/tasks", params={"cursor": newest.json()["next_cursor"]})
        assert [t["id"] for t in older.json()["tasks"]] == ids[::-1][3:]
        for bad in ({"limit": 0}, {"limit": 501}, {"cursor": "x1"}):
            refused = await http.post("/v1/calls/list_tasks", json=bad)
            assert refused.status_code == 422, bad
        async with mcp_client(server.url, alice) as client:
            result = await client.call_tool("list_tasks", {"limit": 4})
            assert result.structured_content is not None
            assert [t["id"] for t in result.structured_content["tasks"]] == ids[:4]
            assert result.structured_content["next_cursor"] is not None


async def test_an_owner_has_at_most_max_open_tasks_waiting_or_running(db: Connector) -> None:
    runner = ScriptedRunner.of(hang(), hang(), hang(), hang())
    async with (
        Tasks(runner, store=db, owner="alice", max_open=2) as tasks,
        serving(tasks) as (_server, http, _alice),
    ):
        for _ in range(2):
            assert (await http.post("/v1/tasks", json={"flow": FLOW})).status_code == 201
        third = await http.post("/v1/tasks", json={"flow": FLOW})
        assert third.status_code == 429 and code_of(third) == "TOO_MANY_TASKS"
        asking = await http.post("/v1/tasks", json={"flow": ASK})
        assert asking.status_code == 201, "a task that waits for its caller runs nothing"
        bob = tasks.for_owner("bob")
        assert (await bob.start_task({"flow": FLOW})).status.state == "running"
        first = (await http.get("/v1/tasks")).json()["tasks"][-1]["id"]
        await http.post(f"/v1/tasks/{first}/cancel")
        assert (await http.post("/v1/tasks", json={"flow": FLOW})).status_code == 201


async def test_an_owner_has_at_most_so_many_streams_and_long_polls_open() -> None:
    runner = ScriptedRunner.of(hang())
    slots = OwnerSlots(streams=1, waits=1)
    async with Tasks(runner) as tasks, serving(tasks, slots=slots) as (_server, http, _alice):
        task_id = (await http.post("/v1/calls/start_task", json={"flow": FLOW})).json()["id"]
        waiting = asyncio.create_task(
            http.post("/v1/calls/await_task", json={"id": task_id, "timeout_ms": 2000})
        )
        while slots.held("alice", "wait") == 0:
            await asyncio.sleep(0.01)
        second = await http.post("/v1/calls/await_task", json={"id": task_id, "timeout_ms": 10})
        assert second.status_code == 429 and code_of(second) == "TOO_MANY_WAITS"
        assert (await waiting).status_code == 200
        assert slots.held("alice", "wait") == 0
        async with http.stream("GET", f"/v1/tasks/{task_id}/events") as first:
            assert first.status_code == 200
            refused = await http.get(f"/v1/tasks/{task_id}/events")
            assert refused.status_code == 429 and code_of(refused) == "TOO_MANY_STREAMS"
        for _ in range(200):
            if slots.held("alice", "stream") == 0:
                break
            await asyncio.sleep(0.01)
        assert slots.held("alice", "stream") == 0, "a closed stream gives its slot back"
        missing = await http.get("/v1/tasks/task-missing/events")
        assert missing.status_code == 404 and slots.held("alice", "stream") == 0


async def test_reads_take_no_write_lock_on_sqlite(tmp_path: Path) -> None:
    statements: list[str] = []
    async with (
        SQLiteConnector(tmp_path / "gofer.db") as db,
        Tasks(ScriptedRunner(), store=db, work=False) as tasks,
    ):
        view = await tasks.start_task({"flow": ASK})
        await db._call(lambda c: c.set_trace_callback(statements.append))
        await tasks.list_tasks()
        await tasks.await_task({"id": view.id, "timeout_ms": 0})
        await tasks.task_report({"id": view.id})
        await db._call(lambda c: c.set_trace_callback(None))
    begun = [s for s in statements if s.upper().startswith("BEGIN")]
    assert begun and all(s.upper() == "BEGIN" for s in begun), begun


def test_the_drivers_full_disk_and_read_only_errors_are_503() -> None:
    for text in ("database or disk is full", "attempt to write a readonly database"):
        error = store_error(sqlite3.OperationalError(text))
        assert error.code == "STORE_UNAVAILABLE" and http_status(error) == 503
    for pg in (psycopg.errors.DiskFull("no space"), psycopg.errors.ReadOnlySqlTransaction("ro")):
        error = pg_store_error(pg)
        assert error.code == "STORE_UNAVAILABLE" and http_status(error) == 503
    assert http_status(StoreError("the disk image is malformed")) == 503
