"""The request-size limit, as ASGI middleware in front of every route.

A body over the limit is refused with 413 and a REQUEST_TOO_LARGE error before any
route sees it, whether it announced its length or streamed in chunks.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gofer.errors import ApiError

__all__ = ["DRAIN_BYTES", "MAX_BODY_BYTES", "BodyLimit"]

MAX_BODY_BYTES = 1_048_576
"""The largest request body the server reads (1 MiB)."""

DRAIN_BYTES = 64 * MAX_BODY_BYTES
"""How much of a refused body is read and dropped before the connection is closed."""


def _too_large(limit: int) -> bytes:
    error = ApiError(
        f"the request body is over {limit} bytes", code="REQUEST_TOO_LARGE", limit=limit
    )
    return json.dumps({"error": error.to_dict()}).encode("utf-8")


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes; the rest pass through unchanged."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def _refuse(self, receive: Receive, send: Send, more: bool) -> None:
        # The rest of the body is read and dropped (up to DRAIN_BYTES) so the client,
        # still sending, reads the answer instead of a reset connection.
        drained = 0
        while more and drained < DRAIN_BYTES:
            message = await receive()
            if message["type"] != "http.request":
                break
            drained += len(message.get("body", b""))
            more = bool(message.get("more_body", False))
        body = _too_large(self.limit)
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ]
        if more:
            headers.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    announced = int(value)
                except ValueError:
                    announced = 0
                if announced > self.limit:
                    await self._refuse(receive, send, more=True)
                    return
        if scope.get("method") not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(receive, send, more=bool(message.get("more_body", False)))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        whole: Message = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([whole], receive), send)


def _replay(first: list[Message], receive: Receive) -> Receive:
    pending = list(first)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay
