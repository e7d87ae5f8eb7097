"""Webhooks from a real ``gofer serve``: a receiver on loopback (the operator allows
private addresses) gets every state change of a task that needs its caller or ends,
signed with the task's secret, across a restart of the server: a delivery the
receiver could not take before the restart is delivered after it, once per id.
Judged by what the receiver received.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from gofer.demo import DemoServer

from .serve import Started, gofer, start_serve

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SECRET = "whsec-canary-5521"


@dataclass
class Receiver:
    """Takes deliveries (or answers 503 while ``down``); records every one it got."""

    down: bool = True
    got: list[tuple[dict[str, str], bytes]] = field(default_factory=list)
    taken: dict[str, dict[str, Any]] = field(default_factory=dict)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def hook(self, request: Request) -> Response:
        body = await request.body()
        self.got.append((dict(request.headers), body))
        self.arrived.set()
        if self.down:
            return Response(status_code=503)
        delivery = request.headers["gofer-delivery"]
        self.taken.setdefault(delivery, json.loads(body))
        return JSONResponse({"ok": True})

    async def form(self, request: Request) -> Response:
        return HTMLResponse(
            "<!doctype html><title>Newsletter</title><h1>Newsletter</h1>"
            "<label>Email <input name='email'></label>"
        )

    async def wait_for(self, count: int) -> None:
        while len(self.taken) < count:
            self.arrived.clear()
            await self.arrived.wait()


def signed(headers: dict[str, str], body: bytes) -> bool:
    parts = dict(p.split("=", 1) for p in headers["gofer-signature"].split(","))
    mac = hmac.new(SECRET.encode(), parts["t"].encode() + b"." + body, hashlib.sha256)
    return hmac.compare_digest(mac.hexdigest(), parts["v1"])


async def stopped(server: Started) -> None:
    server.proc.send_signal(signal.SIGTERM)
    async with asyncio.timeout(60):
        await server.proc.wait()


async def test_a_receiver_gets_every_state_change_signed_across_a_restart(
    tmp_path: Path,
) -> None:
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path),
        "GOFER_DB": str(tmp_path / "gofer.db"),
        "GOFER_TOKENS": str(tmp_path / "tokens.db"),
        "PYTHONUNBUFFERED": "1",
    }
    code, out, err = await gofer("token", "create", "--owner", "alice", "--json", env=env)
    assert code == 0, err
    headers = {"Authorization": f"Bearer {json.loads(out)['token']}"}
    receiver = Receiver()
    app = Starlette(
        routes=[Route("/hook", receiver.hook, methods=["POST"]), Route("/form", receiver.form)]
    )
    async with DemoServer(app=app) as site:
        body = {
            "flow": [{"browse": site.url + "form"}, {"enter": "${email}", "into": "Email"}],
            "notify": {"url": site.url + "hook", "secret": SECRET},
        }
        first = await start_serve(env, "--allow-private")
        try:
            async with httpx.AsyncClient(base_url=first.url, headers=headers) as http:
                started = (await http.post("/v1/calls/start_task", json=body)).json()
                assert started["status"]["state"] == "needs_input", started
                await receiver.arrived.wait()  # tried once, refused: still to deliver
        finally:
            await stopped(first)
        assert receiver.taken == {}

        receiver.down = False
        second = await start_serve(env, "--allow-private")
        try:
            async with httpx.AsyncClient(base_url=second.url, headers=headers) as http:
                async with asyncio.timeout(60):
                    await receiver.wait_for(1)
                task_id = started["id"]
                answer = {"id": task_id, "inputs": {"email": "asha@example.com"}}
                continued = await http.post("/v1/calls/continue_task", json=answer)
                assert continued.status_code == 200, continued.text
                async with asyncio.timeout(60):
                    await receiver.wait_for(2)
        finally:
            await stopped(second)

    states = [d["task"]["status"]["state"] for d in receiver.taken.values()]
    assert states == ["needs_input", "done"]
    assert all(d["task"]["id"] == task_id for d in receiver.taken.values())
    assert all(signed(h, b) for h, b in receiver.got)
    assert all(SECRET.encode() not in b for _h, b in receiver.got)
    assert len({h["gofer-delivery"] for h, _b in receiver.got}) == 2
