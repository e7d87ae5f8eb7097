"""``gofer serve`` killed with SIGKILL and started again on the same GOFER_DB (SQLite
and PostgreSQL), twice: once while its task waits for its caller, once in the middle
of a turn. Nothing is lost, the cut turn runs exactly once more, and the booking ends
at the payment checkpoint as the demo site's own records show.

The demo site here has a gate in front of it: the first passenger form sent is held
before the site sees it, so the server is killed with its browser waiting on that
page, and the site records only what the run after the restart sends.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from gofer.cli import DEMO_FACTS, demo_flow
from gofer.demo import DemoServer
from gofer.demo.app import create_app
from gofer.store import PostgresConnector, SQLiteConnector
from gofer.tasks.status import task_group

from .serve import Started, gofer, killed, start_serve

pytestmark = pytest.mark.browser

MOBILE = DEMO_FACTS["mobile number"]


@pytest.fixture(params=["sqlite", "postgres"])
def store_kind(request: pytest.FixtureRequest) -> str:
    """The stores a restarted server finds its tasks in again."""
    return str(request.param)


@dataclass
class Gate:
    """Holds the first POST to ``path`` away from the site until ``release`` is set,
    then answers it 503 (its browser is gone by then)."""

    path: str
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)


class HoldFirst:
    """ASGI middleware putting a :class:`Gate` in front of an app."""

    def __init__(self, app: ASGIApp, gate: Gate) -> None:
        self.app = app
        self.gate = gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        gate = self.gate
        if (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and scope["path"] == gate.path
            and not gate.reached.is_set()
        ):
            gate.reached.set()
            await gate.release.wait()
            await PlainTextResponse("gone", status_code=503)(scope, receive, send)
            return
        await self.app(scope, receive, send)


@asynccontextmanager
async def serving(env: dict[str, str]) -> AsyncIterator[Started]:
    """``gofer serve`` in a session of its own (its browser with it), killed with
    SIGKILL at the end unless the test killed it already."""
    started = await start_serve(env, "--allow-private", own_session=True)
    try:
        yield started
    finally:
        await killed(started.proc)


@asynccontextmanager
async def client(server: Started, token: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        base_url=server.url, timeout=90, headers={"Authorization": f"Bearer {token}"}
    ) as http:
        yield http


async def call(http: httpx.AsyncClient, name: str, body: dict[str, Any]) -> dict[str, Any]:
    response = await http.post(f"/v1/calls/{name}", json=body)
    assert response.status_code == 200, response.text
    return dict(response.json())


async def test_a_killed_server_started_again_loses_nothing_and_reruns_the_cut_turn_once(
    store_url: str,
    store_kind: str,
    tmp_path: Path,
) -> None:
    gate = Gate("/passengers")
    app = create_app(seed=7)
    app.add_middleware(HoldFirst, gate=gate)
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path),
        "GOFER_DB": store_url,
        "GOFER_TOKENS": str(tmp_path / "tokens.db"),
        "PYTHONUNBUFFERED": "1",
    }
    code, out, err = await gofer("token", "create", "--owner", "alice", "--json", env=env)
    assert code == 0, err
    token = json.loads(out)["token"]
    async with DemoServer(app=app) as demo:
        facts = {k: v for k, v in DEMO_FACTS.items() if k != "mobile number"}
        body = {
            "flow": demo_flow(demo.url),
            "facts": facts,
            "constraints": {"origins": [demo.url.rstrip("/")]},
        }

        # 1. a task waiting for its caller when the server dies
        async with serving(env) as first, client(first, token) as http:
            started = await call(http, "start_task", body)
            assert started["status"] == {"state": "needs_input", "fields": ["mobile number"]}
            await killed(first.proc)
        task_id = started["id"]

        # 2. started again: the task still waits; answered, its turn runs until the
        # gate holds the passenger form, and the server dies in the middle of the turn
        async with serving(env) as second, client(second, token) as http:
            waiting = await call(http, "await_task", {"id": task_id, "timeout_ms": 0})
            assert waiting["status"] == started["status"]
            answered = await call(
                http, "continue_task", {"id": task_id, "inputs": {"mobile number": MOBILE}}
            )
            assert answered["status"]["state"] == "running"
            async with asyncio.timeout(120):
                await gate.reached.wait()
            await killed(second.proc)
        gate.release.set()
        assert demo.events_of("passengers") == [], "the held form never reached the site"

        # 3. started again: once the dead server's lease lapses the turn runs once more
        async with serving(env) as third, client(third, token) as http:
            view = answered
            for _ in range(4):
                view = await call(http, "await_task", {"id": task_id, "timeout_ms": 60_000})
                if view["status"]["state"] != "running":
                    break
            report = await call(http, "task_report", {"id": task_id})
            await killed(third.proc)

        assert view["status"]["state"] == "checkpoint", view
        assert view["status"]["location"].startswith("Pay now")
        passengers = demo.events_of("passengers")
        assert [p["mobile"] for p in passengers] == [MOBILE]
        assert demo.events_of("payment") == []
        assert "Indus Air" in json.dumps(report["records"], ensure_ascii=False)

    connector = (
        PostgresConnector(store_url) if store_kind == "postgres" else SQLiteConnector(store_url)
    )
    async with connector as db:
        turns = await db.queue().items(group=task_group(task_id))
    assert [(t.kind, t.attempts, t.state) for t in turns] == [("reply", 2, "done")], (
        "the cut turn ran exactly once more"
    )
