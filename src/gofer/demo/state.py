"""What the demo site remembers: its visitors' bookings and the events it recorded.

Tests read :attr:`DemoState.events` to see what a visitor did (passenger details
sent, a captcha cleared, a payment made), and :attr:`DemoState.otp_code` to
answer the one-time-code page.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, field
from datetime import date
from typing import Any

__all__ = ["VARIANTS", "Booking", "DemoState", "Visitor", "parse_variants"]

VARIANTS: tuple[str, ...] = ("captcha", "otp", "login", "dead_continue", "injection", "confirm")
"""The site's variants, switched on with ``?variant=NAME`` (comma-separated for several)."""

_PNR_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


def parse_variants(text: str) -> frozenset[str]:
    """The known variant names in ``captcha,otp``-style text; unknown names are ignored."""
    names = {part.strip().lower().replace("-", "_") for part in text.split(",")}
    return frozenset(name for name in names if name in VARIANTS)


@dataclass(slots=True)
class Booking:
    """The booking a visitor is building, step by step."""

    origin: str
    destination: str
    day: date
    return_day: date | None
    adults: int
    flight: str
    fare: str
    passenger: dict[str, str] | None = None
    extras: list[tuple[str, int]] = field(default_factory=list)
    pnr: str | None = None
    finished: str | None = None  # "paid" or "confirmed"


@dataclass(slots=True)
class Visitor:
    """One visitor (one browser), known by a session cookie."""

    variants: frozenset[str] = frozenset()
    captcha_solved: bool = False
    signed_in: str | None = None  # the email they signed in with
    otp_verified: bool = False
    booking: Booking | None = None

    def reset_walls(self) -> None:
        """Forget the walls already passed (when the visitor switches variants)."""
        self.captcha_solved = False
        self.signed_in = None
        self.otp_verified = False


class DemoState:
    """Everything one demo site instance remembers while it runs."""

    def __init__(self, seed: int, today: date) -> None:
        self.seed = seed
        self.today = today
        self.otp_code = f"{random.Random(f'otp|{seed}').randrange(1_000_000):06d}"
        self.events: list[dict[str, Any]] = []
        self._visitors: dict[str, Visitor] = {}
        self._pnrs = random.Random(f"pnr|{seed}")

    def new_visitor(self) -> tuple[str, Visitor]:
        """A fresh visitor and its session id."""
        sid = secrets.token_urlsafe(16)
        visitor = Visitor()
        self._visitors[sid] = visitor
        return sid, visitor

    def visitor(self, sid: str | None) -> Visitor | None:
        """The visitor with this session id, if the site knows it."""
        return self._visitors.get(sid) if sid else None

    def record(self, kind: str, **data: Any) -> dict[str, Any]:
        """Append an event ``{"kind": kind, **data}`` and return it."""
        event = {"kind": kind, **data}
        self.events.append(event)
        return event

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        """The recorded events of one kind, oldest first."""
        return [event for event in self.events if event["kind"] == kind]

    def new_pnr(self) -> str:
        """A booking reference like ``K7Q2XZ`` (deterministic for the seed)."""
        return "".join(self._pnrs.choice(_PNR_LETTERS) for _ in range(6))
