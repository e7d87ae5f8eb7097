"""The request-size limit, as ASGI middleware in front of every route, and each
owner's share of the server's long-lived requests.

A body over the limit is refused with 413 and a REQUEST_TOO_LARGE error before any
route sees it, whether it announced its length or streamed in chunks. An owner holds
at most MAX_STREAMS_PER_OWNER event streams and MAX_WAITS_PER_OWNER long-polls
(``await_task``) open at once in one server; one more is TOO_MANY_STREAMS or
TOO_MANY_WAITS (429) until one ends.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from gofer.errors import ApiError

__all__ = [
    "DRAIN_BYTES",
    "MAX_BODY_BYTES",
    "MAX_STREAMS_PER_OWNER",
    "MAX_WAITS_PER_OWNER",
    "BodyLimit",
    "OwnerSlots",
]

MAX_BODY_BYTES = 1_048_576
"""The largest request body the server reads (1 MiB)."""

DRAIN_BYTES = 64 * MAX_BODY_BYTES
"""How much of a refused body is read and dropped before the connection is closed."""

MAX_STREAMS_PER_OWNER = 10
"""Event streams (SSE) one owner may hold open at once."""

MAX_WAITS_PER_OWNER = 10
"""Long-polls (``await_task``) one owner may hold open at once."""


class OwnerSlots:
    """Counts each owner's open streams and long-polls (one process, one event loop)."""

    def __init__(
        self, streams: int = MAX_STREAMS_PER_OWNER, waits: int = MAX_WAITS_PER_OWNER
    ) -> None:
        self._limits = {"stream": streams, "wait": waits}
        self._held: dict[tuple[str, str], int] = {}

    def take(self, owner: str, kind: str) -> Callable[[], None]:
        """Hold one of ``owner``'s ``kind`` slots ("stream" or "wait"); returns what gives
        it back (call it once). TOO_MANY_STREAMS / TOO_MANY_WAITS when all are held."""
        key = (owner, kind)
        limit = self._limits[kind]
        if self._held.get(key, 0) >= limit:
            what = "event streams" if kind == "stream" else "waits (await_task)"
            raise ApiError(
                f"{limit} {what} of yours are open already; close one first",
                code="TOO_MANY_STREAMS" if kind == "stream" else "TOO_MANY_WAITS",
                limit=limit,
            )
        self._held[key] = self._held.get(key, 0) + 1
        given = False

        def give_back() -> None:
            nonlocal given
            if given:
                return
            given = True
            left = self._held[key] - 1
            if left:
                self._held[key] = left
            else:
                del self._held[key]

        return give_back

    def held(self, owner: str, kind: str) -> int:
        """How many of ``owner``'s ``kind`` slots are held now."""
        return self._held.get((owner, kind), 0)


def _too_large(limit: int) -> bytes:
    error = ApiError(
        f"the request body is over {limit} bytes", code="REQUEST_TOO_LARGE", limit=limit
    )
    return json.dumps({"error": error.to_dict()}).encode("utf-8")


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (over ``wide[path]`` on a path that
    takes more: file uploads); the rest pass through unchanged."""

    def __init__(
        self, app: ASGIApp, limit: int = MAX_BODY_BYTES, wide: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.limit = limit
        self.wide = dict(wide or {})

    async def _refuse(self, receive: Receive, send: Send, more: bool, limit: int) -> None:
        # The rest of the body is read and dropped (up to DRAIN_BYTES) so the client,
        # still sending, reads the answer instead of a reset connection.
        drained = 0
        while more and drained < DRAIN_BYTES:
            message = await receive()
            if message["type"] != "http.request":
                break
            drained += len(message.get("body", b""))
            more = bool(message.get("more_body", False))
        body = _too_large(limit)
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
        limit = self.wide.get(str(scope.get("path", "")), self.limit)
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    announced = int(value)
                except ValueError:
                    announced = 0
                if announced > limit:
                    await self._refuse(receive, send, more=True, limit=limit)
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
            if size > limit:
                more = bool(message.get("more_body", False))
                await self._refuse(receive, send, more=more, limit=limit)
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
