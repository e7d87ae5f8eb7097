"""Saved flows, versioned, per owner, in the store (migration 0006).

:class:`SavedFlows` runs the named blocks of ``sql/<dialect>/flows.sql`` on any
connector. A save never overwrites: it adds the next version of the name, in one
transaction. An owner sees only their own flows. The store keeps what it is given as
JSON text, the flow and its description sealed like a task's request
(:mod:`gofer.store.sealing`: a step a person did may hold what they typed, and a
description may quote anything); what may be saved (no fact values, names only) is
the caller's rule (:mod:`gofer.tasks.saved`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gofer.store.sealing import SecretBox, open_text, seal_text

if TYPE_CHECKING:
    from gofer.store.connector import Connector
    from gofer.store.transaction import Row

__all__ = ["FlowCapReached", "FlowLimits", "SavedFlowEntry", "SavedFlowRecord", "SavedFlows"]


@dataclass(frozen=True, slots=True)
class FlowLimits:
    """The operator's caps on one owner's saved flows: ``versions`` kept per name (a
    save past it drops the oldest), ``names`` per owner and ``bytes`` at rest per owner
    (every version's flow, description, parameters and hints, as stored)."""

    versions: int = 20
    names: int = 200
    bytes: int = 10_000_000

    def __post_init__(self) -> None:
        if min(self.versions, self.names, self.bytes) < 1:
            raise ValueError("saved-flow limits must be at least 1")


class FlowCapReached(Exception):
    """A save would pass one of :class:`FlowLimits` (``what``: names or bytes); nothing
    was written."""

    def __init__(self, what: str, limit: int) -> None:
        super().__init__(f"{what} past {limit}")
        self.what = what
        self.limit = limit


@dataclass(frozen=True, slots=True)
class SavedFlowRecord:
    """One version of a saved flow as the store holds it."""

    owner: str
    name: str
    version: int
    description: str
    flow: dict[str, Any]
    params: list[str]
    secret: list[str]
    hints: list[dict[str, str]]
    from_task: str | None
    created_at: float


@dataclass(frozen=True, slots=True)
class SavedFlowEntry:
    """The latest version of a saved flow as a list shows it: no flow, no hints."""

    name: str
    version: int
    description: str
    params: list[str]
    secret: list[str]
    from_task: str | None
    created_at: float


def _entry(row: Row, box: SecretBox | None) -> SavedFlowEntry:
    return SavedFlowEntry(
        name=str(row["name"]),
        version=int(row["version"]),
        description=open_text(box)(str(row["description"])),
        params=json.loads(row["params"]),
        secret=json.loads(row["secret"]),
        from_task=None if row["from_task"] is None else str(row["from_task"]),
        created_at=float(row["created_at"]),
    )


def _record(row: Row, box: SecretBox | None) -> SavedFlowRecord:
    opened = open_text(box)
    return SavedFlowRecord(
        owner=str(row["owner"]),
        name=str(row["name"]),
        version=int(row["version"]),
        description=opened(str(row["description"])),
        flow=json.loads(opened(str(row["flow"]))),
        params=json.loads(row["params"]),
        secret=json.loads(row["secret"]),
        hints=json.loads(row["hints"]),
        from_task=None if row["from_task"] is None else str(row["from_task"]),
        created_at=float(row["created_at"]),
    )


class SavedFlows:
    """The saved flows on ``connector``; ``clock`` gives seconds since the epoch."""

    def __init__(
        self,
        connector: Connector,
        *,
        clock: Callable[[], float] = time.time,
        limits: FlowLimits | None = None,
    ) -> None:
        self.connector = connector
        self._clock = clock
        self.limits = limits or FlowLimits()

    async def save(
        self,
        owner: str,
        name: str,
        *,
        flow: dict[str, Any],
        description: str,
        params: list[str],
        secret: list[str],
        hints: list[dict[str, str]],
        from_task: str | None,
    ) -> SavedFlowRecord:
        """Add the next version of ``owner``'s flow ``name`` (the first is 1), dropping
        its versions past the last ``limits.versions``; FlowCapReached (and nothing
        written) past ``limits.names`` or ``limits.bytes``."""
        queries = self.connector.queries
        async with self.connector.transaction() as tx:
            row = await tx.fetch_one(queries["flows_next_version"], {"owner": owner, "name": name})
            version = 1 if row is None else int(row["version"])
            record = SavedFlowRecord(
                owner,
                name,
                version,
                description,
                flow,
                params,
                secret,
                hints,
                from_task,
                self._clock(),
            )
            box = self.connector.secrets
            await tx.execute(
                queries["flows_insert"],
                {
                    "owner": owner,
                    "name": name,
                    "version": version,
                    "description": seal_text(box, description),
                    "flow": seal_text(box, json.dumps(flow, ensure_ascii=False)),
                    "params": json.dumps(params, ensure_ascii=False),
                    "secret": json.dumps(secret, ensure_ascii=False),
                    "hints": json.dumps(hints, ensure_ascii=False),
                    "from_task": from_task,
                    "created_at": record.created_at,
                },
            )
            limits = self.limits
            below = {"owner": owner, "name": name, "below": version - limits.versions}
            await tx.execute(queries["flows_prune"], below)
            usage = await tx.fetch_one(queries["flows_usage"], {"owner": owner})
            assert usage is not None
            if version == 1 and int(usage["names"]) > limits.names:
                raise FlowCapReached("names", limits.names)
            if int(usage["bytes"]) > limits.bytes:
                raise FlowCapReached("bytes", limits.bytes)
        return record

    async def get(
        self, owner: str, name: str, version: int | None = None
    ) -> SavedFlowRecord | None:
        """``owner``'s flow ``name`` at ``version`` (the latest when None), or None."""
        queries = self.connector.queries
        async with self.connector.transaction() as tx:
            if version is None:
                row = await tx.fetch_one(
                    queries["flows_get_latest"], {"owner": owner, "name": name}
                )
            else:
                row = await tx.fetch_one(
                    queries["flows_get"], {"owner": owner, "name": name, "version": version}
                )
        return None if row is None else _record(row, self.connector.secrets)

    async def list(self, owner: str, *, after: str = "", limit: int) -> list[SavedFlowEntry]:
        """The latest version of each of ``owner``'s flows named after ``after``, by
        name, at most ``limit``."""
        params = {"owner": owner, "after": after, "limit": limit}
        async with self.connector.transaction() as tx:
            rows = await tx.fetch_all(self.connector.queries["flows_list"], params)
        return [_entry(r, self.connector.secrets) for r in rows]

    async def delete(self, owner: str, name: str) -> int:
        """Delete every version of ``owner``'s flow ``name``; how many there were."""
        async with self.connector.transaction() as tx:
            return await tx.execute(
                self.connector.queries["flows_delete"], {"owner": owner, "name": name}
            )
