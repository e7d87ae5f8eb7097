"""What is wrong with a flow: one :class:`Problem` per fault, each with a stable code.

Every code is part of the public contract; callers and models repair flows by them.

==================  ============================================================
code                meaning
==================  ============================================================
NOT_A_FLOW          the top level is not a JSON object, a list of steps, or JSON
EMPTY_FLOW          the flow has no steps
UNKNOWN_KIND        a step's key is not a step kind (``{"navigate": ...}``)
NO_KIND             a step has no kind key at all (``{"into": "Email"}``)
MULTIPLE_KINDS      a step has two kind keys (``{"click": ..., "press": ...}``)
MISSING_FIELD       a required field is missing (``enter`` without ``into``)
WRONG_TYPE          a field holds the wrong JSON type (a number where words go)
UNKNOWN_FIELD       a key that is neither a field of the step's kind nor a modifier
EMPTY_TARGET        blank words where words must name something (``click``,
                    ``into``, ``in``, ``within``, ``option``, ``stop_before``...)
BAD_CONDITION       a condition that is not one of the condition forms
REPEAT_MAX_RANGE    ``repeat_until.max`` below 1 or above 50
TIMEOUT_RANGE       ``wait.timeout_ms`` below 1 or above 120000
TOO_DEEP            steps nested more than 8 levels deep
TOO_MANY_STEPS      more than 200 steps, counted over every nesting level
SECRET_MISPLACED    a secret fact used anywhere but an ``enter`` step's value
BAD_ADDRESS         a ``browse`` address that is not http or https
BAD_VAR_NAME        a ``${...}`` or variable name with characters outside
                    letters, digits, spaces, hyphens and underscores
BAD_KEY             a ``press`` step with no key name
BAD_SURFACE         a ``surface`` other than ``browser`` or ``desktop``
MISSING_VALUE       (``substitute`` only) a ``${name}`` with no value to put in
==================  ============================================================

A problem's ``path`` names the step: ``"3"`` is the fourth top-level step,
``"5.then.1"`` the second step of the sixth step's ``then`` list. Problems about
the flow as a whole (its ``vars``, its ``steps`` list, its size) have path ``""``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

__all__ = ["PROBLEM_CODES", "FlowCheck", "Problem", "ProblemCode", "where"]


class ProblemCode(StrEnum):
    """The stable codes a :class:`Problem` carries."""

    NOT_A_FLOW = "NOT_A_FLOW"
    EMPTY_FLOW = "EMPTY_FLOW"
    UNKNOWN_KIND = "UNKNOWN_KIND"
    NO_KIND = "NO_KIND"
    MULTIPLE_KINDS = "MULTIPLE_KINDS"
    MISSING_FIELD = "MISSING_FIELD"
    WRONG_TYPE = "WRONG_TYPE"
    UNKNOWN_FIELD = "UNKNOWN_FIELD"
    EMPTY_TARGET = "EMPTY_TARGET"
    BAD_CONDITION = "BAD_CONDITION"
    REPEAT_MAX_RANGE = "REPEAT_MAX_RANGE"
    TIMEOUT_RANGE = "TIMEOUT_RANGE"
    TOO_DEEP = "TOO_DEEP"
    TOO_MANY_STEPS = "TOO_MANY_STEPS"
    SECRET_MISPLACED = "SECRET_MISPLACED"
    BAD_ADDRESS = "BAD_ADDRESS"
    BAD_VAR_NAME = "BAD_VAR_NAME"
    BAD_KEY = "BAD_KEY"
    BAD_SURFACE = "BAD_SURFACE"
    MISSING_VALUE = "MISSING_VALUE"


PROBLEM_CODES: dict[str, str] = {
    ProblemCode.NOT_A_FLOW: "the top level is not a JSON object, a list of steps, or JSON text",
    ProblemCode.EMPTY_FLOW: "the flow has no steps",
    ProblemCode.UNKNOWN_KIND: "a step's key is not one of the step kinds",
    ProblemCode.NO_KIND: "a step has no kind key",
    ProblemCode.MULTIPLE_KINDS: "a step has more than one kind key",
    ProblemCode.MISSING_FIELD: "a required field is missing",
    ProblemCode.WRONG_TYPE: "a field holds the wrong JSON type",
    ProblemCode.UNKNOWN_FIELD: "a key that is neither a field of the step's kind nor a modifier",
    ProblemCode.EMPTY_TARGET: "blank words where words must name something",
    ProblemCode.BAD_CONDITION: "a condition that is not one of the condition forms",
    ProblemCode.REPEAT_MAX_RANGE: "repeat_until.max is below 1 or above 50",
    ProblemCode.TIMEOUT_RANGE: "wait.timeout_ms is below 1 or above 120000",
    ProblemCode.TOO_DEEP: "steps nested more than 8 levels deep",
    ProblemCode.TOO_MANY_STEPS: "more than 200 steps, counted over every nesting level",
    ProblemCode.SECRET_MISPLACED: "a secret fact used anywhere but an enter step's value",
    ProblemCode.BAD_ADDRESS: "a browse address that is not http or https",
    ProblemCode.BAD_VAR_NAME: "a variable name with characters other than letters, digits, "
    "spaces, hyphens and underscores",
    ProblemCode.BAD_KEY: "a press step with no key name",
    ProblemCode.BAD_SURFACE: "a surface other than browser or desktop",
    ProblemCode.MISSING_VALUE: "a ${name} with no value to substitute",
}


def where(path: str) -> str:
    """How a message names the place a problem is at: ``step 5.then.1`` or ``the flow``."""
    return f"step {path}" if path else "the flow"


@dataclass(frozen=True, slots=True)
class Problem:
    """One fault in a flow: a stable ``code``, the step ``path``, and plain words."""

    code: str
    path: str
    message: str
    field: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The problem as a JSON-ready object."""
        return {
            "code": str(self.code),
            "path": self.path,
            "field": self.field,
            "message": self.message,
        }


@dataclass(frozen=True, slots=True)
class FlowCheck:
    """Everything wrong with a flow (``problems``) and the names to ask for (``questions``)."""

    problems: tuple[Problem, ...] = ()
    questions: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """True when the flow has no problems (questions may still need answers)."""
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        """The check as a JSON-ready object."""
        return {
            "ok": self.ok,
            "problems": [p.to_dict() for p in self.problems],
            "questions": list(self.questions),
        }
