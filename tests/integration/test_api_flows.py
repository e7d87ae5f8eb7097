"""Saved flows through the faces, over real HTTP (``/v1/flows``) and the MCP server's
own client: save, list, show, start from one, delete; each owner sees only their
own, and an unknown name is UNKNOWN_FLOW (404)."""

from __future__ import annotations

import re
from typing import Any

import httpx
from mcp import Client
from scripted_server import ScriptedServer

from gofer.api import TaskService
from gofer.api.mcp_server import McpOwners, build_mcp_server
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import gate

FLOW = {"steps": [{"browse": "https://shop.example.com/"}, {"enter": "${email}", "into": "Email"}]}


async def test_saved_flows_over_http(scripted_server: ScriptedServer) -> None:
    url = scripted_server.server.url

    def client(token: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=30
        )

    async with client(scripted_server.alice) as alice, client(scripted_server.bob) as bob:
        made = await alice.post("/v1/flows", json={"name": "news", "flow": FLOW})
        assert made.status_code == 201, made.text
        assert (made.json()["version"], made.json()["params"]) == (1, ["email"])
        again = await alice.post("/v1/flows", json={"name": "news", "flow": FLOW})
        assert again.json()["version"] == 2
        listed = (await alice.get("/v1/flows")).json()["flows"]
        assert [(f["name"], f["version"]) for f in listed] == [("news", 2)]
        assert (await alice.get("/v1/flows/news", params={"version": 1})).json()["version"] == 1

        assert (await bob.get("/v1/flows")).json()["flows"] == []
        hidden = await bob.get("/v1/flows/news")
        assert hidden.status_code == 404 and hidden.json()["error"]["code"] == "UNKNOWN_FLOW"

        started = await alice.post(
            "/v1/calls/start_task",
            json={"saved_flow": {"name": "news"}, "facts": {"email": "a@example.com"}},
        )
        assert started.status_code == 200, started.text
        done = await alice.post(
            "/v1/calls/await_task", json={"id": started.json()["id"], "timeout_ms": 10_000}
        )
        assert done.json()["status"]["state"] == "done"
        saved = await alice.post(
            "/v1/flows", json={"name": "news copy", "task_id": started.json()["id"]}
        )
        assert saved.status_code == 201 and saved.json()["from_task"] == started.json()["id"]

        gone = await alice.delete("/v1/flows/news")
        assert gone.json() == {"name": "news", "deleted": 2}
        assert (await alice.delete("/v1/flows/news")).status_code == 404


async def test_saved_flows_as_mcp_tools() -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        server = build_mcp_server(TaskService(tasks), McpOwners(None, "local"))
        async with Client(server) as client:

            async def call(tool: str, args: dict[str, Any]) -> Any:
                result = await client.call_tool(tool, args)
                assert not result.is_error, result.content
                return result.structured_content

            saved = await call("save_flow", {"name": "news", "flow": FLOW, "description": "x"})
            assert saved["params"] == ["email"]
            assert [f["name"] for f in (await call("list_flows", {}))["flows"]] == ["news"]
            assert (await call("show_flow", {"name": "news"}))["flow"] == FLOW
            view = await call("start_saved_flow", {"name": "news", "facts": {"email": "a@b.io"}})
            done = await call("await_task", {"id": view["id"]})
            assert done["status"]["state"] == "done"
            missing = await client.call_tool("show_flow", {"name": "nope"})
            assert missing.is_error and "UNKNOWN_FLOW" in str(missing.content)


async def test_the_task_page_saves_its_flow_with_the_names_it_will_ask_for(
    scripted_server: ScriptedServer,
) -> None:
    url = scripted_server.server.url
    headers = {"Authorization": f"Bearer {scripted_server.alice}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as api:
        started = await api.post(
            "/v1/calls/start_task", json={"flow": FLOW, "facts": {"email": "a@example.com"}}
        )
        task_id = started.json()["id"]
        await api.post("/v1/calls/await_task", json={"id": task_id})
    async with httpx.AsyncClient(base_url=url, timeout=30) as browser:
        signed = await browser.post("/login", data={"token": scripted_server.alice})
        assert signed.status_code == 303
        page = (await browser.get(f"/tasks/{task_id}")).text
        assert "Save this as a flow" in page
        assert "It will ask for: <code>${email}</code>." in page
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert csrf is not None
        bad = await browser.post(
            f"/tasks/{task_id}/save_flow", data={"csrf": csrf.group(1), "flow_name": "a/b"}
        )
        assert bad.headers["location"] == f"/tasks/{task_id}?problem=INVALID_REQUEST"
        saved = await browser.post(
            f"/tasks/{task_id}/save_flow",
            data={"csrf": csrf.group(1), "flow_name": "newsletter", "description": "sign up"},
        )
        assert saved.status_code == 303
        shown = (await browser.get(saved.headers["location"])).text
        assert "Saved as newsletter v1." in shown
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as api:
        kept = (await api.get("/v1/flows/newsletter")).json()
        assert (kept["from_task"], kept["params"], kept["description"]) == (
            task_id,
            ["email"],
            "sign up",
        )


async def test_an_approval_id_over_http_and_on_the_task_page(
    scripted_server: ScriptedServer,
) -> None:
    scripted_server.runner.add(gate("1", "Delete"))
    flow = [{"browse": "https://mail.example.com/"}, {"stop_before": "deleting the draft"}]
    url = scripted_server.server.url
    headers = {"Authorization": f"Bearer {scripted_server.alice}"}
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as api:
        started = (await api.post("/v1/calls/start_task", json={"flow": flow})).json()
        waiting = (await api.post("/v1/calls/await_task", json={"id": started["id"]})).json()
        status = waiting["status"]
        assert status["state"] == "needs_approval" and status["approval_id"]
        assert status["control"]["label"] == "Delete"
        stale = await api.post(
            "/v1/calls/continue_task",
            json={"id": started["id"], "approve": True, "approval_id": "appr-0"},
        )
        assert stale.status_code == 409 and stale.json()["error"]["code"] == "APPROVAL_STALE"
    async with httpx.AsyncClient(base_url=url, timeout=30) as browser:
        await browser.post("/login", data={"token": scripted_server.alice})
        page = (await browser.get(f"/tasks/{started['id']}")).text
        assert f'name="approval_id" value="{status["approval_id"]}"' in page
        csrf = re.search(r'name="csrf" value="([^"]+)"', page)
        assert csrf is not None
        approved = await browser.post(
            f"/tasks/{started['id']}/approve",
            data={"csrf": csrf.group(1), "approval_id": status["approval_id"]},
        )
        assert approved.status_code == 303
    async with httpx.AsyncClient(base_url=url, headers=headers, timeout=30) as api:
        done = (await api.post("/v1/calls/await_task", json={"id": started["id"]})).json()
        assert done["status"]["state"] == "done"
        used = await api.post(
            "/v1/calls/continue_task",
            json={"id": started["id"], "approve": True, "approval_id": status["approval_id"]},
        )
        assert used.status_code == 409 and used.json()["error"]["code"] == "APPROVAL_USED"
