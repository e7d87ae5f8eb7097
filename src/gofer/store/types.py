"""The work queue's core types: what an item is, what a claim holds, how kinds share a
serial order. A leaf module: every other module of ``gofer.store`` may import it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "Claim",
    "GroupNamer",
    "Item",
    "ItemState",
    "QueueConfig",
    "SerialKind",
    "SerialOrder",
    "read_state",
]

ItemState = Literal["queued", "running", "done", "failed"]
"""An item's state as read: ``queued`` (waiting, or its lease lapsed with attempts
left), ``running`` (a live lease), ``done`` (finished) or ``failed`` (out of attempts:
released with an error on its last one, or its last lease lapsed)."""

GroupNamer = Callable[[Mapping[str, Any]], "str | None"]
"""Names an item's serial group from its payload (``None``: the item has no group)."""


def _named(payload: Mapping[str, Any], way: str | GroupNamer) -> str | None:
    value = payload.get(way) if isinstance(way, str) else way(payload)
    return None if value is None else str(value)


@dataclass(frozen=True)
class SerialKind:
    """How one kind takes part in a :class:`SerialOrder`.

    ``group`` is the payload field that names the item's group, or a function of the
    payload; ``max_attempts`` is how many times an item of this kind may be claimed.
    """

    group: str | GroupNamer
    max_attempts: int = 1

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")


@dataclass(frozen=True)
class SerialOrder:
    """Several kinds sharing one order: within a group, an item waits while another of
    the group holds a live lease, or while an older one is unfinished with attempts
    left. The queue never needs to know what a group is; each kind names its own."""

    name: str
    kinds: Mapping[str, SerialKind]

    def key(self, group: str) -> str:
        """The stored group key (``order:group``) of the group named ``group``: what
        ``items(group=...)`` looks up."""
        return f"{self.name}:{group}"

    def group_of(self, kind: str, payload: Mapping[str, Any]) -> str | None:
        """The stored group key of an item of ``kind``, or ``None``."""
        serial = self.kinds.get(kind)
        if serial is None:
            return None
        group = _named(payload, serial.group)
        return None if group is None else self.key(group)


@dataclass(frozen=True)
class QueueConfig:
    """What a queue works out from a payload when an item is enqueued.

    ``orders``: the serial orders its kinds belong to (a kind belongs to at most one).
    ``owner``: the payload field (or function) naming the value a running cap counts
    per (``claim(..., running_at_most=3)`` means at most 3 running per owner).
    ``max_attempts``: attempts for a kind outside every order.
    """

    orders: Sequence[SerialOrder] = ()
    owner: str | GroupNamer = "owner"
    max_attempts: int = 1
    _by_kind: dict[str, SerialOrder] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_kind: dict[str, SerialOrder] = {}
        for order in self.orders:
            for kind in order.kinds:
                if kind in by_kind:
                    raise ValueError(f"kind {kind!r} is in two serial orders")
                by_kind[kind] = order
        object.__setattr__(self, "_by_kind", by_kind)

    def order_of(self, kind: str) -> SerialOrder | None:
        """The serial order ``kind`` belongs to, if any."""
        return self._by_kind.get(kind)

    def placement(
        self, kind: str, payload: Mapping[str, Any]
    ) -> tuple[str | None, str | None, int]:
        """``(group key, owner, max_attempts)`` stored with a new item."""
        order = self._by_kind.get(kind)
        owner = _named(payload, self.owner)
        if order is None:
            return None, owner, self.max_attempts
        return order.group_of(kind, payload), owner, order.kinds[kind].max_attempts

    def check_claim(self, kinds: Sequence[str], serial: SerialOrder | None) -> None:
        """Refuse a claim under an order the queue was not given, or naming kinds
        outside it."""
        if serial is None:
            return
        if serial not in self.orders:
            raise ValueError(f"serial order {serial.name!r} is not one of the queue's")
        outside = [k for k in kinds if k not in serial.kinds]
        if outside:
            raise ValueError(f"kinds {outside} are not in serial order {serial.name!r}")


@dataclass(frozen=True)
class Item:
    """One item on the queue as read (``state`` derived from its lease and attempts)."""

    id: int
    kind: str
    key: str | None
    payload: dict[str, Any]
    group: str | None
    owner: str | None
    state: ItemState
    attempts: int
    max_attempts: int
    worker: str | None
    last_error: str | None
    created_at: float
    finished_at: float | None
    lease_expires_at: float | None
    preferred: str | None = None
    """The worker this item is reserved for until ``preferred_until`` (set at enqueue
    with ``prefer``; spent by its first claim)."""
    preferred_until: float | None = None


@dataclass(frozen=True)
class Claim:
    """A live lease on one item, as ``claim`` hands it out. ``token`` is this claim's
    own: ``renew``, ``finish`` and ``release`` act only while it holds a live lease."""

    id: int
    kind: str
    payload: dict[str, Any]
    group: str | None
    owner: str | None
    attempt: int
    max_attempts: int
    worker: str
    token: str
    lease_ms: int

    @property
    def last_attempt(self) -> bool:
        """Whether a failure now leaves the item failed rather than queued."""
        return self.attempt >= self.max_attempts


def read_state(
    stored: str, attempts: int, max_attempts: int, lease_expires_at: float | None, now: float
) -> ItemState:
    """An item's state as read from its stored state and lease: a ``running`` row
    whose lease lapsed reads ``queued`` while attempts remain and ``failed`` after."""
    if stored == "running" and (lease_expires_at is None or lease_expires_at <= now):
        return "queued" if attempts < max_attempts else "failed"
    if stored in ("queued", "running", "done", "failed"):
        return stored  # type: ignore[return-value]
    raise ValueError(f"unknown stored state {stored!r}")
