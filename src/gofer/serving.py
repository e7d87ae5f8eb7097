"""Serving an ASGI app on a socket inside the caller's event loop (uvicorn).

``async with Listening(app, port=0) as listening:`` binds a free port on loopback and
serves until the block ends; ``listening.url`` is its address. Shutdown is graceful:
open long-polls get up to ``graceful_s`` to finish. The one embedded server of the
HTTP API (``gofer.api``) and of the demo site (``gofer.demo``); like ``errors``, it
imports nothing else of gofer's.

uvicorn leaves the host's logging as it is, and its own records keep an exception's
type and frames only (:class:`QuietErrors`): a message may quote a request.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import socket
import traceback
from collections.abc import Callable, Iterator
from types import TracebackType

import uvicorn
from starlette.types import ASGIApp

from gofer.errors import ApiError, GoferError

__all__ = ["Listening", "QuietErrors", "quiet", "without_message"]


def without_message(kind: type[BaseException], tb: TracebackType | None) -> str:
    """A traceback as its frames and the exception's type, never its message."""
    frames = "".join(traceback.format_tb(tb))
    return f"Traceback (most recent call last):\n{frames}{kind.__name__} (message withheld)"


class QuietErrors(logging.Filter):
    """Keeps a record's exception type and frames and drops its message, from
    ``exc_info`` and from an exception passed as an argument."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.exc_info[0] is not None:
            kind, _value, tb = record.exc_info
            record.exc_text = without_message(kind, tb)
            record.exc_info = None
        if isinstance(record.args, tuple) and any(
            isinstance(a, BaseException) for a in record.args
        ):
            record.args = tuple(
                f"{type(a).__name__} (message withheld)" if isinstance(a, BaseException) else a
                for a in record.args
            )
        return True


_QUIET = QuietErrors()


def quiet(*targets: logging.Logger | logging.Handler) -> None:
    """Put :class:`QuietErrors` on each of ``targets`` (once)."""
    for target in targets:
        if _QUIET not in target.filters:
            target.addFilter(_QUIET)


_LISTEN_FAILED = functools.partial(ApiError, code="LISTEN_FAILED")


class _Embedded(uvicorn.Server):
    """A uvicorn server that says when it listens and leaves signals to its host."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = asyncio.Event()

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        self.ready.set()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class Listening:
    """``app`` served on ``host:port`` (0: a free port) in the running event loop.

    ``name`` says what serves in the error when it cannot start, and ``failure`` makes
    that error (by default an ``ApiError`` with code ``LISTEN_FAILED``); ``tls`` (a
    certificate file and its key file, PEM) serves it over TLS.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        graceful_s: float = 5.0,
        backlog: int = 2048,
        name: str = "the HTTP server",
        failure: Callable[..., GoferError] = _LISTEN_FAILED,
        tls: tuple[str, str] | None = None,
    ) -> None:
        self.app = app
        self.host = host
        self.port = port
        self._graceful = graceful_s
        self._backlog = backlog
        self._name = name
        self._failure = failure
        self._tls = tls
        self._server: _Embedded | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        """``http://HOST:PORT`` (no trailing slash)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    async def start(self) -> None:
        """Bind and wait until connections are accepted (API_ERROR when it cannot)."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        # The protocol is named: asyncio sets TCP_NODELAY only on accepted sockets whose
        # proto says TCP, and without it a kept-alive connection's answers wait ~40 ms
        # (Nagle's algorithm against the client's delayed ACK).
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((self.host, self.port))
            sock.listen(self._backlog)
        except OSError as exc:
            sock.close()
            raise self._failure(
                f"cannot listen on {self.host}:{self.port}: {exc.strerror}",
                host=self.host,
                port=self.port,
            ) from exc
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app,
            log_level="warning",
            lifespan="off",
            timeout_graceful_shutdown=int(self._graceful) or 1,
            backlog=self._backlog,
            access_log=False,
            log_config=None,
            ssl_certfile=self._tls[0] if self._tls else None,
            ssl_keyfile=self._tls[1] if self._tls else None,
        )
        quiet(*(logging.getLogger(name) for name in ("uvicorn.error", "uvicorn.access")))
        self._server = _Embedded(config)
        self._task = asyncio.create_task(
            self._server.serve(sockets=[sock]), name=f"gofer-http-{self.port}"
        )
        ready = asyncio.create_task(self._server.ready.wait())
        await asyncio.wait({ready, self._task}, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            error = self._task.exception() if not self._task.cancelled() else None
            raise self._failure(f"{self._name} stopped while starting", port=self.port) from error

    async def stop(self) -> None:
        """Stop serving and wait for the server to finish (idempotent)."""
        server, task = self._server, self._task
        self._server = self._task = None
        if server is None or task is None:
            return
        server.should_exit = True
        await task

    async def wait(self) -> None:
        """Until the server stops."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def __aenter__(self) -> Listening:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()
