"""Closing that a cancel cannot cut half-way.

A close cancelled half-way leaves what it had not reached yet open: a browser context,
a session's proxy listening on a socket. :func:`close_fully` runs a close to its end
even when the task awaiting it is cancelled meanwhile, then passes the cancel on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

__all__ = ["close_fully"]


async def close_fully(closing: Awaitable[None]) -> None:
    """Await ``closing`` to its end, even through cancels of the caller; a cancel that
    came meanwhile is raised once it has ended (its own error is raised otherwise)."""
    task = asyncio.ensure_future(closing)
    cancelled = False
    while not task.done():
        try:
            await asyncio.wait([task])
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    task.result()
