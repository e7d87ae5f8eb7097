"""What every answer and every log line of the server holds to, whatever route ran.

* :class:`Contained`: an exception no handler took is logged by its type and frames
  only (its message may quote a request: a fact's value, an address), answered with a
  bare 500 INTERNAL_ERROR when nothing was sent yet, and never handed on to uvicorn,
  which would log it whole.
* :class:`NoStore`: a JSON answer carries ``Cache-Control: no-store`` (records may hold
  personal data), unless the route set its own.
* :class:`QuietErrors` (from :mod:`gofer.serving`): a logging filter that keeps an
  exception's type and frames and drops its message; the embedded server puts it on
  uvicorn's loggers and ``gofer serve`` on every handler it logs to.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gofer.serving import QuietErrors, quiet, without_message

__all__ = ["Contained", "NoStore", "QuietErrors", "quiet", "without_message"]

log = logging.getLogger("gofer.api")

_CRASHED = json.dumps(
    {"error": {"code": "INTERNAL_ERROR", "message": "the server failed; this is a bug"}}
).encode()


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
