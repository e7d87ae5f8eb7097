"""Shared fixtures for real-browser tests: one browser engine, tiny local web sites."""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import pytest_asyncio
from scripted_server import ScriptedServer
from worker_process import Worker, spawn

from gofer.api import GoferServer, MemoryTokenStore
from gofer.surfaces import OPERATOR, BrowserEngine
from gofer.tasks import ScriptedRunner, Tasks


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def engine() -> AsyncIterator[BrowserEngine]:
    """One Chromium for the whole test session (tests must use the session loop); the
    sites are on loopback, so the operator allows private addresses."""
    async with BrowserEngine(policy=OPERATOR) as eng:
        yield eng


@dataclass
class Page:
    """What a :class:`Site` answers for one path."""

    body: bytes
    content_type: str = "text/html; charset=utf-8"
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    status: int = 200


class Site:
    """A local HTTP server on 127.0.0.1 serving pages given to it with :meth:`add`.

    A page body may hold ``{cookie}``, replaced by the request's Cookie header.
    ``hits`` lists every path requested, in order.
    """

    def __init__(self) -> None:
        self.pages: dict[str, Page] = {}
        self.hits: list[str] = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                site.hits.append(path)
                page = site.pages.get(path)
                if page is None:
                    self.send_error(404)
                    return
                if page.delay_s:
                    time.sleep(page.delay_s)  # a slow server, on the server's own thread
                body = page.body.replace(
                    b"{cookie}", (self.headers.get("Cookie") or "none").encode()
                )
                self.send_response(page.status)
                self.send_header("Content-Type", page.content_type)
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                for name, value in page.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        self.origin = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def add(
        self,
        path: str,
        body: str | bytes,
        *,
        content_type: str = "text/html; charset=utf-8",
        delay_s: float = 0.0,
        headers: dict[str, str] | None = None,
        status: int = 200,
    ) -> str:
        """Serve ``body`` at ``path`` (with ``status``); returns the page's full address."""
        data = body.encode() if isinstance(body, str) else body
        self.pages[path] = Page(data, content_type, delay_s, dict(headers or {}), status)
        return self.url(path)

    def url(self, path: str) -> str:
        """The full address of ``path`` on this site."""
        return self.origin + path

    def close(self) -> None:
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=5)


@pytest.fixture
def make_site() -> Iterator[Callable[[], Site]]:
    """A factory of local sites (each on its own port), all stopped after the test."""
    sites: list[Site] = []

    def make() -> Site:
        site = Site()
        sites.append(site)
        return site

    yield make
    for site in sites:
        site.close()


@pytest.fixture
def site(make_site: Callable[[], Site]) -> Site:
    """One local site."""
    return make_site()


@pytest.fixture(scope="module")
def module_site() -> Iterator[Site]:
    """One local site shared by the tests of a module."""
    site = Site()
    yield site
    site.close()


@pytest_asyncio.fixture
async def scripted_server(served: Callable[[str | bytes], None]) -> AsyncIterator[ScriptedServer]:
    """A :class:`ScriptedServer`; every body it sends goes to the suite's canary check."""
    tokens = MemoryTokenStore()
    alice, bob = (await tokens.create("alice")).token, (await tokens.create("bob")).token
    runner = ScriptedRunner()
    bodies: list[bytes] = []

    def observe(body: bytes) -> None:
        bodies.append(body)
        served(body)

    async with Tasks(runner) as tasks, GoferServer(tasks, tokens, observe=observe) as srv:
        yield ScriptedServer(srv, runner, tokens, alice, bob, bodies)


@pytest_asyncio.fixture
async def workers() -> AsyncIterator[Callable[..., Awaitable[Worker]]]:
    """Starts worker processes of ``tasks_worker.py`` (its ``spawn``'s arguments); each
    still running at the test's end is killed, whatever the test did."""
    started: list[Worker] = []

    async def start(*args: Any, **kwargs: Any) -> Worker:
        worker = await spawn(*args, **kwargs)
        started.append(worker)
        return worker

    yield start
    for worker in started:
        await worker.close()
