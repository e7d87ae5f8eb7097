"""Issue 29's smaller items over a real ``gofer serve``, on HTTP and MCP alike: a saved
flow's version of 2^63 or more and a notify address with a bad port are 422 naming the
field (never a 500); an approval presses only when the caller names the approval the
view carries, and a stale id is refused without being told the current one. Judged by
the site's own count of presses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from gofer.demo import DemoServer

from .hardened import served

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

HUGE = 2**63


async def test_out_of_range_numbers_are_a_422_naming_the_field(tmp_path: Path) -> None:
    async with served(tmp_path / "store") as s:
        shown = await s.http.get("/v1/flows/shop", params={"version": str(HUGE)})
        assert shown.status_code == 422, shown.text
        assert shown.json()["error"]["at"] == "query.version"
        failed, answer = await s.tool("show_flow", {"name": "shop", "version": HUGE})
        assert failed and answer["error"]["code"] == "INVALID_REQUEST", answer
        body = {"saved_flow": {"name": "shop", "version": HUGE}}
        status, answer = await s.call("start_task", body)
        assert status == 422 and answer["error"]["at"] == "saved_flow.version", answer
        failed, answer = await s.tool("start_saved_flow", {"name": "shop", "version": HUGE})
        assert failed and answer["error"]["code"] == "INVALID_REQUEST", answer
        for url in ("http://127.0.0.1:99999/", "http://127.0.0.1:ab/"):
            body = {"task": "x", "notify": {"url": url}}
            status, answer = await s.call("start_task", body)
            assert status == 422, answer
            assert answer["error"]["code"] == "INVALID_REQUEST", answer
            assert answer["error"]["at"] == "notify.url", answer
            failed, answer = await s.tool("start_task", body)
            assert failed and answer["error"]["at"] == "notify.url", answer
    assert not [line for line in s.server.logs if "Traceback" in line or "INTERNAL" in line]


async def test_an_approval_presses_only_under_the_id_the_view_carries(tmp_path: Path) -> None:
    presses: list[str] = []

    async def page(request: Request) -> Response:
        return HTMLResponse(
            "<!doctype html><title>Account</title><h1>Account</h1>"
            "<form method='post' action='/del'><button>Delete account</button></form>"
        )

    async def delete(request: Request) -> Response:
        presses.append("delete")
        return HTMLResponse("<!doctype html><title>Gone</title><h1>Account deleted</h1>")

    app = Starlette(routes=[Route("/del", page), Route("/del", delete, methods=["POST"])])
    async with DemoServer(app=app) as site, served(tmp_path / "store") as s:
        flow = [{"browse": site.url + "del"}, {"click": "Delete account"}]
        ids = []
        for face in ("http", "mcp"):
            status, view = await s.call("start_task", {"flow": flow})
            _, view = await s.call("await_task", {"id": view["id"], "timeout_ms": 60_000})
            assert view["status"]["state"] == "needs_approval", view
            current = view["status"]["approval_id"]
            bare = {"id": view["id"], "approve": True}
            if face == "http":
                status, answer = await s.call("continue_task", bare)
                assert status == 422 and answer["error"]["at"] == "approval_id", answer
                status, answer = await s.call(
                    "continue_task", {**bare, "approval_id": "appr-made-up"}
                )
                assert status == 409 and answer["error"]["code"] == "APPROVAL_STALE", answer
            else:
                failed, answer = await s.tool("continue_task", bare)
                assert failed and answer["error"]["at"] == "approval_id", answer
                failed, answer = await s.tool(
                    "continue_task", {**bare, "approval_id": "appr-made-up"}
                )
                assert failed and answer["error"]["code"] == "APPROVAL_STALE", answer
            assert current not in json.dumps(answer)
            assert presses == ["delete"] * len(ids), "nothing pressed without the id"
            ids.append(view["id"])
            await s.call("continue_task", {**bare, "approval_id": current})
            _, done = await s.call("await_task", {"id": view["id"], "timeout_ms": 60_000})
            assert done["status"]["state"] == "done", done
            assert presses == ["delete"] * len(ids)
