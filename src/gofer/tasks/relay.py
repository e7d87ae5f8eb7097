"""Take-over from any server: the tasks' side of relaying a person's live view to the
process that holds the task's browser.

A process that runs turns serves the live views of the browsers it holds on a
private address (the faces' live endpoint, :mod:`gofer.api.relay`) and puts each hold
on the store's board (:mod:`gofer.tasks.held_board`). A server asked for a live view of a
task it does not hold finds the holder there and gets a :class:`RelayTarget`: the
holder's address and a credential signed with the database's relay key over the task,
its owner (whom the server checked) and that hold, for 30 s. The holder opens the
view only for a credential that fits the hold it has now (:meth:`Relay.allows`), then
runs the owner's checks again as for a person of its own.
"""

from __future__ import annotations

import logging
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import quote

import httpx

from gofer.store import Connector
from gofer.store.holders import LiveHolder, LiveHolders
from gofer.store.keys import named_secret
from gofer.tasks.errors import live_unavailable
from gofer.tasks.held_board import RELAY_TTL_S, relay_credential, relay_credential_ok
from gofer.tasks.worker import TaskWorker

__all__ = [
    "BLOCKED_PATH",
    "RELAY_CREDENTIAL",
    "RELAY_KEY",
    "RELAY_OWNER",
    "RELAY_PATH",
    "TLS_PREFIX",
    "Held",
    "OwnerRelay",
    "Relay",
    "RelayTarget",
]

log = logging.getLogger("gofer.tasks")

RELAY_KEY = "live-relay"
"""The name of the database's key that signs relay credentials."""
RELAY_PATH = "/live/{task_id}"
"""The holder's WebSocket route for a task's live view."""
BLOCKED_PATH = "/live/{task_id}/blocked"
"""The holder's route answering whether the task's page is still blocked by its wall."""
RELAY_OWNER = "x-gofer-owner"
"""The header naming the owner the relaying server checked (percent-encoded)."""
RELAY_CREDENTIAL = "x-gofer-relay"
"""The header carrying the relay credential."""
ASK_HOLDER_S = 6.0
"""How long a server waits for a holder's answer (it reads its page in 4 s at most)."""


TLS_PREFIX = "tls://"
"""How a holder that serves its live endpoint over TLS announces it: ``tls://host:port``."""


@dataclass(frozen=True, slots=True)
class RelayTarget:
    """Where a task's held browser is served (``host:port``, or ``tls://host:port``
    over TLS), and what to show there: the owner the server checked and the credential
    for the holder's current hold. ``trust`` checks a TLS holder's certificate (None:
    the system's certificate authorities)."""

    task_id: str
    address: str
    owner: str
    credential: str
    trust: ssl.SSLContext | None = None

    @property
    def tls(self) -> bool:
        """Whether the holder serves its live endpoint over TLS."""
        return self.address.startswith(TLS_PREFIX)

    def context(self) -> ssl.SSLContext | None:
        """What a TLS connection to the holder checks its certificate with (None for
        a plain one)."""
        if not self.tls:
            return None
        return self.trust if self.trust is not None else ssl.create_default_context()

    @property
    def headers(self) -> dict[str, str]:
        """What the holder reads the owner and the credential from."""
        return {RELAY_OWNER: quote(self.owner, safe=""), RELAY_CREDENTIAL: self.credential}

    def url(self, path: str, scheme: str = "ws") -> str:
        """``path`` (:data:`RELAY_PATH`, :data:`BLOCKED_PATH`) at the holder (``wss`` and
        ``https`` for a TLS holder)."""
        address = self.address.removeprefix(TLS_PREFIX)
        if self.tls:
            scheme = {"ws": "wss", "http": "https"}[scheme]
        return f"{scheme}://{address}" + path.format(task_id=quote(self.task_id, safe=""))


@dataclass(frozen=True, slots=True)
class Held:
    """Where a task's browser is held for a person, as one read found it: in this
    process (``here``), in another (``elsewhere``, its row on the board), or nowhere."""

    here: str | None
    elsewhere: LiveHolder | None

    @property
    def holder(self) -> str | None:
        """The worker that holds it (None: no one does)."""
        return self.here or (self.elsewhere.holder if self.elsewhere is not None else None)


class Relay:
    """The relay's reads and checks over this process's worker and store."""

    def __init__(self, worker: TaskWorker, db: Connector, clock: Callable[[], float]) -> None:
        self._worker = worker
        self._holders = LiveHolders(db)
        self._db = db
        self._clock = clock
        self._key: bytes | None = None
        self._trust: ssl.SSLContext | None = None
        self._spent: dict[str, float] = {}
        """The credentials this holder took already, to when they expire: each opens
        one view (a copy seen on the network is refused)."""

    async def _relay_key(self) -> bytes:
        if self._key is None:
            self._key = await named_secret(self._db, RELAY_KEY)
        return self._key

    async def offer(self, address: str) -> None:
        """This process serves live views at ``address`` (``host:port``) from now."""
        await self._worker.offer_live(address)

    def trust(self, context: ssl.SSLContext | None) -> None:
        """Check TLS holders' certificates with ``context`` (the operator's authority;
        None: the system's)."""
        self._trust = context

    async def elsewhere(self, task_id: str) -> LiveHolder | None:
        """The other process that holds the task's browser now, if one does."""
        if self._worker.holds_for_person(task_id):
            return None
        found = await self._holders.get(task_id, now=self._clock())
        return found if found is not None and found.holder != self._worker.worker_id else None

    async def held(self, task_id: str) -> Held:
        """Where the task's browser is held for a person now (the board is read only
        when this process does not hold it)."""
        if self._worker.holds_for_person(task_id):
            return Held(self._worker.worker_id, None)
        return Held(None, await self.elsewhere(task_id))

    async def blocked_here(self, task_id: str, reason: str) -> str | None:
        """Why the task's page held in this process is still blocked (None: it is not,
        or it is not held here)."""
        return await self._worker.why_blocked(task_id, reason)

    async def target(
        self, owner: str, task_id: str, held: Held | None = None
    ) -> RelayTarget | None:
        """Where to relay ``owner``'s live view of the task (checked by the caller), with
        a fresh credential; None when no other process holds its browser (as ``held``
        found, else as the board says now)."""
        found = held.elsewhere if held is not None else await self.elsewhere(task_id)
        if found is None:
            return None
        credential = relay_credential(
            await self._relay_key(), task_id, owner, found.hold, self._clock()
        )
        return RelayTarget(task_id, found.address, owner, credential, self._trust)

    async def why_blocked(self, owner: str, task_id: str, reason: str, held: Held) -> str | None:
        """Why the task's page is still blocked by the wall ``reason`` names, in words,
        read here or asked of the process ``held`` found holding it (None: it is not, or
        it cannot be read in time)."""
        if held.here is not None:
            return await self._worker.why_blocked(task_id, reason)
        target = await self.target(owner, task_id, held)
        if target is None:
            return None
        try:
            verify = target.context() or True
            async with httpx.AsyncClient(
                timeout=ASK_HOLDER_S, trust_env=False, verify=verify
            ) as http:
                answer = await http.post(
                    target.url(BLOCKED_PATH, "http"),
                    json={"reason": reason},
                    headers=target.headers,
                )
            said = answer.json() if answer.status_code == 200 else None
        except (httpx.HTTPError, ValueError) as exc:
            log.info(
                "task %s: its holder did not say whether it is blocked (%s)",
                task_id,
                type(exc).__name__,
            )
            return None
        blocked = said.get("blocked") if isinstance(said, dict) else None
        return blocked if isinstance(blocked, str) else None

    async def allows(self, owner: str, task_id: str, credential: str) -> bool:
        """Whether a server's ``credential`` opens ``owner``'s view of the task's browser
        held here now (forged, expired, another task's, an ended hold's, or one taken
        once already: False)."""
        hold = self._worker.hold_of(task_id)
        if hold is None:
            return False
        now = self._clock()
        ok = relay_credential_ok(await self._relay_key(), credential, task_id, owner, hold, now)
        for spent, until in list(self._spent.items()):
            if until <= now:
                del self._spent[spent]
        if not ok or credential in self._spent:
            return False
        self._spent[credential] = now + RELAY_TTL_S + 1
        return True


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

    def trust(self, context: ssl.SSLContext | None) -> None:
        """Check TLS holders' certificates with ``context`` (see :meth:`Relay.trust`)."""
        self._relay.trust(context)

    async def offer(self, address: str) -> None:
        """This process serves the live views of the browsers it holds at ``address``
        (``host:port``, reachable by the other servers): each hold goes on the store's
        board, and a person on any server can take those tasks over."""
        await self._relay.offer(address)

    async def why_blocked(self, task_id: str, reason: str, held: Held) -> str | None:
        """Why the task's page, here or at the holder ``held`` names, is still blocked by
        the wall ``reason`` names (None: it is not, or no one can say)."""
        return await self._relay.why_blocked(self._owner, task_id, reason, held)

    async def blocked_here(self, task_id: str, reason: str) -> str | None:
        """The same, for the page held in this process only (a server asks)."""
        return await self._relay.blocked_here(task_id, reason)
