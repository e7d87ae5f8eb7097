"""Server-sent events: a task's views as they change, for pages and agents that would
rather not poll.

Each view is one ``view`` event whose data is the view as JSON; a comment line keeps
the connection alive while nothing changes; the stream ends after the view from which
the task can change no more.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable

from gofer.errors import GoferError
from gofer.tasks import TaskView

__all__ = ["KEEPALIVE_S", "sse_views"]

KEEPALIVE_S = 15.0
"""Seconds between keep-alive comments on a quiet stream."""

_END = object()
log = logging.getLogger("gofer.api")


async def sse_views(
    views: AsyncIterator[TaskView],
    *,
    keepalive_s: float = KEEPALIVE_S,
    observe: Callable[[bytes], None] | None = None,
) -> AsyncIterator[bytes]:
    """``views`` as SSE frames (``id``, ``event: view``, ``data``), with keep-alives."""
    queue: asyncio.Queue[TaskView | object] = asyncio.Queue()

    async def pump() -> None:
        # A task dropped from the controller mid-stream just ends the stream.
        try:
            async for view in views:
                await queue.put(view)
        except GoferError as exc:
            log.info("a view stream ended early (%s)", exc.code)
        finally:
            queue.put_nowait(_END)

    feeder = asyncio.create_task(pump(), name="gofer-sse-views")
    number = 0
    try:
        while True:
            try:
                item = await asyncio.wait_for(queue.get(), timeout=keepalive_s)
            except TimeoutError:
                yield b": keep-alive\n\n"
                continue
            if item is _END:
                break
            assert isinstance(item, TaskView)
            number += 1
            frame = f"id: {number}\nevent: view\ndata: {item.model_dump_json()}\n\n".encode()
            if observe is not None:
                observe(frame)
            yield frame
    finally:
        feeder.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await feeder
