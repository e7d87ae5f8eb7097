"""Bearer tokens mapped to owners, kept hashed, in the store (migration 0005).

:class:`Tokens` runs the named blocks of ``sql/<dialect>/tokens.sql`` on any connector:
a SQLite file (``gofer token create`` writes the one ``GOFER_TOKENS`` names, ``gofer
serve`` reads it), PostgreSQL, or the in-memory connector (tests, one-off servers).
Only a token's SHA-256 is stored: a token is 256 random bits, so its digest cannot be
walked back, and a copy of the database lets nobody in.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gofer.errors import InvalidRequest

if TYPE_CHECKING:
    from gofer.store.connector import Connector

__all__ = ["PREFIX", "IssuedToken", "TokenInfo", "Tokens", "token_digest"]

PREFIX = "gofer_"
"""What every token starts with (so a leaked one is easy to find in a text)."""

_OWNER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$")
_LABEL_CHARS = 200


def token_digest(token: str) -> str:
    """The stored form of ``token``: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _check_owner(owner: str) -> str:
    if not _OWNER.match(owner):
        raise InvalidRequest(
            "an owner is 1 to 100 letters, digits, '.', '_', '@' or '-', starting with a "
            "letter or digit",
            owner=owner[:100],
        )
    return owner


@dataclass(frozen=True, slots=True)
class TokenInfo:
    """A token as the store lists it: never the token itself."""

    id: str
    owner: str
    label: str
    created_at: float
    revoked_at: float | None


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A token just made: ``token`` is shown once and never kept."""

    token: str
    info: TokenInfo


class Tokens:
    """The bearer tokens on ``connector``; ``clock`` gives seconds since the epoch."""

    def __init__(self, connector: Connector, *, clock: Callable[[], float] = time.time) -> None:
        self.connector = connector
        self._clock = clock

    async def create(self, owner: str, label: str = "") -> IssuedToken:
        """A new token for ``owner`` (INVALID_REQUEST for a malformed owner)."""
        token_id, token = secrets.token_hex(6), PREFIX + secrets.token_urlsafe(32)
        info = TokenInfo(token_id, _check_owner(owner), label[:_LABEL_CHARS], self._clock(), None)
        async with self.connector.transaction() as tx:
            await tx.execute(
                self.connector.queries["tokens_insert"],
                {
                    "id": info.id,
                    "digest": token_digest(token),
                    "owner": info.owner,
                    "label": info.label,
                    "created_at": info.created_at,
                },
            )
        return IssuedToken(token, info)

    async def owner_of(self, token: str) -> str | None:
        """The owner ``token`` acts for, or None for an unknown or revoked one (a read:
        every request looks its token up, and none waits on a writer for it)."""
        async with self.connector.snapshot() as tx:
            row = await tx.fetch_one(
                self.connector.queries["tokens_owner_of"], {"digest": token_digest(token)}
            )
        return None if row is None else str(row["owner"])

    async def revoke(self, token_id: str) -> bool:
        """Revoke a token by its id; False when no live token has it."""
        async with self.connector.transaction() as tx:
            touched = await tx.execute(
                self.connector.queries["tokens_revoke"], {"id": token_id, "now": self._clock()}
            )
        return touched == 1

    async def list(self) -> list[TokenInfo]:
        """Every token, oldest first."""
        async with self.connector.snapshot() as tx:
            rows = await tx.fetch_all(self.connector.queries["tokens_list"])
        return [
            TokenInfo(
                str(r["id"]),
                str(r["owner"]),
                str(r["label"]),
                float(r["created_at"]),
                None if r["revoked_at"] is None else float(r["revoked_at"]),
            )
            for r in rows
        ]
