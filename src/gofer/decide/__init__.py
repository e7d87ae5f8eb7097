"""gofer.decide: the deterministic grounder.

Given a step's words and a :class:`~gofer.surfaces.screen.Screen`, :func:`ground`
chooses the one element to act on, with a confidence and the evidence, and says
when the evidence is too thin so that a model decider need be asked only then.
The other pure rules of a screen live here too: reading values and lists off it
(``reading``), judging flow conditions on it (``conditions``), what covers a
target and how to close it (``overlays``), what a control is called and holds
(``controls``), dates on controls (``dates``) and what pressing a control would do
on its screen, whether the screen is a card form or a wall only a person can pass
(``gates``, refining the word rules of :mod:`gofer.safety`). Everything here is pure:
no I/O, no language model, and nothing here calls back into the runtime. The model
decider asked where the grounder's evidence is thin is a model pass
(:mod:`gofer.decider`).
"""

from __future__ import annotations

from gofer.decide.conditions import NeedsDecider, holds, needs_screen, screen_shows
from gofer.decide.controls import (
    DATE_INPUTS,
    FIELD_ROLES,
    OPTION_ROLES,
    appeared,
    choice_members,
    filtered_rows,
    group_members,
    label_of,
    looks,
    offering_beside,
    option_refs,
    pick_action,
    popup_choices,
    rows_under,
    shows_choice,
    value_took,
)
from gofer.decide.dates import (
    calendar_controls,
    calendar_month,
    calendar_nav,
    calendar_target,
    date_order,
    day_cells,
    day_in_month,
    format_date,
    format_hint,
    format_time,
    is_date_words,
    may_open_picker,
    month_of,
    names_month,
    native_value,
    page_clock,
    reread_date,
    shown_months,
    shows_calendar,
    shows_date,
    shows_time,
    time_hint,
)
from gofer.decide.feedback import SENDING_ROLES, form_errors
from gofer.decide.gates import card_evidence, judge, wall_on
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
from gofer.decide.hidden import FOUND, MAX_OPENERS, found_well, openers
from gofer.decide.hints import GroundingHint, hint_for, is_hinted, learn_hint, learns, site_of
from gofer.decide.kinds import pressable
from gofer.decide.options import (
    OPTION_MIN,
    match_date_cell,
    match_option,
    says_off,
    tick_state,
)
from gofer.decide.overlays import Cover, covering, dismisser, opened_by
from gofer.decide.prepared import box_distance
from gofer.decide.reading import read_list, read_value
from gofer.decide.regions import Region, resolve_regions, resolve_within
from gofer.decide.split import (
    SplitFields,
    other_kind,
    part_option,
    part_shows,
    part_values,
    parts_among,
    split_fields,
)
from gofer.decide.text import Amount, amounts, normalise, symbol_words
from gofer.decide.weak import spelling_guess, tied_best, too_weak
from gofer.decide.when import parse_when

__all__ = [
    "CLOSE_MARGIN",
    "DATE_INPUTS",
    "FIELD_ROLES",
    "FOUND",
    "HINT_FLOOR",
    "MAX_CANDIDATES",
    "MAX_OPENERS",
    "OPTION_MIN",
    "OPTION_ROLES",
    "SENDING_ROLES",
    "WEAK",
    "Amount",
    "Candidate",
    "Cover",
    "Grounding",
    "GroundingHint",
    "NeedsDecider",
    "Query",
    "Region",
    "SplitFields",
    "Want",
    "amounts",
    "appeared",
    "box_distance",
    "calendar_controls",
    "calendar_month",
    "calendar_nav",
    "calendar_target",
    "card_evidence",
    "choice_members",
    "covering",
    "date_order",
    "day_cells",
    "day_in_month",
    "describe",
    "dismisser",
    "filtered_rows",
    "form_errors",
    "format_date",
    "format_hint",
    "format_time",
    "found_well",
    "ground",
    "group_members",
    "hint_for",
    "holds",
    "is_date_words",
    "is_hinted",
    "judge",
    "label_of",
    "learn_hint",
    "learns",
    "looks",
    "match_date_cell",
    "match_option",
    "may_open_picker",
    "month_of",
    "names_month",
    "native_value",
    "needs_screen",
    "normalise",
    "offering_beside",
    "opened_by",
    "openers",
    "option_refs",
    "other_kind",
    "page_clock",
    "parse_when",
    "part_option",
    "part_shows",
    "part_values",
    "parts_among",
    "pick_action",
    "popup_choices",
    "pressable",
    "read_list",
    "read_value",
    "reread_date",
    "resolve_regions",
    "resolve_within",
    "rows_under",
    "says_off",
    "screen_shows",
    "shown_months",
    "shows_calendar",
    "shows_choice",
    "shows_date",
    "shows_time",
    "site_of",
    "spelling_guess",
    "split_fields",
    "symbol_words",
    "tick_state",
    "tied_best",
    "time_hint",
    "too_weak",
    "value_took",
    "wall_on",
]
