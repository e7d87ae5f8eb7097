"""Take-over from any server: the tasks' side of relaying a person's live view to the
process that holds the task's browser.

A process that runs turns serves the live views of the browsers it holds on a
private address (the faces' live endpoint, :mod:`gofer.api.relay`) and puts each hold
on the store's board (:mod:`gofer.tasks.board`). A server asked for a live view of a
task it does not hold finds the holder there and gets a :class:`RelayTarget`: the
holder's address and a credential signed with the database's relay key over the task,
its owner (whom the server checked) and that hold, for 30 s. The holder opens the
view only for a credential that fits the hold it has now (:meth:`Relay.allows`), then
runs the owner's checks again as for a person of its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from gofer.store import Connector
from gofer.store.holders import LiveHolder, LiveHolders
from gofer.store.keys import named_secret
from gofer.tasks.board import relay_credential, relay_credential_ok
from gofer.tasks.errors import live_unavailable
from gofer.tasks.worker import TaskWorker

__all__ = ["RELAY_KEY", "OwnerRelay", "Relay", "RelayTarget"]

RELAY_KEY = "live-relay"
"""The name of the database's key that signs relay credentials."""


@dataclass(frozen=True, slots=True)
class RelayTarget:
    """Where a task's held browser is served (``host:port``), and what to show there:
    the owner the server checked and the credential for the holder's current hold."""

    task_id: str
    address: str
    owner: str
    credential: str


class Relay:
    """The relay's reads and checks over this process's worker and store."""

    def __init__(self, worker: TaskWorker, db: Connector, clock: Callable[[], float]) -> None:
        self._worker = worker
        self._holders = LiveHolders(db)
        self._db = db
        self._clock = clock
        self._key: bytes | None = None

    async def _relay_key(self) -> bytes:
        if self._key is None:
            self._key = await named_secret(self._db, RELAY_KEY)
        return self._key

    async def offer(self, address: str) -> None:
        """This process serves live views at ``address`` (``host:port``) from now."""
        await self._worker.offer_live(address)

    async def elsewhere(self, task_id: str) -> LiveHolder | None:
        """The other process that holds the task's browser now, if one does."""
        if self._worker.holds_for_person(task_id):
            return None
        found = await self._holders.get(task_id, now=self._clock())
        return found if found is not None and found.holder != self._worker.worker_id else None

    async def holder_of(self, task_id: str) -> str | None:
        """The worker that holds the task's browser for a person now, this process's
        own included (None: no one does)."""
        if self._worker.holds_for_person(task_id):
            return self._worker.worker_id
        found = await self.elsewhere(task_id)
        return found.holder if found is not None else None

    async def target(self, owner: str, task_id: str) -> RelayTarget | None:
        """Where to relay ``owner``'s live view of the task (checked by the caller), with
        a fresh credential; None when no other process holds its browser."""
        found = await self.elsewhere(task_id)
        if found is None:
            return None
        credential = relay_credential(
            await self._relay_key(), task_id, owner, found.hold, self._clock()
        )
        return RelayTarget(task_id, found.address, owner, credential)

    async def allows(self, owner: str, task_id: str, credential: str) -> bool:
        """Whether a server's ``credential`` opens ``owner``'s view of the task's browser
        held here now (forged, expired, another task's or an ended hold's: False)."""
        hold = self._worker.hold_of(task_id)
        if hold is None:
            return False
        return relay_credential_ok(
            await self._relay_key(), credential, task_id, owner, hold, self._clock()
        )


class OwnerRelay:
    """The relay as one owner's controller offers it; ``may_take_over(task_id)`` runs a
    live view's checks (WRONG_STATE, UNKNOWN_TASK) for that owner."""

    def __init__(
        self, relay: Relay, owner: str, may_take_over: Callable[[str], Awaitable[None]]
    ) -> None:
        self._relay = relay
        self._owner = owner
        self._may_take_over = may_take_over

    async def target(self, task_id: str) -> RelayTarget:
        """Where another process of the store holds the task's browser, to relay a live
        view there: the checks of a live view, and LIVE_UNAVAILABLE when no other
        process holds it."""
        await self._may_take_over(task_id)
        target = await self._relay.target(self._owner, task_id)
        if target is None:
            raise live_unavailable(task_id)
        return target

    async def allows(self, task_id: str, credential: str) -> bool:
        """Whether a server's ``credential`` opens this owner's live view of the task's
        browser held in this process now."""
        return await self._relay.allows(self._owner, task_id, credential)

    async def offer(self, address: str) -> None:
        """This process serves the live views of the browsers it holds at ``address``
        (``host:port``, reachable by the other servers): each hold goes on the store's
        board, and a person on any server can take those tasks over."""
        await self._relay.offer(address)
