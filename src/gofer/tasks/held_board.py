"""The board of held browsers: this process says in the store which paused tasks'
browsers it holds and where it serves their live views, so a person on any server
of the database can take them over (the server relays to that address, with a
credential it signs: :func:`relay_credential`).

A process announces nothing until it serves live views (:meth:`Board.offer`, from
the entry point that started its live endpoint); the in-memory and embedded uses
never do. Each hold has a random id; a row is written when the hold starts, its
expiry pushed on while a person acts (at most once per half hold), and removed when
the hold ends, by that hold only. The store's failures are logged and leave the hold
as it is: the browser is still there for a person on this server.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
from collections.abc import Callable

from gofer.errors import StoreError
from gofer.store.holders import LiveHolder, LiveHolders
from gofer.store.transaction import Transaction

__all__ = ["RELAY_TTL_S", "Board", "relay_credential", "relay_credential_ok"]

log = logging.getLogger("gofer.tasks")

RELAY_TTL_S = 30.0
"""How long a server's credential to open a live view at its holder lasts."""

_SLACK_S = 30.0
_PURPOSE = b"gofer live relay v1"


def _mac(key: bytes, task_id: str, owner: str, hold: str, expires_at: int) -> str:
    message = b"\0".join(
        (_PURPOSE, task_id.encode(), owner.encode(), hold.encode(), str(expires_at).encode())
    )
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def relay_credential(key: bytes, task_id: str, owner: str, hold: str, now: float) -> str:
    """What a server that checked ``owner`` may see ``task_id`` shows the holder of its
    hold ``hold``: ``EXPIRES.MAC``, an HMAC-SHA256 under the database's relay key."""
    expires_at = int(now + RELAY_TTL_S)
    return f"{expires_at}.{_mac(key, task_id, owner, hold, expires_at)}"


def relay_credential_ok(
    key: bytes, credential: str, task_id: str, owner: str, hold: str, now: float
) -> bool:
    """Whether ``credential`` lets a server open ``owner``'s ``task_id`` here, during
    the hold ``hold``, now (forged, altered, expired or another hold's: False)."""
    expires, _, mac = credential.partition(".")
    if not expires.isdigit() or int(expires) <= now:
        return False
    return hmac.compare_digest(_mac(key, task_id, owner, hold, int(expires)), mac)


class Board:
    """This process's held browsers on the store's board (see the module)."""

    def __init__(
        self, holders: LiveHolders, holder: str, hold_s: float, clock: Callable[[], float]
    ) -> None:
        self._holders = holders
        self._holder = holder
        self._hold_s = hold_s
        self._clock = clock
        self.address: str | None = None
        """Where this process serves live views, once it does (``host:port``)."""
        self._written: dict[str, float] = {}

    async def offer(self, address: str, holds: dict[str, str]) -> None:
        """This process serves live views at ``address`` from now: announce the holds
        it has (task id to hold id) and every hold after."""
        self.address = address
        for task_id, hold in holds.items():
            await self.put(task_id, hold)

    async def announce(self, task_id: str, hold: str, tx: Transaction) -> None:
        """Put the hold ``hold`` of the task's browser on the board in ``tx`` (the turn's
        end: the hold shows with the status that offers it); the store's failure is the
        transaction's."""
        await self._write(task_id, hold, tx)

    def announced(self, hold: str) -> bool:
        """Whether the hold ``hold`` is on the board already."""
        return hold in self._written

    async def put(self, task_id: str, hold: str) -> None:
        """Announce (or push on) the hold ``hold`` of the task's browser."""
        try:
            await self._write(task_id, hold)
        except StoreError as exc:
            log.warning("task %s: its held browser was not announced (%s)", task_id, exc.code)

    async def _write(self, task_id: str, hold: str, tx: Transaction | None = None) -> None:
        if self.address is None:
            return
        now = self._clock()
        await self._holders.put(
            task_id,
            LiveHolder(self._holder, hold, self.address),
            now=now,
            expires_at=now + self._hold_s + _SLACK_S,
            tx=tx,
        )
        self._written[hold] = now

    async def touched(self, task_id: str, hold: str) -> None:
        """A person acted on the held browser: push its row's expiry on when half of it
        has passed."""
        written = self._written.get(hold)
        if written is not None and self._clock() - written >= self._hold_s / 2:
            await self.put(task_id, hold)

    async def drop(self, task_id: str, hold: str) -> None:
        """The hold ``hold`` of the task ended."""
        if self._written.pop(hold, None) is None:
            return
        try:
            await self._holders.drop(task_id, hold)
        except StoreError as exc:
            log.warning("task %s: its ended hold was not taken off (%s)", task_id, exc.code)

    async def drop_all(self) -> None:
        """This process holds nothing any more (it stops)."""
        if self.address is None:
            return
        self._written.clear()
        try:
            await self._holders.drop_all(self._holder)
        except StoreError as exc:
            log.warning("the holds of %s were not taken off (%s)", self._holder, exc.code)
