"""``gofer serve`` end to end: the seeds' booking job handed to it as a flow over MCP
(the ``mcp`` package's client, over streamable HTTP and over stdio), over plain HTTP
(httpx) and through the CLI against the server.

Each caller follows ``next`` from the first view: it answers the one question the
flow leaves open (the mobile number), approves "Confirm booking" on the demo's
pay-at-the-counter variant, and goes on to the payment checkpoint of a second booking.
The site's own records judge it: one booking confirmed, the passenger's mobile number
as answered, no payment. A secret fact rides along as a canary: its value must appear
in no response, event, message or log line of the server.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
import pytest_asyncio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from gofer.cli import DEMO_FACTS, EXIT_CODES, demo_flow
from gofer.cli_remote import RUNNING_EXIT
from gofer.demo import DemoServer

from .conftest import Events
from .serve import gofer, start_serve

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

PIN = "7431-canary-pin-0xe2e"
"""A secret fact's value: it must never come back from the server."""

MOBILE = DEMO_FACTS["mobile number"]
FLIGHT = "IU639"

Call = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]


def journey(demo: DemoServer) -> dict[str, Any]:
    """Book on the pay-at-the-counter variant up to "Confirm booking", then book again
    on the ordinary site up to payment."""
    confirm = demo_flow(demo.url + "?variant=confirm")
    plain = demo_flow(demo.url + "?variant=")
    return {
        "vars": confirm["vars"],
        "steps": [
            *confirm["steps"][:-1],
            {"stop_before": "confirming the booking"},
            *plain["steps"],
        ],
    }


def start_body(demo: DemoServer) -> dict[str, Any]:
    facts = {k: v for k, v in DEMO_FACTS.items() if k != "mobile number"}
    return {
        "flow": journey(demo),
        "facts": facts | {"loyalty pin": PIN},
        "secret_facts": ["loyalty pin"],
        "constraints": {"origins": [demo.url.rstrip("/")]},
    }


async def follow_next(call: Call, view: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Do what each view's ``next`` says, as an agent new to gofer would; returns the
    view where no call but cancel or report is left, and every state passed."""
    states = [view["status"]["state"]]
    for _ in range(40):
        status, nexts = view["status"], view["next"]
        if status["state"] == "running":
            assert "await_task" in nexts
            view = await call("await_task", {"id": view["id"], "timeout_ms": 60_000})
        elif status["state"] == "needs_input":
            assert "continue_task" in nexts and status["fields"] == ["mobile number"]
            view = await call(
                "continue_task", {"id": view["id"], "inputs": {"mobile number": MOBILE}}
            )
        elif status["state"] == "needs_approval":
            assert "continue_task" in nexts and status["target"] == "Confirm booking"
            approval = {"approve": True, "approval_id": status["approval_id"]}
            view = await call("continue_task", {"id": view["id"], **approval})
        else:
            return view, states
        if states[-1] != view["status"]["state"]:
            states.append(view["status"]["state"])
    raise AssertionError(f"the task never settled: {states}")


def judge(view: dict[str, Any], states: list[str], events: Events) -> None:
    """The site's own records, and the path the views took."""
    assert view["status"]["state"] == "checkpoint", view
    assert view["status"]["location"].startswith("Pay now")
    assert states[:2] == ["needs_input", "running"] and "needs_approval" in states
    confirmed = events.of("booking_confirmed")
    assert len(confirmed) == 1 and confirmed[0]["flight"] == FLIGHT
    passengers = events.of("passengers")
    assert [p["mobile"] for p in passengers] == [MOBILE, MOBILE]
    assert events.of("payment") == []


# ------------------------------------------------------------------ the server process


@dataclass
class Serving:
    url: str
    alice: str
    bob: str
    env: dict[str, str]
    logs: list[str] = field(default_factory=list)


def server_env(root: Path) -> dict[str, str]:
    return {
        **os.environ,
        "XDG_DATA_HOME": str(root),
        "GOFER_DB": str(root / "gofer.db"),
        "GOFER_TOKENS": str(root / "tokens.db"),
        "PYTHONUNBUFFERED": "1",
    }


async def token_for(owner: str, env: dict[str, str]) -> str:
    code, out, err = await gofer("token", "create", "--owner", owner, "--json", env=env)
    assert code == 0, err
    return str(json.loads(out)["token"])


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def serving(
    tmp_path_factory: pytest.TempPathFactory, served: Callable[[str | bytes], None]
) -> AsyncIterator[Serving]:
    env = server_env(tmp_path_factory.mktemp("serve"))
    alice, bob = await token_for("alice", env), await token_for("bob", env)
    started = await start_serve(env, "--allow-private")
    proc, url, logs, draining = started.proc, started.url, started.logs, started.draining
    try:
        yield Serving(url, alice, bob, env, logs)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(30):
                await proc.wait()
        except TimeoutError:
            proc.kill()
            await proc.wait()
        await draining
        for line in logs:
            served(line)
    assert proc.returncode == 0, "".join(logs[-20:])
    assert not [line for line in logs if PIN in line]


# ------------------------------------------------------------------ the callers


async def test_over_plain_http(
    serving: Serving,
    demo: DemoServer,
    events: Events,
    served: Callable[[str | bytes], None],
    canary: Callable[[str], str],
) -> None:
    canary(PIN)
    headers = {"Authorization": f"Bearer {serving.alice}"}
    async with httpx.AsyncClient(base_url=serving.url, headers=headers, timeout=90) as http:

        async def call(name: str, body: dict[str, Any]) -> dict[str, Any]:
            response = await http.post(f"/v1/calls/{name}", json=body)
            served(response.content)
            assert response.status_code == 200, response.text
            return dict(response.json())

        first = await call("start_task", start_body(demo))
        assert first["status"] == {"state": "needs_input", "fields": ["mobile number"]}

        frames: list[str] = []

        async def watch() -> None:
            async with http.stream("GET", f"/v1/tasks/{first['id']}/events") as stream:
                async for line in stream.aiter_lines():
                    frames.append(line)
                    if line.startswith("data:") and '"checkpoint"' in line:
                        return

        watching = asyncio.create_task(watch())
        view, states = await follow_next(call, first)
        async with asyncio.timeout(30):
            await watching
        for frame in frames:
            served(frame)
        report = await http.get(f"/v1/tasks/{first['id']}/report")
        served(report.content)
        await call("cancel_task", {"id": first["id"]})
        other = await http.get(
            f"/v1/tasks/{first['id']}", headers={"Authorization": f"Bearer {serving.bob}"}
        )
        assert other.status_code == 404
    judge(view, states, events)
    assert any('"needs_approval"' in frame for frame in frames)
    assert "Indus Air" in json.dumps(report.json()["report"]["records"], ensure_ascii=False)
    assert all(PIN not in frame for frame in frames)


def mcp_caller(client: Client, served: Callable[[str | bytes], None]) -> Call:
    async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await client.call_tool(name, arguments)
        served(result.model_dump_json())
        assert not result.is_error, result.content
        assert result.structured_content is not None
        return dict(result.structured_content)

    return call


async def mcp_journey(
    client: Client, demo: DemoServer, events: Events, served: Callable[[str | bytes], None]
) -> None:
    tools = {tool.name for tool in (await client.list_tools()).tools}
    assert {"describe", "start_task", "await_task", "continue_task"} <= tools
    call = mcp_caller(client, served)
    first = await call("start_task", start_body(demo))
    assert first["task_status"] == "input_required"
    view, states = await follow_next(call, first)
    judge(view, states, events)
    assert view["task_status"] == "completed"
    assert view["page_url"].endswith(f"/tasks/{view['id']}")
    report = await call("task_report", {"id": view["id"]})
    assert "Indus Air" in json.dumps(report["records"], ensure_ascii=False)
    await call("cancel_task", {"id": view["id"]})


async def test_over_mcp_streamable_http(
    serving: Serving,
    demo: DemoServer,
    events: Events,
    served: Callable[[str | bytes], None],
    canary: Callable[[str], str],
) -> None:
    canary(PIN)
    http = httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {serving.alice}"},
        timeout=httpx2.Timeout(30.0, read=120.0),
    )
    async with (
        http,
        Client(streamable_http_client(f"{serving.url}/mcp", http_client=http)) as client,
    ):
        await mcp_journey(client, demo, events, served)


async def test_over_mcp_stdio(
    tmp_path: Path,
    demo: DemoServer,
    events: Events,
    served: Callable[[str | bytes], None],
    canary: Callable[[str], str],
) -> None:
    canary(PIN)
    env = server_env(tmp_path)
    log = tmp_path / "stderr.log"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "gofer.cli", "serve", "--stdio", "--port", "0", "--allow-private"],
        env=env,
    )
    with log.open("w") as errlog:
        async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=120) as client:
            await mcp_journey(client, demo, events, served)
    text = log.read_text()
    served(text)
    assert "gofer serving on" in text and PIN not in text


async def test_through_the_cli(
    serving: Serving,
    demo: DemoServer,
    events: Events,
    tmp_path: Path,
    served: Callable[[str | bytes], None],
    canary: Callable[[str], str],
) -> None:
    canary(PIN)
    env = serving.env | {"GOFER_SERVER": serving.url, "GOFER_TOKEN": serving.alice}
    body = start_body(demo)
    flow = tmp_path / "flow.json"
    flow.write_text(json.dumps(body["flow"]), encoding="utf-8")
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps(body["facts"]), encoding="utf-8")

    async def run(*args: str) -> dict[str, Any]:
        code, out, err = await gofer(*args, "--json", env=env)
        served(out)
        served(err)
        view = json.loads(out.strip().splitlines()[-1])
        state = view.get("status", {}).get("state", "")
        if args[0] in ("start", "await"):
            expected = RUNNING_EXIT if state == "running" else EXIT_CODES[state]
        else:
            expected = 0
        assert code == expected, (out, err)
        return dict(view)

    async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        task_id = arguments["id"]
        if name == "await_task":
            return await run("await", task_id)
        if "approve" in arguments:
            return await run(
                "continue", task_id, "--approve", "--approval-id", arguments["approval_id"]
            )
        inputs = [f"--input={k}={v}" for k, v in arguments["inputs"].items()]
        return await run("continue", task_id, *inputs)

    first = await run(
        "start",
        str(flow),
        "--facts",
        str(facts),
        "--secret",
        "loyalty pin",
        "--origin",
        demo.url.rstrip("/"),
        "--title",
        "Two bookings",
    )
    view, states = await follow_next(call, first)
    judge(view, states, events)
    listed = await run("list")
    assert [t["id"] for t in listed["tasks"]][-1] == view["id"]
    report = await run("report", view["id"])
    assert "Indus Air" in json.dumps(report["records"], ensure_ascii=False)
    cancelled = await run("cancel", view["id"])
    assert cancelled["status"]["state"] == "checkpoint" and cancelled["status"]["released"]
