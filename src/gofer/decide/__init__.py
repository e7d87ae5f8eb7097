"""gofer.decide: the deterministic grounder.

Given a step's words and a :class:`~gofer.surfaces.screen.Screen`, :func:`ground`
chooses the one element to act on, with a confidence and the evidence, and says
when the evidence is too thin so that a model decider need be asked only then.
The other pure rules of a screen live here too: reading values and lists off it
(``reading``), judging flow conditions on it (``conditions``), what covers a
target and how to close it (``overlays``), what a control is called and holds
(``controls``), dates on controls (``dates``) and what pressing a control would do
on its screen, whether the screen is a card form or a wall only a person can pass
(``gates``, refining the word rules of :mod:`gofer.safety`). Everything here is pure (no I/O,
and nothing here calls back into the runtime) but the model decider
(``decider``, :class:`VotingDecider`), which asks the language model it is handed
where the grounder's evidence is thin, by vote (``votes``).
"""

from __future__ import annotations

from gofer.decide.conditions import NeedsDecider, holds, needs_screen, screen_shows
from gofer.decide.controls import label_of, pick_action, value_took
from gofer.decide.dates import native_value
from gofer.decide.decider import Allowance, Decision, Verdict, VotingDecider
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
from gofer.decide.hints import GroundingHint, hint_for, is_hinted, learn_hint, site_of
from gofer.decide.options import OPTION_MIN, match_date_cell, match_option
from gofer.decide.overlays import Cover, covering, dismisser
from gofer.decide.reading import read_list, read_value
from gofer.decide.regions import Region, resolve_regions, resolve_within
from gofer.decide.text import Amount, amounts, normalise, symbol_words
from gofer.decide.votes import DEFAULT_VOTES, Deliberation, Strategy
from gofer.decide.when import parse_when

__all__ = [
    "CLOSE_MARGIN",
    "DEFAULT_VOTES",
    "HINT_FLOOR",
    "MAX_CANDIDATES",
    "OPTION_MIN",
    "WEAK",
    "Allowance",
    "Amount",
    "Candidate",
    "Cover",
    "Decision",
    "Deliberation",
    "Grounding",
    "GroundingHint",
    "NeedsDecider",
    "Query",
    "Region",
    "Strategy",
    "Verdict",
    "VotingDecider",
    "Want",
    "amounts",
    "covering",
    "describe",
    "dismisser",
    "ground",
    "hint_for",
    "holds",
    "is_hinted",
    "label_of",
    "learn_hint",
    "match_date_cell",
    "match_option",
    "native_value",
    "needs_screen",
    "normalise",
    "parse_when",
    "pick_action",
    "read_list",
    "read_value",
    "resolve_regions",
    "resolve_within",
    "screen_shows",
    "site_of",
    "symbol_words",
    "value_took",
]
