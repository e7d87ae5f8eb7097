"""What a caller can make a real ``gofer serve``'s browser reach, with the operator's
default settings, over HTTP and MCP: no local files, no ``chrome://`` pages, no loopback
service (BLOCKED_ADDRESS, before anything loads) and no browser endpoint of their own."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
import pytest_asyncio
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from .serve import start_serve
from .test_api_serve import server_env, token_for

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@dataclass
class Served:
    url: str
    token: str


@pytest.fixture
def internal() -> Iterator[tuple[str, list[str]]]:
    """A service on loopback that records every path asked of it."""
    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            hits.append(self.path)
            body = b"<h1>internal secrets</h1>"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", hits
    server.shutdown()
    server.server_close()


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def serving(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Served]:
    env = server_env(tmp_path_factory.mktemp("reach"))
    token = await token_for("alice", env)
    started = await start_serve(env)  # the operator's defaults: no --allow-private
    try:
        yield Served(started.url, token)
    finally:
        started.proc.send_signal(signal.SIGTERM)
        try:
            async with asyncio.timeout(30):
                await started.proc.wait()
        except TimeoutError:
            started.proc.kill()
            await started.proc.wait()
        await started.draining


def flow_to(address: str, facts: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "flow": {"steps": [{"browse": address}, {"read": "the page", "as": "content"}]},
        "facts": facts or {},
    }


async def test_over_http_no_file_chrome_page_or_loopback(
    serving: Served, internal: tuple[str, list[str]], tmp_path: Path
) -> None:
    marker = tmp_path / "marker.txt"
    marker.write_text("FILE MARKER CONTENT")
    address, hits = internal
    headers = {"Authorization": f"Bearer {serving.token}"}
    async with httpx.AsyncClient(base_url=serving.url, headers=headers, timeout=90) as http:
        for body in (
            flow_to("${u}", {"u": marker.as_uri()}),
            flow_to("${u}", {"u": "chrome://version"}),
            flow_to(address + "/openapi.json"),
            flow_to("${u}", {"u": "http://169.254.169.254/latest/meta-data/"}),
        ):
            started = await http.post("/v1/calls/start_task", json=body)
            assert started.status_code == 200, started.text
            task = started.json()["id"]
            done = await http.post("/v1/calls/await_task", json={"id": task})
            view = done.json()
            assert view["status"]["state"] == "failed", view
            assert "BLOCKED_ADDRESS" in json.dumps(view), view
            report = (await http.get(f"/v1/tasks/{task}/report")).text
            assert "FILE MARKER CONTENT" not in report and "internal secrets" not in report
            assert "Command Line" not in report
        assert hits == []
        refused = await http.post(
            "/v1/calls/start_task",
            json={**flow_to(address), "constraints": {"browser_endpoint": address}},
        )
        assert refused.status_code == 422
        assert refused.json()["error"]["code"] == "BROWSER_ENDPOINT_REFUSED"
        assert hits == []


async def test_over_mcp_no_loopback(serving: Served, internal: tuple[str, list[str]]) -> None:
    address, hits = internal
    http = httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {serving.token}"},
        timeout=httpx2.Timeout(30.0, read=120.0),
    )
    async with (
        http,
        Client(streamable_http_client(f"{serving.url}/mcp", http_client=http)) as client,
    ):
        started = await client.call_tool("start_task", flow_to(address + "/"))
        assert not started.is_error, started.content
        assert started.structured_content is not None
        task = started.structured_content["id"]
        done = await client.call_tool("await_task", {"id": task})
        assert done.structured_content is not None
        # a failed step is recoverable: over MCP that reads input_required
        assert done.structured_content["task_status"] == "input_required"
        assert "BLOCKED_ADDRESS" in done.model_dump_json()
    assert hits == []
