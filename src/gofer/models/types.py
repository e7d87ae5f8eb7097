"""The one narrow call every language model answers, and its plain-data types.

A model pass (planner, rescuer, shaper, decider) builds :class:`Message` lists and
gets back a :class:`Completion`: the text, the token usage and why the model
stopped. Every call is first charged to a :class:`CallMeter`, so a task's
``max_model_calls`` bounds all of its model calls, not only the runtime's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from gofer.errors import ModelError

__all__ = [
    "CallMeter",
    "Completion",
    "LanguageModel",
    "Message",
    "Role",
    "Usage",
]

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class Message:
    """One turn of a conversation with a model."""

    role: Role
    content: str


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens one call used, as the endpoint reported them (0 when it did not)."""

    input_tokens: int = 0
    output_tokens: int = 0


@dataclass(frozen=True, slots=True)
class Completion:
    """A model's answer: its text, what it used, and why it stopped.

    ``finish_reason`` is the endpoint's own word (``stop``, ``length``,
    ``content_filter``...), ``"unknown"`` when it gave none.
    """

    text: str
    usage: Usage = Usage()
    finish_reason: str = "stop"
    model: str = ""


class CallMeter:
    """Counts model calls against a limit (``None``: unlimited).

    A pass takes one call from the meter before each request; a meter with nothing
    left refuses with MODEL_BUDGET_SPENT before anything is sent.
    """

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self.used = 0

    @property
    def left(self) -> int | None:
        """Calls still allowed, or None when unlimited."""
        return None if self.limit is None else max(0, self.limit - self.used)

    def take(self) -> None:
        """Charge one call; raises MODEL_BUDGET_SPENT when none is left."""
        if self.limit is not None and self.used >= self.limit:
            raise ModelError(
                f"the task has no model calls left (max_model_calls {self.limit})",
                code="MODEL_BUDGET_SPENT",
                limit=self.limit,
            )
        self.used += 1

    def __repr__(self) -> str:
        return f"CallMeter(limit={self.limit}, used={self.used})"


class LanguageModel(Protocol):
    """A chat model behind one call: messages in; text, usage and finish reason out."""

    @property
    def name(self) -> str:
        """The model's name, for logs and reports."""
        ...

    async def complete(
        self, messages: Sequence[Message], *, meter: CallMeter | None = None
    ) -> Completion:
        """Answer ``messages``; charges ``meter`` one call first. Raises ModelError."""
        ...
