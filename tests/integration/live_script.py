"""The live view's conversation as the take-over tests script it, shared by the tests
on one server (test_api_live.py) and through a relaying server (test_api_relay.py):
a task of alice's stopped at a login wall, its fake page showing the sign-in form, and
the person's side of the socket: the opening (ready, the first frame), a click on the
username field and a value typed into it, and handing the task back."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Protocol

import httpx
from websockets.asyncio.client import ClientConnection

from gofer.surfaces import Box, Element, Screen
from gofer.surfaces.testing import FakeSurface
from gofer.tasks import ScriptedRunner
from gofer.tasks.testing import fail

FLOW = [{"browse": "https://shop.example.com/account"}, {"click": "Orders"}]
WALL = "Sign in to continue\nUsername\nPassword"
CANARY = "hunter2-canary-live-0x51"
"""What the person types: it must reach the page and no log line."""

USERNAME = Element(
    ref="e1", role="textbox", name="Username", editable=True, box=Box(100, 200, 300, 40)
)
SIGN_IN = Element(ref="e2", role="button", name="Sign in", box=Box(100, 300, 120, 40))


class Stage(Protocol):
    """Where a live view is taken: a server, the scripted runner behind it, and alice."""

    runner: ScriptedRunner
    alice: str

    def ws(self, task_id: str) -> str: ...

    def http(self, token: str) -> httpx.AsyncClient: ...


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def message(ws: ClientConnection) -> Any:
    async with asyncio.timeout(10):
        raw = await ws.recv()
    return json.loads(raw) if isinstance(raw, str) else raw


async def walled(stage: Stage) -> str:
    """A task of alice's stopped at a login wall, its fake page showing the form."""
    stage.runner.add(fail("1", "no Orders on the screen", screen_text=WALL))
    async with stage.http(stage.alice) as http:
        started = await http.post("/v1/calls/start_task", json={"flow": FLOW})
        task_id = str(started.json()["id"])
        view = (await http.post("/v1/calls/await_task", json={"id": task_id})).json()
    assert view["status"]["state"] == "needs_human", view
    stage.runner.faces[task_id] = FakeSurface(
        Screen("https://shop.example.com/account", "Sign in", (), (USERNAME, SIGN_IN))
    )
    return task_id


async def click_and_type(ws: ClientConnection, face: FakeSurface) -> None:
    """The person's opening: ready and the first frame, a click on the username field
    (its frame, and the focus on a field whose typing shows), then CANARY typed into
    it (its frame), which the page's field then holds."""
    assert await message(ws) == {
        "type": "ready",
        "width": 1280,
        "height": 800,
        "origin": "https://shop.example.com",
    }
    assert await message(ws) == b"fake frame 1"
    x, y = USERNAME.box.cx / 1280, USERNAME.box.cy / 800
    for action in ("down", "up"):
        await ws.send(json.dumps({"type": "pointer", "action": action, "x": x, "y": y}))
    got = [await message(ws), await message(ws)]
    assert b"fake frame 2" in got
    assert {"type": "focus", "field": "Username", "hidden": False} in got
    await ws.send(json.dumps({"type": "text", "text": CANARY}))
    assert await message(ws) == b"fake frame 3"
    typed = face.screen.element("e1")
    assert typed is not None and typed.value == CANARY


async def hand_back(ws: ClientConnection, stage: Stage, task_id: str) -> httpx.Response:
    """alice says she is past the wall ("again"); the live view ends and closes. The
    answer to her hand-back."""
    async with stage.http(stage.alice) as http:
        again = await http.post(f"/v1/tasks/{task_id}/again")
    assert again.status_code == 200, again.text
    ended = await message(ws)
    assert ended["type"] == "ended"
    async with asyncio.timeout(10):
        await ws.wait_closed()
    return again
