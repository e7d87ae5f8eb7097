"""Take over over real HTTP and WebSocket (uvicorn on loopback; httpx and the
``websockets`` client), on a controller whose runs are scripted and whose task pages
are fakes (:class:`~gofer.surfaces.testing.FakeLiveView`): who may open the live view,
in which states, the socket's protocol, the page, and no input in any log."""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import httpx
import pytest
import pytest_asyncio
from live_script import CANARY, FLOW, WALL, bearer, click_and_type, hand_back, message, walled
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from gofer.api import GoferServer, MemoryTokenStore
from gofer.api.live_view import live_fragment
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import fail
from gofer.tasks.worker import TurnLimits


@dataclass
class Live:
    server: GoferServer
    runner: ScriptedRunner
    tasks: Tasks
    alice: str
    bob: str

    def ws(self, task_id: str) -> str:
        return self.server.url.replace("http://", "ws://") + f"/tasks/{task_id}/live/socket"

    def http(self, token: str | None) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.AsyncClient(base_url=self.server.url, headers=headers, timeout=30)


@pytest_asyncio.fixture
async def live(served: Callable[[str | bytes], None]) -> AsyncIterator[Live]:
    tokens = MemoryTokenStore()
    alice, bob = (await tokens.create("alice")).token, (await tokens.create("bob")).token
    runner = ScriptedRunner()
    async with Tasks(runner) as tasks, GoferServer(tasks, tokens, observe=served) as srv:
        yield Live(srv, runner, tasks, alice, bob)


async def test_the_owner_clicks_and_types_in_the_live_view_then_hands_the_task_back(
    live: Live,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG, logger="gofer")
    caplog.set_level(logging.DEBUG, logger="uvicorn")
    task_id = await walled(live)
    face = live.runner.faces[task_id]
    async with connect(live.ws(task_id), additional_headers=bearer(live.alice)) as ws:
        await click_and_type(ws, face)
        await ws.send(json.dumps({"type": "key", "action": "down", "key": "!"}))
        assert await message(ws) == b"fake frame 4"
        typed = face.screen.element("e1")
        assert typed is not None and typed.value == CANARY + "!" and typed.focused

        # a message that does not fit is answered, and the view goes on
        await ws.send(
            json.dumps({"type": "pointer", "action": "down", "x": 7, "y": 0, "secret": CANARY})
        )
        refused = await message(ws)
        assert refused["type"] == "error" and refused["code"] == "INVALID_INPUT"
        assert CANARY not in json.dumps(refused)
        await ws.send("not json " + CANARY)
        assert (await message(ws))["code"] == "INVALID_INPUT"

        done = await hand_back(ws, live, task_id)
        assert done.json()["view"]["status"]["state"] in ("running", "done")
    view = await live.tasks.for_owner("alice").await_task({"id": task_id})
    assert view.status.state == "done"
    assert live.runner.requests[-1][1].flow.steps[0].KIND == "click", "the failed step again"
    server_side = [r for r in caplog.records if r.name.startswith(("gofer", "uvicorn"))]
    assert server_side, "the server's log was captured"
    assert not [r for r in server_side if CANARY in r.getMessage()]


@contextlib.asynccontextmanager
async def signed_in(live: Live, token: str) -> AsyncIterator[httpx.AsyncClient]:
    """A browser signed in to the task pages with ``token`` (its session cookie)."""
    async with httpx.AsyncClient(base_url=live.server.url, timeout=30) as browser:
        signed = await browser.post("/login", data={"token": token, "next": "/tasks"})
        assert signed.status_code == 303 and "gofer_session" in browser.cookies
        yield browser


def session_cookie(browser: httpx.AsyncClient) -> dict[str, str]:
    return {"Cookie": f"gofer_session={browser.cookies['gofer_session']}"}


async def test_only_the_owner_may_open_it_and_only_while_a_person_may_act(live: Live) -> None:
    task_id = await walled(live)
    for token in (live.bob, None):
        headers = bearer(token) if token else {}
        with pytest.raises(InvalidStatus) as refused:
            async with connect(live.ws(task_id), additional_headers=headers):
                pass
        assert refused.value.response.status_code == (404 if token else 401)
    async with signed_in(live, live.bob) as bob:
        page = await bob.get(f"/tasks/{task_id}/live")
        assert page.status_code == 404
        with pytest.raises(InvalidStatus) as refused:
            async with connect(
                live.ws(task_id),
                origin=live.server.url,  # type: ignore[arg-type]
                additional_headers=session_cookie(bob),
            ):
                pass
        assert refused.value.response.status_code == 404
    async with httpx.AsyncClient(base_url=live.server.url) as nobody:
        page = await nobody.get(f"/tasks/{task_id}/live")
    assert page.status_code == 303
    assert page.headers["location"].startswith("/login?next=%2Ftasks%2F")
    with pytest.raises(InvalidStatus) as missing:
        async with connect(live.ws("task-999"), additional_headers=bearer(live.alice)):
            pass
    assert missing.value.response.status_code == 404
    body = json.loads(missing.value.response.body or b"{}")
    assert body["error"]["code"] == "UNKNOWN_TASK"

    # a finished task has no browser to take over
    await live.tasks.for_owner("alice").continue_task({"id": task_id})
    await live.tasks.for_owner("alice").await_task({"id": task_id})
    with pytest.raises(InvalidStatus) as finished:
        async with connect(live.ws(task_id), additional_headers=bearer(live.alice)):
            pass
    assert finished.value.response.status_code == 409
    assert b"WRONG_STATE" in (finished.value.response.body or b"")


async def test_a_browser_signed_in_takes_over_from_this_servers_own_pages(live: Live) -> None:
    task_id = await walled(live)
    async with signed_in(live, live.alice) as browser:
        cookie = session_cookie(browser)
        with pytest.raises(InvalidStatus) as elsewhere:
            async with connect(
                live.ws(task_id),
                origin="https://evil.example",  # type: ignore[arg-type]
                additional_headers=cookie,
            ):
                pass
        assert elsewhere.value.response.status_code == 403
        with pytest.raises(InvalidStatus) as nowhere:
            async with connect(live.ws(task_id), additional_headers=cookie):
                pass
        assert nowhere.value.response.status_code == 403
        async with connect(
            live.ws(task_id),
            origin=live.server.url,  # type: ignore[arg-type]
            additional_headers=cookie,
        ) as ws:
            assert (await message(ws))["type"] == "ready"

        task_page = await browser.get(f"/tasks/{task_id}")
        assert f'href="/tasks/{task_id}/live"' in task_page.text
        page = await browser.get(f"/tasks/{task_id}/live")
        assert page.status_code == 200
        text = html.unescape(page.text)
        assert live_fragment(task_id) in text
        assert "/assets/live.js" in text and "/assets/live.css" in text
        assert f'action="/tasks/{task_id}/again"' in text and "I've done it" in text
        script = await browser.get("/assets/live.js")
        assert "data-gofer-live" in script.text
        assert (await browser.get("/assets/live.css")).status_code == 200


async def test_once_the_browser_is_let_go_the_pages_say_so_and_link_no_live_view(
    served: Callable[[str | bytes], None],
) -> None:
    tokens = MemoryTokenStore()
    alice = (await tokens.create("alice")).token
    runner = ScriptedRunner.of(fail("1", "no Orders on the screen", screen_text=WALL))
    async with (
        Tasks(runner, limits=TurnLimits(hold_s=0.05)) as tasks,
        GoferServer(tasks, tokens, observe=served) as srv,
    ):
        alices = tasks.for_owner("alice")
        task_id = (await alices.start_task({"flow": FLOW})).id
        assert (await alices.await_task({"id": task_id})).status.state == "needs_human"
        timer, _ = tasks.worker.holding[task_id]
        await asyncio.wait([timer])
        assert runner.released == [task_id]
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as browser:
            await browser.post("/login", data={"token": alice, "next": "/tasks"})
            task_page = html.unescape((await browser.get(f"/tasks/{task_id}")).text)
            live_page = html.unescape((await browser.get(f"/tasks/{task_id}/live")).text)
        said = "Its browser is not open now"
        assert said in task_page and f"/tasks/{task_id}/live" not in task_page
        assert said in live_page and "data-gofer-live" not in live_page
        assert f'action="/tasks/{task_id}/again"' in task_page, "it can still go on"
