"""Waking: an enqueue or a finish wakes every waiting worker and waiter at once.

A :class:`Waker` fans a notice out to its subscriptions in this process. The SQLite
and in-memory connectors call :meth:`Waker.publish` after a commit (on a SQLite file
it also reaches the other processes on the file: ``peers.py``); the PostgreSQL
connector forwards what LISTEN hears from every process. A subscription is taken
before the caller checks the store, so a notice sent between the check and the wait
is never missed; waits still time out, seconds apart, as a safety net only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

__all__ = ["CHANNEL", "Notice", "Subscription", "Waker"]

CHANNEL = "gofer_queue"
"""The one channel the store notifies on (the PostgreSQL NOTIFY channel too)."""


@dataclass(frozen=True)
class Notice:
    """What changed: ``event`` (``enqueued``, ``finished``, ``released``,
    ``preference_ended``, or a ledger's own), and the item's ``kind``, ``group`` and
    ``owner`` when known. An ``enqueued`` item reserved for one worker carries its
    window, ``prefer_ms``."""

    event: str
    kind: str | None = None
    group: str | None = None
    owner: str | None = None
    id: int | None = None
    prefer_ms: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The notice as JSON-ready data (the NOTIFY payload)."""
        return {k: v for k, v in self.__dict__.items() if v is not None}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Notice:
        """A notice back from :meth:`to_dict`'s data."""
        item_id = data.get("id")
        window = data.get("prefer_ms")
        return cls(
            event=str(data.get("event", "")),
            kind=data.get("kind"),
            group=data.get("group"),
            owner=data.get("owner"),
            id=int(item_id) if item_id is not None else None,
            prefer_ms=int(window) if window is not None else None,
        )


class Subscription:
    """Notices since the subscription began; :meth:`wait` returns once there is one."""

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self._notices: list[Notice] = []

    def _push(self, notice: Notice) -> None:
        self._notices.append(notice)
        self._event.set()

    async def wait(self, timeout: float | None = None) -> list[Notice]:
        """The notices received since the last wait (waiting for one if none yet), or
        ``[]`` when ``timeout`` seconds pass first."""
        if not self._notices:
            try:
                await asyncio.wait_for(self._event.wait(), timeout)
            except TimeoutError:
                return []
        notices, self._notices = self._notices, []
        self._event.clear()
        return notices


class Waker:
    """Fans notices out to this process's subscriptions."""

    def __init__(self) -> None:
        self._subscriptions: set[Subscription] = set()

    @contextmanager
    def subscribe(self) -> Iterator[Subscription]:
        """A subscription for the ``with`` block; take it before checking the store."""
        subscription = Subscription()
        self._subscriptions.add(subscription)
        try:
            yield subscription
        finally:
            self._subscriptions.discard(subscription)

    def notify(self, notice: Notice) -> None:
        """Wake every subscription in this process with ``notice``; for an item
        enqueued for one worker, once more with ``preference_ended`` when its window
        has passed (counted from now, at or after the window's end in the store)."""
        for subscription in list(self._subscriptions):
            subscription._push(notice)
        if notice.event == "enqueued" and notice.prefer_ms:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # no loop, so no one here waits
            ended = replace(notice, event="preference_ended", prefer_ms=None)
            loop.call_later(notice.prefer_ms / 1000, self.notify, ended)

    def publish(self, notices: Sequence[Notice]) -> None:
        """Wake every subscription that may see the committed ``notices``: here, this
        process's."""
        for notice in notices:
            self.notify(notice)
