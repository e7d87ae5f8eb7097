"""How a person signs in to the task pages in a browser, and the guard on their forms.

A person signs in once with a token from ``gofer token create`` (the form at
``/login``); the server answers with a session cookie (``HttpOnly``,
``SameSite=Lax``, ``Secure`` over HTTPS) holding a random session id, never the token.
The session is kept in the store beside the tokens (:class:`gofer.store.Sessions`,
only the id's digest at rest), so it outlives a restart and every server on the
database knows it. It lasts :data:`SESSION_TTL_S` and ends at once when the person
signs out or the token is revoked (every request asks the token store again). Each
session has its own anti-forgery token, derived from its id: every form carries it,
and a POST without it, or from another origin, is refused (:data:`FORBIDDEN`).

    sessions = PageSessions(tokens)
    session = await sessions.open(token)    # None for a token no owner holds
    await sessions.get(session.id)          # the session, while it lasts
    await sessions.close(session.id)        # signed out, on every server
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from gofer.api.tokens import TokenStore
from gofer.store.sessions import Sessions

__all__ = [
    "CSRF_FIELD",
    "MAX_SESSIONS",
    "MAX_SESSIONS_PER_OWNER",
    "SESSION_COOKIE",
    "SESSION_TTL_S",
    "PageSession",
    "PageSessions",
    "safe_next",
    "same_origin",
]

SESSION_COOKIE = "gofer_session"
"""The cookie that holds a signed-in person's session id."""

CSRF_FIELD = "csrf"
"""The hidden form field that carries a session's anti-forgery token."""

SESSION_TTL_S = 12 * 3600.0
"""How long a sign-in lasts."""

MAX_SESSIONS = 10_000
"""The most sessions kept at once; the oldest go first."""

MAX_SESSIONS_PER_OWNER = 20
"""The most sessions one owner keeps at once; their oldest goes first, so signing in
again and again never signs another owner out."""


def _form_token(session_id: str) -> str:
    """A session's anti-forgery token: keyed by its id, so nothing more is stored and
    the token tells nothing of the id."""
    mac = hmac.new(session_id.encode("utf-8"), b"gofer page forms", hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode("ascii")


@dataclass(frozen=True, slots=True)
class PageSession:
    """One signed-in browser: whose it is and the token its forms must carry."""

    id: str
    owner: str
    csrf: str
    expires_at: float

    def __repr__(self) -> str:
        return f"PageSession(owner={self.owner!r}, expires_at={self.expires_at})"

    def form_ok(self, sent: str | None) -> bool:
        """Whether a form's anti-forgery token is this session's."""
        return sent is not None and secrets.compare_digest(sent.encode(), self.csrf.encode())


class PageSessions:
    """The signed-in browsers, kept in the store the ``tokens`` are kept in."""

    def __init__(
        self,
        tokens: TokenStore,
        *,
        ttl_s: float = SESSION_TTL_S,
        max_sessions: int = MAX_SESSIONS,
        max_per_owner: int = MAX_SESSIONS_PER_OWNER,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.tokens = tokens
        self._store = Sessions(tokens.connector)
        self._ttl = ttl_s
        self._max = max_sessions
        self._per_owner = max_per_owner
        self._clock = clock

    @property
    def ttl_s(self) -> float:
        """How long a sign-in lasts, in seconds."""
        return self._ttl

    async def open(self, token: str) -> PageSession | None:
        """A new session for the owner ``token`` names; None when no owner holds it."""
        token = token.strip()
        if not token:
            return None
        opened = await self._store.open(
            token,
            now=self._clock(),
            ttl_s=self._ttl,
            max_sessions=self._max,
            max_per_owner=self._per_owner,
        )
        if opened is None:
            return None
        session_id, stored = opened
        return PageSession(session_id, stored.owner, _form_token(session_id), stored.expires_at)

    async def get(self, session_id: str | None) -> PageSession | None:
        """The live session ``session_id`` names: not expired, its token not revoked."""
        if not session_id:
            return None
        stored = await self._store.get(session_id, now=self._clock())
        if stored is None:
            return None
        return PageSession(session_id, stored.owner, _form_token(session_id), stored.expires_at)

    async def close(self, session_id: str | None) -> None:
        """End a session (idempotent)."""
        if session_id:
            await self._store.close(session_id)


def safe_next(target: str | None, default: str = "/tasks") -> str:
    """``target`` when it is a path on this server, else ``default`` (no open redirect)."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return default
    return target


def same_origin(headers: Mapping[str, str], scheme: str) -> bool:
    """Whether a browser's POST came from a page of this server: its ``Origin`` (or,
    without one, its ``Referer``) names the host it was sent to. A request with
    neither is not a browser's cross-site form, and passes."""
    host = headers.get("host", "")
    sent = headers.get("origin") or headers.get("referer")
    if not sent:
        return True
    if sent == "null":
        return False
    try:
        parts = urlsplit(sent)
    except ValueError:  # a malformed Origin is no page of this server's
        return False
    return parts.netloc == host and parts.scheme in (scheme, "http", "https")
