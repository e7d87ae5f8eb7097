"""The types the grounder's modules share: what a step looks for, and what was learned.

A leaf module: it imports nothing else of ``decide``, so the grounder and the hints
can both name these types without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["GroundingHint", "Query", "Want"]


class Want(StrEnum):
    """What kind of element a step is looking for."""

    CLICK = "click"  # buttons, links, tabs, menu items, cards, clickables
    FIELD = "field"  # something to type into
    CONTROL = "control"  # the select, combobox, radio group, tab list or date field to choose in
    OPTION = "option"  # one option among options
    ACTION = "action"  # the control a stop_before stops in front of


@dataclass(frozen=True, slots=True)
class Query:
    """What to look for: the step's target words, what kind of element, and where."""

    words: str
    want: Want
    within: str | None = None
    kind: str = ""  # the step kind (click, enter, choose, stop_before), for hints
    exclude: frozenset[str] = frozenset()  # element refs to skip
    option: str = ""  # for choose: the option words, to find the control that holds them


@dataclass(frozen=True, slots=True)
class GroundingHint:
    """Which element some target words resolved to on a site, to try first next time."""

    site: str  # scheme://host[:port]
    kind: str  # the step kind (click, enter, choose, stop_before)
    words: str  # the target words as written in the step
    role: str
    name: str
    context: str = ""  # the record or section around it, when its name was not unique
    within: str = ""  # the step's within words: the same words elsewhere are another hint
