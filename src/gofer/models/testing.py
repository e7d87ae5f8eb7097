"""Models for tests that send nothing anywhere: scripted answers, or a function.

Both record every conversation they were given in ``calls``, and both charge the
meter like a real model, so budgets are tested as they run.
"""

from __future__ import annotations

import inspect
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TypeAlias

from gofer.errors import ModelError
from gofer.models.types import CallMeter, Completion, Message

__all__ = ["FunctionModel", "ModelFunction", "ScriptedModel"]

Answer: TypeAlias = "str | Completion | BaseException"
ModelFunction: TypeAlias = Callable[
    [Sequence[Message]], "str | Completion | Awaitable[str | Completion]"
]


def _completion(answer: str | Completion, name: str) -> Completion:
    return answer if isinstance(answer, Completion) else Completion(text=answer, model=name)


class ScriptedModel:
    """Answers each call with the next scripted answer: text, a :class:`Completion`, or
    an exception to raise. With the script used up it raises MODEL_ERROR."""

    def __init__(self, answers: Iterable[Answer] = (), *, name: str = "scripted") -> None:
        self._answers: deque[Answer] = deque(answers)
        self._name = name
        self.calls: list[list[Message]] = []

    @property
    def name(self) -> str:
        """The name given at construction."""
        return self._name

    def add(self, *answers: Answer) -> None:
        """Append answers to the script."""
        self._answers.extend(answers)

    @property
    def left(self) -> int:
        """Answers not yet given."""
        return len(self._answers)

    async def complete(
        self, messages: Sequence[Message], *, meter: CallMeter | None = None
    ) -> Completion:
        """The next scripted answer."""
        if meter is not None:
            meter.take()
        self.calls.append(list(messages))
        if not self._answers:
            raise ModelError("the scripted model has no answers left", code="MODEL_ERROR")
        answer = self._answers.popleft()
        if isinstance(answer, BaseException):
            raise answer
        return _completion(answer, self._name)


class FunctionModel:
    """Answers each call with ``function(messages)`` (sync or async)."""

    def __init__(self, function: ModelFunction, *, name: str = "function") -> None:
        self._function = function
        self._name = name
        self.calls: list[list[Message]] = []

    @property
    def name(self) -> str:
        """The name given at construction."""
        return self._name

    async def complete(
        self, messages: Sequence[Message], *, meter: CallMeter | None = None
    ) -> Completion:
        """What the function answers."""
        if meter is not None:
            meter.take()
        self.calls.append(list(messages))
        made = self._function(messages)
        answer = await made if inspect.isawaitable(made) else made
        return _completion(answer, self._name)
