"""What an acting step gets from the run it belongs to: :class:`StepContext`.

The acting steps (``runtime.actions``) see the run only through this narrow
interface, so they need not know the run loop, its reports or its budget rules,
and ``run.py`` can import them without a cycle.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import date
from typing import Protocol

from gofer.decide import Grounding, Query
from gofer.flow import JSONValue
from gofer.runtime.ledger import Ledger
from gofer.runtime.types import FileLimits, TaskFile
from gofer.surfaces import ActionEffect, Surface
from gofer.surfaces.screen import Element, Screen

SOCKETS_QUIET_MS = 300
"""How long the sockets a page talks to its server on stay quiet once it has answered."""

__all__ = ["RangeStart", "RuntimeSettings", "StepContext", "clicker", "filler", "selector", "typer"]


@dataclass(frozen=True, slots=True)
class RuntimeSettings:
    """Timeouts and thresholds of the runtime (milliseconds)."""

    target_timeout_ms: int = 8_000  # how long a target that is not there yet is waited for
    settle_timeout_ms: int = 10_000
    wait_timeout_ms: int = 10_000  # default for `wait` steps
    change_grace_ms: int = 1_000  # how long a click that changed nothing yet may still do so
    download_wait_ms: int = 30_000  # how long a pressed control may take to start its download
    min_confidence: float = 0.3  # below this, with no decider, a grounding is refused
    today: date | None = None  # the date relative dates are read against (default: today)


@dataclass(frozen=True, slots=True)
class RangeStart:
    """A day picked in a range picker that fills its fields only once the range's end
    is picked too (two fields sharing one calendar): the field must show ``day`` by
    the time a later pick ends the range, or by the end of the run."""

    path: str  # the step that picked it
    ref: str
    label: str
    day: date
    hint: str | None = None


class StepContext(Protocol):
    """The run as one acting step sees it."""

    settings: RuntimeSettings
    ranges: list[RangeStart]
    files: dict[str, TaskFile]
    """The files the run holds by name: given to the task, then those its steps kept."""
    file_limits: FileLimits
    ledger: Ledger
    """The values the run typed into the page's fields (see :mod:`gofer.runtime.ledger`)."""
    """Range starts picked and not yet shown by their fields (see :class:`RangeStart`)."""
    """Hides secret values in a text that leaves the run (reasons, reports, events)."""

    @property
    def allow_destructive(self) -> bool:
        """Whether the caller allowed controls that pay or cannot be undone."""
        ...

    def sub(self, text: str) -> str:
        """``text`` with the run's ``${name}`` variables filled in."""
        ...

    def keep(self, path: str, name: str, filename: str, media_type: str, data: bytes) -> TaskFile:
        """Keep a file a step got under ``name``: among the run's files and its records
        (name, type, size and digest); past the operator's count, the step fails."""
        ...

    async def typed(self, path: str, text: str) -> str:
        """An ``enter`` value filled in, one-time codes included (see ``Run.typed``)."""
        ...

    def mask(self, text: str) -> str:
        """``text`` with secret values (and one-time codes typed) as ``${name}``."""
        ...

    def event(self, path: str, event: str, **detail: JSONValue) -> None:
        """Add an event to the run's trace (string details are masked)."""
        ...

    async def browser(self) -> Surface:
        """The browser surface the run acts on."""
        ...

    async def screen(self) -> Screen:
        """The screen as it is now (read once until an action or ``invalidate``), not
        masked: for judging the page; anything taken from it to a reason, an event or
        a report goes through ``mask``."""
        ...

    def invalidate(self) -> None:
        """Forget the screen read last, so the next ``screen`` reads the page again."""
        ...

    async def act(
        self, path: str, what: str, action: Callable[[], Awaitable[ActionEffect]]
    ) -> ActionEffect:
        """Spend one action of the budget on ``action``."""
        ...

    async def wait_change(self, deadline: float) -> bool:
        """Wait until the page changes or ``deadline`` (``perf_counter``) passes."""
        ...

    async def find(self, path: str, query: Query) -> tuple[Element, Screen, Grounding]:
        """Ground ``query``, waiting for the target up to the target timeout."""
        ...

    async def guard(self, path: str, element: Element, screen: Screen, words: str) -> None:
        """Stop in front of a control that pays or cannot be undone, unless allowed; an
        allowed one is told to the run's press hook before it is pressed."""
        ...

    async def check_ledger(self, path: str, before: str, *, leave: bool = True) -> None:
        """Fail when a field the run typed into no longer holds its value (``before``
        says what is about to happen: "clicking 'Save'"); with ``leave``, the field that
        has the focus loses it first, as it does on a click."""
        ...

    async def guard_submit(self, path: str, screen: Screen, key: str) -> None:
        """Stop before a key that submits a card form, unless allowed (then told to the
        run's press hook before it is pressed)."""
        ...


def clicker(browser: Surface, ref: str) -> Callable[[], Awaitable[ActionEffect]]:
    """The action of clicking ``ref``, for :meth:`StepContext.act`."""
    return lambda: browser.click(ref)


def filler(browser: Surface, ref: str, text: str) -> Callable[[], Awaitable[ActionEffect]]:
    """The action of setting the value of ``ref`` to ``text``."""
    return lambda: browser.fill(ref, text)


def selector(browser: Surface, ref: str, label: str) -> Callable[[], Awaitable[ActionEffect]]:
    """The action of selecting the option ``label`` of ``ref``."""
    return lambda: browser.select_option(ref, label)


def typer(browser: Surface, ref: str, text: str) -> Callable[[], Awaitable[ActionEffect]]:
    """The action of typing ``text`` into ``ref`` key by key."""
    return lambda: browser.type_keys(ref, text)
