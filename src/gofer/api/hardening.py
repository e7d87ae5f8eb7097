"""What every answer and every log line of the server holds to, whatever route ran.

* :class:`Contained`: an exception no handler took is logged by its type and frames
  only (its message may quote a request: a fact's value, an address), answered with a
  bare 500 INTERNAL_ERROR when nothing was sent yet, and never handed on to uvicorn,
  which would log it whole.
* :class:`NoStore`: a JSON answer carries ``Cache-Control: no-store`` (records may hold
  personal data), unless the route set its own.
* :class:`QuietErrors`: a logging filter that keeps an exception's type and frames and
  drops its message, from ``exc_info`` and from an exception passed as an argument; the
  server puts it on uvicorn's loggers and ``gofer serve`` on every handler it logs to.
"""

from __future__ import annotations

import json
import logging
import traceback
from types import TracebackType
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["Contained", "NoStore", "QuietErrors", "quiet", "without_message"]

log = logging.getLogger("gofer.api")

_CRASHED = json.dumps(
    {"error": {"code": "INTERNAL_ERROR", "message": "the server failed; this is a bug"}}
).encode()


def without_message(kind: type[BaseException], tb: TracebackType | None) -> str:
    """A traceback as its frames and the exception's type, never its message."""
    frames = "".join(traceback.format_tb(tb))
    return f"Traceback (most recent call last):\n{frames}{kind.__name__} (message withheld)"


class QuietErrors(logging.Filter):
    """Strips exception messages from a record (see the module's docstring)."""

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


def quiet(*loggers: logging.Logger | logging.Handler) -> None:
    """Put :class:`QuietErrors` on each of ``loggers`` (once)."""
    for target in loggers:
        if _QUIET not in target.filters:
            target.addFilter(_QUIET)


class Contained:
    """``app`` with no exception escaping it (see the module's docstring)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] in ("http.response.start", "websocket.accept"):
                started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:  # noqa: BLE001 - logged by its type and frames, answered 500
            log.error(
                "a request to %r crashed\n%s",
                scope.get("path", ""),
                without_message(type(exc), exc.__traceback__),
            )
            if scope["type"] != "http" or started:
                return
            await send(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(_CRASHED)).encode()),
                        (b"cache-control", b"no-store"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": _CRASHED})


class NoStore:
    """``app`` with ``Cache-Control: no-store`` on its JSON answers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers: list[Any] = list(message.get("headers", []))
                names = {bytes(n).lower() for n, _ in headers}
                kind = next(
                    (bytes(v) for n, v in headers if bytes(n).lower() == b"content-type"), b""
                )
                if b"cache-control" not in names and kind.startswith(b"application/json"):
                    headers.append((b"cache-control", b"no-store"))
                    message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)
