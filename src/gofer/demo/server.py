"""Running the demo site: inside the caller's event loop, or as a blocking command."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Iterator
from datetime import date
from types import TracebackType
from typing import Any

import uvicorn
from starlette.applications import Starlette

from gofer.demo.app import create_app, demo_state
from gofer.demo.state import DemoState
from gofer.errors import GoferError

__all__ = ["DemoServer", "DemoSiteError", "serve"]


class DemoSiteError(GoferError):
    """The demo site could not start or stopped unexpectedly."""

    code = "DEMO_SITE_FAILED"


class _EmbeddedServer(uvicorn.Server):
    """A uvicorn server that tells when it listens and leaves signal handling to its host."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = asyncio.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        self.ready.set()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class DemoServer:
    """The demo site served on 127.0.0.1 in the current event loop.

    ``async with DemoServer(seed=7) as site:`` starts it on a free port (``port=0``);
    ``site.url`` is ``http://127.0.0.1:PORT/`` and ``site.events`` lists what the
    site recorded (``{"kind": "payment", ...}`` when "Pay now" was pressed).
    """

    def __init__(
        self,
        *,
        seed: int = 7,
        today: date | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        app: Starlette | None = None,
    ) -> None:
        self.app = app if app is not None else create_app(seed, today=today)
        self.host = host
        self.port = port
        self._server: _EmbeddedServer | None = None
        self._task: asyncio.Task[None] | None = None
        self._socket: socket.socket | None = None

    @property
    def url(self) -> str:
        """The site's home page address, ``http://127.0.0.1:PORT/``."""
        if self._socket is None:
            raise DemoSiteError("the demo site is not running", url=None)
        return f"http://{self.host}:{self.port}/"

    @property
    def state(self) -> DemoState:
        """Everything the site remembers (events, the one-time code)."""
        return demo_state(self.app)

    @property
    def events(self) -> list[dict[str, Any]]:
        """A copy of the events the site recorded, oldest first."""
        return [dict(event) for event in self.state.events]

    @property
    def otp_code(self) -> str:
        """The one-time code the ``otp`` variant expects."""
        return self.state.otp_code

    def events_of(self, kind: str) -> list[dict[str, Any]]:
        """The recorded events of one kind (``"payment"``, ``"passengers"``, ...)."""
        return [dict(event) for event in self.state.of_kind(kind)]

    async def start(self) -> None:
        """Bind the port and wait until the site accepts connections."""
        try:
            sock = socket.create_server((self.host, self.port), reuse_port=False)
        except OSError as exc:
            raise DemoSiteError(
                f"cannot listen on {self.host}:{self.port}: {exc.strerror}",
                host=self.host,
                port=self.port,
            ) from exc
        self._socket = sock
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app, log_level="warning", lifespan="off", timeout_graceful_shutdown=5
        )
        self._server = _EmbeddedServer(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]))
        ready = asyncio.create_task(self._server.ready.wait())
        await asyncio.wait({ready, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            error = self._task.exception() if not self._task.cancelled() else None
            self._socket = None
            raise DemoSiteError("the demo site stopped while starting", port=self.port) from error

    async def stop(self) -> None:
        """Stop serving and wait for the server to finish."""
        if self._server is None or self._task is None:
            return
        self._server.should_exit = True
        try:
            await self._task
        finally:
            self._server = None
            self._task = None
            self._socket = None

    async def __aenter__(self) -> DemoServer:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()


def serve(host: str = "127.0.0.1", port: int = 8765, seed: int = 7) -> None:
    """Serve the demo site until interrupted (what ``gofer demo-site`` runs)."""
    print(f"SkyLark demo airline on http://{host}:{port}/ (seed {seed}); Ctrl+C stops it.")
    uvicorn.run(create_app(seed), host=host, port=port, log_level="warning")
