"""``GoferServer``: the HTTP API and the MCP server (streamable HTTP at ``/mcp``, and
stdio on demand) over one controller, in one process.

    async with GoferServer(tasks, tokens, port=8700) as server:
        print(server.url)
        await server.stopped.wait()      # until stop() or a signal handler sets it

The controller and the token store are the caller's; the server opens and closes
only what it made (the service, the MCP session manager, the listening socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from types import TracebackType

from mcp.server.mcpserver import MCPServer
from starlette.types import ASGIApp, Receive, Scope, Send

from gofer.api.hardening import Contained, NoStore
from gofer.api.http import Observed, Observer, create_app
from gofer.api.idempotency import Idempotency
from gofer.api.limits import MAX_BODY_BYTES, BodyLimit
from gofer.api.live_view import live_address
from gofer.api.mcp_server import McpOwners, build_mcp_server
from gofer.api.page_auth import PageSessions
from gofer.api.pages import PageSite, TakeOver
from gofer.api.service import TaskService
from gofer.api.tokens import TokenStore, bearer_owner
from gofer.api.types import Controller
from gofer.errors import ApiError
from gofer.serving import Listening
from gofer.store import Connector

__all__ = ["MCP_PATH", "GoferServer"]

log = logging.getLogger("gofer.api")

MCP_PATH = "/mcp"
"""Where the MCP server listens over streamable HTTP."""


class _McpGate:
    """Streamable-HTTP MCP requests need a bearer token some owner holds."""

    def __init__(self, app: ASGIApp, tokens: TokenStore) -> None:
        self.app = app
        self.tokens = tokens

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            header = dict(scope.get("headers", [])).get(b"authorization", b"").decode("latin-1")
            try:
                found = await bearer_owner(self.tokens, header)
            except ApiError:
                found = None
            if found is None:
                error = ApiError(
                    "the MCP endpoint needs `Authorization: Bearer <token>`", code="UNAUTHORIZED"
                )
                body = json.dumps({"error": error.to_dict()}).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b"Bearer"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


class _Split:
    """``/mcp`` to the MCP app, everything else to the HTTP API."""

    def __init__(self, api: ASGIApp, mcp: ASGIApp) -> None:
        self.api = api
        self.mcp = mcp

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "") if scope["type"] in ("http", "websocket") else ""
        if path == MCP_PATH or path.startswith(MCP_PATH + "/"):
            await self.mcp(scope, receive, send)
        else:
            await self.api(scope, receive, send)


class GoferServer:
    """The HTTP API and MCP over ``controller``, on ``host:port`` (0: a free port).

    ``public_url`` is the address people reach the server at (task pages are under
    it; default: the listening address). ``local_owner`` is who MCP over stdio acts
    for. ``observe`` sees every response body sent (for canary tests). ``store`` keeps
    the idempotency keys (the controller's store, so they outlive a restart; in
    memory without). ``take_over`` names a task's live view, linked from its page while
    it holds its browser (this server's own, :mod:`gofer.api.live_view`, by default; None
    for none). ``listen=False`` opens no HTTP port (MCP over stdio only).
    People sign in to the task pages with the same tokens (``sessions``).
    """

    def __init__(
        self,
        controller: Controller,
        tokens: TokenStore,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        public_url: str | None = None,
        local_owner: str | None = None,
        max_body_bytes: int = MAX_BODY_BYTES,
        observe: Observer | None = None,
        graceful_s: float = 5.0,
        take_over: TakeOver | None = live_address,
        store: Connector | None = None,
        listen: bool = True,
    ) -> None:
        self.controller = controller
        self.tokens = tokens
        self.service = TaskService(controller, idempotency=Idempotency(store))
        self._public = public_url.rstrip("/") if public_url else None
        self._listening: Listening | None = None
        self._host = host
        self._port = port
        self._graceful = graceful_s
        self._listen = listen
        # Two servers, two ways to name an owner: over HTTP only a bearer token does
        # (never a default owner); over stdio, the person who started the process.
        self.mcp: MCPServer = build_mcp_server(
            self.service, McpOwners(tokens), page_url=self.page_url
        )
        self.mcp_stdio: MCPServer = build_mcp_server(
            self.service,
            McpOwners(None, local_owner),
            page_url=self.page_url if listen or self._public else None,
        )
        mcp_http = self.mcp.streamable_http_app(
            streamable_http_path=MCP_PATH,
            stateless_http=True,
            host=host,
            max_request_body_size=max_body_bytes,
        )
        self.sessions = PageSessions(tokens)
        self.pages = PageSite(
            self.service,
            self.sessions,
            take_over=take_over,
            secure=bool(self._public and self._public.startswith("https:")),
        )
        api = create_app(
            self.service,
            tokens,
            max_body_bytes=max_body_bytes,
            observe=observe,
            pages=self.pages,
            page_url=self.page_url,
        )
        mcp_app: ASGIApp = _McpGate(mcp_http, tokens)
        if observe is not None:
            mcp_app = Observed(mcp_app, observe)
        self.app: ASGIApp = Contained(_Split(api, NoStore(BodyLimit(mcp_app, max_body_bytes))))
        self.stopped = asyncio.Event()
        self._mcp_done = asyncio.Event()
        self._mcp_task: asyncio.Task[None] | None = None
        self._exit = contextlib.AsyncExitStack()

    @property
    def url(self) -> str:
        """Where the server listens, ``http://HOST:PORT``."""
        if self._listening is None:
            raise ApiError("the server is not listening", code="NOT_LISTENING")
        return self._listening.url

    def page_url(self, task_id: str) -> str:
        """A task's page for a person."""
        base = self._public or (self._listening.url if self._listening else "")
        return f"{base}/tasks/{task_id}"

    async def _run_mcp(self, ready: asyncio.Event) -> None:
        # The session manager's task group must be entered and left in one task.
        async with self.mcp.session_manager.run():
            ready.set()
            await self._mcp_done.wait()

    async def _stop_mcp(self) -> None:
        self._mcp_done.set()
        if self._mcp_task is not None:
            await self._mcp_task

    async def start(self) -> None:
        """Start the MCP session manager and listen."""
        ready = asyncio.Event()
        self._mcp_task = asyncio.create_task(self._run_mcp(ready), name="gofer-mcp-sessions")
        self._exit.push_async_callback(self._stop_mcp)
        try:
            waiting = asyncio.create_task(ready.wait())
            await asyncio.wait({waiting, self._mcp_task}, return_when=asyncio.FIRST_COMPLETED)
            if not ready.is_set():
                waiting.cancel()
                await self._mcp_task  # raises what stopped it
            if self._listen:
                self._listening = await self._exit.enter_async_context(
                    Listening(self.app, host=self._host, port=self._port, graceful_s=self._graceful)
                )
        except BaseException:
            await self._exit.aclose()
            raise
        if self._listening is not None:
            log.info("gofer serving on %s", self._listening.url)

    async def run_stdio(self) -> None:
        """Serve MCP on this process's standard input and output until it closes."""
        await self.mcp_stdio.run_stdio_async()

    def stop(self) -> None:
        """Ask the server to stop; ``stopped`` is set (idempotent, safe from a signal)."""
        self.stopped.set()

    async def aclose(self) -> None:
        """Stop listening (idempotent)."""
        self.stopped.set()
        await self._exit.aclose()

    async def __aenter__(self) -> GoferServer:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
