"""Bearer tokens mapped to owners, kept hashed.

:class:`TokenStore` is the interface the faces use; :class:`MemoryTokenStore` keeps
tokens in memory (tests, one-off servers) and :class:`SqliteTokenStore` in a SQLite
file of its own (``gofer token create`` writes it, ``gofer serve`` reads it). Only a
token's SHA-256 is stored: a token is 256 random bits, so its digest cannot be walked
back, and a copy of the file lets nobody in.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Protocol

from gofer.errors import ApiError, InvalidRequest
from gofer.store.files import private_file

__all__ = [
    "IssuedToken",
    "MemoryTokenStore",
    "SqliteTokenStore",
    "TokenInfo",
    "TokenStore",
    "bearer_owner",
    "token_digest",
]

PREFIX = "gofer_"
_OWNER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$")


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


class TokenStore(Protocol):
    """Where bearer tokens are kept and looked up."""

    def create(self, owner: str, label: str = "") -> IssuedToken:
        """A new token for ``owner`` (INVALID_REQUEST for a malformed owner)."""
        ...

    def owner_of(self, token: str) -> str | None:
        """The owner ``token`` acts for, or None for an unknown or revoked one."""
        ...

    def revoke(self, token_id: str) -> bool:
        """Revoke a token by its id; False when no live token has it."""
        ...

    def list(self) -> list[TokenInfo]:
        """Every token, oldest first."""
        ...


def bearer_owner(tokens: TokenStore | None, authorization: str | None) -> str | None:
    """The owner an ``Authorization: Bearer <token>`` header's token acts for; None
    when the header holds no bearer token (missing, empty or another scheme);
    UNAUTHORIZED for a token no owner holds (or with no ``tokens`` to ask)."""
    scheme, _, token = (authorization or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    found = tokens.owner_of(token) if tokens is not None else None
    if found is None:
        raise ApiError("the bearer token is not valid", code="UNAUTHORIZED")
    return found


def _new_token() -> tuple[str, str]:
    return secrets.token_hex(6), PREFIX + secrets.token_urlsafe(32)


class MemoryTokenStore:
    """Tokens kept in this process only."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._rows: dict[str, tuple[str, TokenInfo]] = {}

    def create(self, owner: str, label: str = "") -> IssuedToken:
        """A new token for ``owner``."""
        token_id, token = _new_token()
        info = TokenInfo(token_id, _check_owner(owner), label, self._clock(), None)
        self._rows[token_id] = (token_digest(token), info)
        return IssuedToken(token, info)

    def owner_of(self, token: str) -> str | None:
        """The owner of a live ``token``."""
        digest = token_digest(token)
        for stored, info in self._rows.values():
            if secrets.compare_digest(stored, digest) and info.revoked_at is None:
                return info.owner
        return None

    def revoke(self, token_id: str) -> bool:
        """Revoke the token ``token_id``."""
        row = self._rows.get(token_id)
        if row is None or row[1].revoked_at is not None:
            return False
        digest, info = row
        self._rows[token_id] = (
            digest,
            TokenInfo(info.id, info.owner, info.label, info.created_at, self._clock()),
        )
        return True

    def list(self) -> list[TokenInfo]:
        """Every token, oldest first."""
        return sorted(
            (info for _d, info in self._rows.values()), key=lambda i: (i.created_at, i.id)
        )


def _queries() -> dict[str, str]:
    """The named SQL blocks of tokens.sql."""
    text = resources.files("gofer.api").joinpath("tokens.sql").read_text(encoding="utf-8")
    blocks: dict[str, str] = {}
    name: str | None = None
    for line in text.splitlines():
        if line.startswith("-- name:"):
            name = line.removeprefix("-- name:").strip()
            blocks[name] = ""
        elif name is not None and not line.startswith("--"):
            blocks[name] += line + "\n"
    return {key: sql.strip() for key, sql in blocks.items()}


class SqliteTokenStore:
    """Tokens in a SQLite file of their own (made, with its folder, on first use).

    The file is separate from the task ledgers, so the store can move onto them (or
    onto PostgreSQL) behind the same interface.
    """

    VERSION = 1

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._sql = _queries()
        self._lock = threading.Lock()
        private_file(self.path)  # 0600 (its -wal and -shm too), in a folder made 0700
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        with self._lock:
            version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
            if version < self.VERSION:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(self._sql["migrate_1"])
                self._db.execute(f"PRAGMA user_version={self.VERSION}")
                self._db.execute("COMMIT")

    def close(self) -> None:
        """Close the file (idempotent)."""
        self._db.close()

    def create(self, owner: str, label: str = "") -> IssuedToken:
        """A new token for ``owner``."""
        token_id, token = _new_token()
        info = TokenInfo(token_id, _check_owner(owner), label[:200], self._clock(), None)
        with self._lock:
            self._db.execute(
                self._sql["insert_token"],
                {
                    "id": info.id,
                    "digest": token_digest(token),
                    "owner": info.owner,
                    "label": info.label,
                    "created_at": info.created_at,
                },
            )
        return IssuedToken(token, info)

    def owner_of(self, token: str) -> str | None:
        """The owner of a live ``token``."""
        with self._lock:
            row = self._db.execute(self._sql["owner_of"], {"digest": token_digest(token)})
            found = row.fetchone()
        return str(found[0]) if found else None

    def revoke(self, token_id: str) -> bool:
        """Revoke the token ``token_id``."""
        with self._lock:
            cursor = self._db.execute(
                self._sql["revoke_token"], {"id": token_id, "now": self._clock()}
            )
        return cursor.rowcount == 1

    def list(self) -> list[TokenInfo]:
        """Every token, oldest first."""
        with self._lock:
            rows = self._db.execute(self._sql["list_tokens"]).fetchall()
        return [
            TokenInfo(
                str(r[0]), str(r[1]), str(r[2]), float(r[3]), None if r[4] is None else float(r[4])
            )
            for r in rows
        ]
