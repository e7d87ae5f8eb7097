"""Page sessions kept in the store beside the tokens (migration 0007), so a restart
keeps people signed in and every process on the database knows every session.

:class:`Sessions` runs the named blocks of ``sql/<dialect>/sessions.sql`` on any
connector (SQLite, PostgreSQL, or the in-memory one). A session id is 256 random bits
handed to the browser once; only its SHA-256 is stored, beside the digest
``api_tokens`` keeps of the token it was opened with, so a copy of the database
signs nobody in. Every look-up joins the token's row: a revoked token ends its
sessions in every process at once. A sign-in purges the expired rows (an index
range) and trims the owner's and everyone's sessions to their limits, oldest first,
holding the database's write lock so processes signing people in at once keep them.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gofer.store.tokens import token_digest

if TYPE_CHECKING:
    from gofer.store.connector import Connector

__all__ = ["Sessions", "StoredSession", "session_digest"]


def session_digest(session_id: str) -> str:
    """The stored form of a session id: its SHA-256, hex."""
    return hashlib.sha256(session_id.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredSession:
    """A live session: whose it is and when it ends (seconds since the epoch)."""

    owner: str
    expires_at: float


class Sessions:
    """The page sessions on ``connector``; times are given by the caller."""

    def __init__(self, connector: Connector) -> None:
        self.connector = connector

    async def open(
        self, token: str, *, now: float, ttl_s: float, max_sessions: int, max_per_owner: int
    ) -> tuple[str, StoredSession] | None:
        """A new session id and its session for the owner ``token`` names (None when no
        owner holds it), past the limits the oldest going first."""
        q = self.connector.queries
        session_id = secrets.token_urlsafe(32)
        async with self.connector.transaction() as tx:
            if "sessions_lock" in q:
                await tx.execute(q["sessions_lock"])
            digest = token_digest(token)
            row = await tx.fetch_one(q["tokens_owner_of"], {"digest": digest})
            if row is None:
                return None
            session = StoredSession(str(row["owner"]), now + ttl_s)
            await tx.execute(q["sessions_purge"], {"now": now})
            await tx.execute(
                q["sessions_insert"],
                {
                    "digest": session_digest(session_id),
                    "owner": session.owner,
                    "token_digest": digest,
                    "now": now,
                    "expires_at": session.expires_at,
                },
            )
            await tx.execute(
                q["sessions_trim_owner"], {"owner": session.owner, "keep": max(1, max_per_owner)}
            )
            await tx.execute(q["sessions_trim_all"], {"keep": max(1, max_sessions)})
        return session_id, session

    async def get(self, session_id: str, *, now: float) -> StoredSession | None:
        """The session ``session_id`` names while it lasts: not expired, its token not
        revoked (a stale one is dropped)."""
        digest = session_digest(session_id)
        async with self.connector.snapshot() as tx:
            row = await tx.fetch_one(self.connector.queries["sessions_get"], {"digest": digest})
        if row is None:
            return None
        session = StoredSession(str(row["owner"]), float(row["expires_at"]))
        if session.expires_at <= now or row["token_owner"] != session.owner:
            await self.close(session_id)
            return None
        return session

    async def close(self, session_id: str) -> None:
        """End a session (idempotent)."""
        async with self.connector.transaction() as tx:
            await tx.execute(
                self.connector.queries["sessions_close"], {"digest": session_digest(session_id)}
            )
