"""Bearer tokens as the faces see them: who a request acts for.

The tokens themselves are kept in the store (:class:`gofer.store.Tokens`, hashed);
:class:`TokenStore` is what the faces ask of them, :class:`MemoryTokenStore` keeps
them in an in-memory connector of its own (tests, one-off servers), and
:func:`bearer_owner` is the one reading of an ``Authorization: Bearer <token>``
header, for the HTTP routes, MCP and the live view alike.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from gofer.errors import ApiError
from gofer.store import Connector, MemoryConnector, Tokens
from gofer.store.tokens import IssuedToken, TokenInfo

__all__ = ["IssuedToken", "MemoryTokenStore", "TokenInfo", "TokenStore", "bearer_owner"]


class TokenStore(Protocol):
    """Where bearer tokens are kept and looked up."""

    connector: Connector
    """The database they are kept in (the page sessions are kept beside them)."""

    async def create(self, owner: str, label: str = "") -> IssuedToken:
        """A new token for ``owner`` (INVALID_REQUEST for a malformed owner)."""
        ...

    async def owner_of(self, token: str) -> str | None:
        """The owner ``token`` acts for, or None for an unknown or revoked one."""
        ...

    async def revoke(self, token_id: str) -> bool:
        """Revoke a token by its id; False when no live token has it."""
        ...

    async def list(self) -> list[TokenInfo]:
        """Every token, oldest first."""
        ...


class MemoryTokenStore(Tokens):
    """Tokens kept in this process only."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__(MemoryConnector(clock=clock), clock=clock)


async def bearer_owner(tokens: TokenStore | None, authorization: str | None) -> str | None:
    """The owner an ``Authorization: Bearer <token>`` header's token acts for; None
    when the header holds no bearer token (missing, empty or another scheme);
    UNAUTHORIZED for a token no owner holds (or with no ``tokens`` to ask)."""
    scheme, _, token = (authorization or "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    found = await tokens.owner_of(token) if tokens is not None else None
    if found is None:
        raise ApiError("the bearer token is not valid", code="UNAUTHORIZED")
    return found
