"""One real ``gofer serve`` for the hardening tests (issue 29), with a token for
alice, and both faces over it: plain HTTP (``/v1/calls/...``) and MCP (streamable
HTTP, the official client). Every call gives back the status code and the JSON body,
so a test asks one question of both faces; :meth:`Served.leaked` looks for canaries
in the server's log and every store file (the SQLite file and its WAL)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from .serve import Started, gofer, start_serve


@dataclass
class Served:
    """A running server, alice's clients and where it keeps its files."""

    server: Started
    root: Path
    env: dict[str, str]
    http: httpx.AsyncClient
    mcp: Client

    async def call(self, name: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """``POST /v1/calls/<name>``: the status code and the JSON body."""
        answer = await self.http.post(f"/v1/calls/{name}", json=body)
        return answer.status_code, answer.json()

    async def tool(self, name: str, body: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        """The MCP tool ``name``: whether it is an error, and its JSON."""
        result = await self.mcp.call_tool(name, body)
        if result.is_error:
            (content,) = result.content
            return True, json.loads(content.text)  # type: ignore[union-attr]
        assert result.structured_content is not None
        return False, dict(result.structured_content)

    def stored(self) -> bytes:
        """Every byte of every file the server keeps (the store, its WAL, tokens)."""
        return b"".join(p.read_bytes() for p in self.root.rglob("*") if p.is_file())

    def leaked(self, *canaries: str) -> list[str]:
        """The canaries found in the server's log or its files."""
        log = "".join(self.server.logs)
        files = self.stored()
        return [c for c in canaries if c in log or c.encode() in files]


def serve_env(root: Path) -> dict[str, str]:
    """The environment of a server whose files all sit under ``root``."""
    return {
        **os.environ,
        "XDG_DATA_HOME": str(root),
        "GOFER_DB": str(root / "gofer.db"),
        "GOFER_TOKENS": str(root / "tokens.db"),
        "PYTHONUNBUFFERED": "1",
    }


@asynccontextmanager
async def served(
    root: Path, *args: str, env: dict[str, str] | None = None
) -> AsyncIterator[Served]:
    """``gofer serve --allow-private ARGS`` on a store under ``root``, and alice's
    clients; stopped with SIGTERM at the end (it must exit 0)."""
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    base = serve_env(root) | (env or {})
    code, out, err = await gofer("token", "create", "--owner", "alice", "--json", env=base)
    assert code == 0, err
    token = json.loads(out)["token"]
    headers = {"Authorization": f"Bearer {token}"}
    server = await start_serve(base, "--allow-private", *args, own_session=True)
    http2 = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0, read=120.0))
    try:
        async with (
            httpx.AsyncClient(base_url=server.url, headers=headers, timeout=120) as http,
            http2,
            Client(streamable_http_client(f"{server.url}/mcp", http_client=http2)) as mcp,
        ):
            yield Served(server, root, base, http, mcp)
    finally:
        if server.proc.returncode is None:
            server.proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(60):
            await server.proc.wait()
        await server.draining
    assert server.proc.returncode == 0, "".join(server.logs[-30:])
