"""gofer.decide: the deterministic grounder.

Given a step's words and a :class:`~gofer.surfaces.screen.Screen`, :func:`ground`
chooses the one element to act on, with a confidence and the evidence, and says
when the evidence is too thin so that a model decider need be asked only then.
Everything here is pure: no I/O, and nothing here calls back into the runtime.
"""

from __future__ import annotations

from gofer.decide.ground import (
    CLOSE_MARGIN,
    HINT_FLOOR,
    MAX_CANDIDATES,
    WEAK,
    Candidate,
    Grounding,
    Query,
    Want,
    describe,
    ground,
)
from gofer.decide.hints import GroundingHint, hint_for, learn_hint, site_of
from gofer.decide.options import OPTION_MIN, match_date_cell, match_option
from gofer.decide.regions import Region, resolve_regions, resolve_within
from gofer.decide.text import Amount, amounts, normalise, symbol_words
from gofer.decide.when import parse_when

__all__ = [
    "CLOSE_MARGIN",
    "HINT_FLOOR",
    "MAX_CANDIDATES",
    "OPTION_MIN",
    "WEAK",
    "Amount",
    "Candidate",
    "Grounding",
    "GroundingHint",
    "Query",
    "Region",
    "Want",
    "amounts",
    "describe",
    "ground",
    "hint_for",
    "learn_hint",
    "match_date_cell",
    "match_option",
    "normalise",
    "parse_when",
    "resolve_regions",
    "resolve_within",
    "site_of",
    "symbol_words",
]
