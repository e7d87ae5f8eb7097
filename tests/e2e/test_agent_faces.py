"""An agent's first five minutes, against a real ``gofer serve`` process: the README's
MCP configurations used as written (stdio and streamable HTTP, the official ``mcp``
client), plain HTTP (httpx), the README's curl lines and the CLI as a subprocess.

Each face gets the same: a brief ``describe`` of at most 12 KB that is enough to
write a flow; errors an agent can parse (one JSON body with a code and the place at
fault, the same code for the same bad argument on every face); the demo booking run
to its payment checkpoint, which releasing the browser keeps a checkpoint.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
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
from gofer.demo import DemoServer
from gofer.flow import validate_flow

from .conftest import Events
from .serve import gofer, start_serve

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

README = Path(__file__).resolve().parents[2] / "README.md"
BRIEF_MAX = 12 * 1024
BIN = Path(sys.executable).parent

Call = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]


def snippet(label: str) -> str:
    """The README block fenced as ```<label>."""
    (block,) = re.findall(rf"```{label}\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    return str(block)


@dataclass
class Serving:
    url: str
    token: str
    env: dict[str, str]


def server_env(root: Path) -> dict[str, str]:
    return {
        **os.environ,
        "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        "XDG_DATA_HOME": str(root),
        "GOFER_DB": str(root / "gofer.db"),
        "GOFER_TOKENS": str(root / "tokens.db"),
        "PYTHONUNBUFFERED": "1",
    }


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def serving(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Serving]:
    env = server_env(tmp_path_factory.mktemp("agent-faces"))
    code, out, err = await gofer("token", "create", "--owner", "me", "--json", env=env)
    assert code == 0, err
    started = await start_serve(env, "--allow-private")
    try:
        yield Serving(started.url, json.loads(out)["token"], env)
    finally:
        started.proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):
            await started.proc.wait()
        await started.draining
    assert started.proc.returncode == 0, "".join(started.logs[-20:])


def booking(demo: DemoServer) -> dict[str, Any]:
    return {
        "flow": demo_flow(demo.url),
        "facts": DEMO_FACTS,
        "constraints": {"origins": [demo.url.rstrip("/")]},
    }


async def to_checkpoint(call: Call, demo: DemoServer, events: Events) -> dict[str, Any]:
    """Start the demo booking and follow ``next`` to its payment checkpoint."""
    view = await call("start_task", booking(demo))
    for _ in range(20):
        if view["status"]["state"] != "running":
            break
        assert "await_task" in view["next"] and view["guidance"]
        view = await call("await_task", {"id": view["id"], "timeout_ms": 60_000})
    assert view["status"]["state"] == "checkpoint", view
    assert view["status"]["location"].startswith("Pay now")
    assert view["next"] == ["cancel_task", "task_report"]
    assert "cancel_task" in view["guidance"] and "Page data" in view["guidance"]
    assert events.of("payment") == []
    return view


def released(view: dict[str, Any]) -> None:
    """A view of the booking once its browser was let go: still its checkpoint."""
    status = view["status"]
    assert status["state"] == "checkpoint" and status["released"] is True, view
    assert status["location"].startswith("Pay now")
    assert view["next"] == ["task_report"]


def mcp_call(client: Client) -> Call:
    async def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await client.call_tool(name, arguments)
        assert not result.is_error, result.content
        assert result.structured_content is not None
        return dict(result.structured_content)

    return call


BAD: list[tuple[str, dict[str, Any], str, str | None]] = [
    ("await_task", {"id": "task-nobody-has"}, "UNKNOWN_TASK", None),
    ("await_task", {"id": "x", "timeout_ms": -5}, "INVALID_REQUEST", "timeout_ms"),
    ("await_task", {"id": "x", "timeout_ms": "soon"}, "INVALID_REQUEST", "timeout_ms"),
    ("list_tasks", {"limit": 100_000}, "INVALID_REQUEST", "limit"),
    ("list_tasks", {"limit": True}, "INVALID_REQUEST", "limit"),
    ("describe", {"detail": "everything"}, "INVALID_REQUEST", "detail"),
    ("start_task", {"flow": [{"fly": "away"}]}, "INVALID_FLOW", "flow.steps.0.fly"),
    ("continue_task", {"id": "x", "approve": "maybe"}, "INVALID_REQUEST", "approve"),
]
"""Bad calls an agent makes, the code each gets on every face, and where (``at``)."""


async def mcp_errors(client: Client) -> dict[str, tuple[str, str | None]]:
    """Every bad call over MCP: each a result with isError whose text is JSON alone."""
    seen: dict[str, tuple[str, str | None]] = {}
    for tool, arguments, _code, _at in BAD:
        result = await client.call_tool(tool, arguments)
        assert result.is_error, (tool, arguments)
        (content,) = result.content
        body = json.loads(content.text)  # type: ignore[union-attr]
        error = body["error"]
        assert {"code", "message", "hint", "at"} <= set(error), body
        seen[f"{tool} {json.dumps(arguments)}"] = (error["code"], error["at"])
    unknown = await client.call_tool("book_a_flight", {})
    assert unknown.is_error
    assert json.loads(unknown.content[0].text)["error"]["code"] == "NOT_FOUND"  # type: ignore[union-attr]
    return seen


def expected_errors() -> dict[str, tuple[str, str | None]]:
    return {f"{tool} {json.dumps(args)}": (code, at) for tool, args, code, at in BAD}


# ------------------------------------------------------------------ describe


def flow_from(brief: dict[str, Any]) -> list[dict[str, Any]]:
    """A flow an agent writes from the brief alone: the kinds' own examples, in order,
    for the browser."""
    kinds = {kind["name"]: kind for kind in brief["step_kinds"]}
    assert "fields" not in kinds["click"]
    return [dict(k["example"]) for name, k in kinds.items() if name not in ("open", "do")]


async def test_describe_is_a_brief_of_at_most_12_kb_on_every_face(serving: Serving) -> None:
    headers = {"Authorization": f"Bearer {serving.token}"}
    async with httpx.AsyncClient(base_url=serving.url, headers=headers, timeout=30) as http:
        plain = await http.post("/v1/calls/describe")
        full = await http.post("/v1/calls/describe", json={"detail": "full"})
    assert plain.status_code == 200 and len(plain.content) <= BRIEF_MAX, len(plain.content)
    assert len(full.content) > 4 * len(plain.content)
    brief = plain.json()
    assert set(brief["call_summaries"]) >= {"start_task", "await_task", "cancel_task"}
    rules = " ".join(brief["rules"])
    assert "secret" in rules and "checkpoint" in rules and "next" in rules
    assert brief["surfaces"]["browser"]["available"] is True

    flow = flow_from(brief)
    parsed, check = validate_flow(flow, facts=["email"])
    assert parsed is not None and check.ok, check.to_dict()

    http2 = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=60.0))
    async with (
        http2,
        Client(streamable_http_client(f"{serving.url}/mcp", http_client=http2)) as client,
    ):
        result = await client.call_tool("describe", {})
        text = result.content[0].text  # type: ignore[union-attr]
        structured = json.dumps(result.structured_content, ensure_ascii=False)
        assert len(text.encode()) + len(structured.encode()) <= BRIEF_MAX
        assert json.loads(text) == result.structured_content
        assert result.structured_content is not None
        assert result.structured_content["rules"] == brief["rules"]
        section = await client.call_tool("describe", {"detail": "flow"})
        assert section.structured_content and section.structured_content["guide"]

    (code, out, err), (code_json, out_json, err_json) = await asyncio.gather(
        gofer("describe", env=serving.env), gofer("describe", "--json", env=serving.env)
    )
    assert code == 0, err
    assert len(out.encode()) <= BRIEF_MAX and "stop_before" in out
    assert code_json == 0, err_json
    assert len(out_json.encode()) <= BRIEF_MAX
    assert json.loads(out_json)["rules"] == brief["rules"]


# ------------------------------------------------------------------ the README's snippets


async def test_the_readme_stdio_config_books_to_the_checkpoint_and_errors_parse(
    tmp_path: Path, demo: DemoServer, events: Events
) -> None:
    config = json.loads(snippet("json mcp-stdio"))["mcpServers"]["gofer"]
    env = server_env(tmp_path) | config.get("env", {})
    env |= {"GOFER_DB": str(tmp_path / "stdio.db"), "GOFER_ALLOW_PRIVATE": "1"}
    params = StdioServerParameters(command=config["command"], args=config["args"], env=env)
    log = tmp_path / "stderr.log"
    with log.open("w") as errlog:
        async with Client(stdio_client(params, errlog=errlog), read_timeout_seconds=120) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            flow = tools["start_task"].input_schema["properties"]["flow"]
            assert "step_click" in tools["start_task"].input_schema["$defs"]
            assert any(option.get("$ref") == "#/$defs/top_steps" for option in flow["anyOf"])
            for tool in tools.values():
                assert tool.description and len(tool.description) > 60, tool.name
            call = mcp_call(client)
            brief = await call("describe", {})
            assert set(tools) <= set(brief["call_summaries"])
            view = await to_checkpoint(call, demo, events)
            assert view["page_url"] is None  # no HTTP port was opened
            let_go = await call("cancel_task", {"id": view["id"]})
            released(let_go)
            assert let_go["task_status"] == "completed" and "released" in let_go["guidance"]
            released(await call("await_task", {"id": view["id"], "timeout_ms": 999_999}))
            assert await mcp_errors(client) == expected_errors()
    text = log.read_text()
    assert "no HTTP port" in text and "gofer serving on http" not in text


async def test_the_readme_http_config_books_to_the_checkpoint_on_every_face(
    serving: Serving, demo: DemoServer, events: Events
) -> None:
    config = json.loads(snippet("json mcp-http"))["mcpServers"]["gofer"]
    assert config["type"] == "http"
    url = config["url"].replace("http://127.0.0.1:8700", serving.url)
    headers = {k: v.replace("YOUR_TOKEN", serving.token) for k, v in config["headers"].items()}
    http2 = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=120.0))
    async with http2, Client(streamable_http_client(url, http_client=http2)) as client:
        mcp = mcp_call(client)
        view = await to_checkpoint(mcp, demo, events)
        assert view["page_url"] == f"{serving.url}/tasks/{view['id']}"
        mcp_seen = await mcp_errors(client)

        cli_env = serving.env | {"GOFER_SERVER": serving.url, "GOFER_TOKEN": serving.token}
        code, out, err = await gofer("cancel", view["id"], "--json", env=cli_env)
        assert code == 0, err
        released(json.loads(out))
        code, out, err = await gofer("await", view["id"], "--json", env=cli_env)
        assert code == EXIT_CODES["checkpoint"], err
        released(json.loads(out))
        released(await mcp("await_task", {"id": view["id"], "timeout_ms": 999_999}))

    async with httpx.AsyncClient(base_url=serving.url, headers=headers, timeout=90) as http:
        answer = await http.post(
            "/v1/calls/await_task", json={"id": view["id"], "timeout_ms": 999_999}
        )
        assert answer.status_code == 200, answer.text
        viewed = answer.json()
        released(viewed)
        assert viewed["page_url"] == view["page_url"] and "released" in viewed["guidance"]
        http_seen: dict[str, tuple[str, str | None]] = {}
        for tool, arguments, _code, _at in BAD:
            response = await http.post(f"/v1/calls/{tool}", json=arguments)
            assert response.status_code >= 400
            error = response.json()["error"]
            assert {"code", "message", "hint", "at"} <= set(error)
            http_seen[f"{tool} {json.dumps(arguments)}"] = (error["code"], error["at"])
    assert http_seen == mcp_seen == expected_errors()


async def test_the_readme_curl_lines_describe_start_and_await(
    serving: Serving, demo: DemoServer, tmp_path: Path
) -> None:
    script = snippet("sh curl")
    script = script.replace("http://127.0.0.1:8700", serving.url)
    script = script.replace("YOUR_TOKEN", serving.token)
    (tmp_path / "flow.json").write_text(json.dumps(booking(demo)), encoding="utf-8")
    proc = await asyncio.create_subprocess_exec(
        "bash",
        "-euc",
        script,
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    async with asyncio.timeout(120):
        out, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()
    decoder = json.JSONDecoder()
    text, replies = out.decode().strip(), []
    while text:
        value, end = decoder.raw_decode(text)
        replies.append(value)
        text = text[end:].strip()
    described, awaited = replies
    assert len(json.dumps(described)) <= BRIEF_MAX and "rules" in described
    assert awaited["status"]["state"] in ("running", "checkpoint") and awaited["guidance"]
    async with httpx.AsyncClient(
        base_url=serving.url, headers={"Authorization": f"Bearer {serving.token}"}
    ) as http:
        await http.post("/v1/calls/cancel_task", json={"id": awaited["id"]})


# ------------------------------------------------------------------ the command


async def test_demo_site_on_port_0_prints_the_port_it_bound() -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gofer.cli",
        "demo-site",
        "--port",
        "0",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        stdin=asyncio.subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    try:
        async with asyncio.timeout(30):
            line = (await proc.stdout.readline()).decode()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found and found.group(1) != "0", line
        async with httpx.AsyncClient() as http:
            assert (await http.get(found.group(0))).status_code == 200
    finally:
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):
            await proc.wait()
    assert proc.returncode == 0
