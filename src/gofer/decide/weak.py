"""No success on weak evidence: when a grounder's pick is too thin to act on alone.

With no model decider to ask, a step acts only on a control its words name well: a
pick below :data:`~gofer.decide.ground.WEAK` is refused, and so is a pick that only
resembles the words (a spelling, a part of them) while another control on the screen
is named by all of them.
"""

from __future__ import annotations

from gofer.decide.ground import WEAK, Grounding, describe
from gofer.decide.prepared import label_of
from gofer.decide.text import normalise
from gofer.decide.types import Query, Want
from gofer.surfaces.screen import Element

__all__ = ["spelling_guess", "tied_best", "too_weak"]

_THIN = ("fuzzy", "part of the words")
_FULL = ("exact", "words start", "words inside", "all words")


def too_weak(grounding: Grounding, query: Query) -> str:
    """Why ``grounding``'s pick must not be acted on without a second opinion, or ""."""
    top, words = grounding.element, query.words
    if top is None:
        return ""
    if grounding.confidence < WEAK and not _modifier_dropped(grounding, query):
        return grounding.reason or (
            f"the best match for '{words}' is weak ({grounding.confidence:.2f}): {describe(top)}"
        )
    if not grounding.evidence or not grounding.evidence[0].startswith(_THIN):
        return ""
    for other in grounding.candidates:
        if (
            other.element.ref != top.ref
            and other.evidence[:1]
            and (other.evidence[0].startswith(_FULL))
        ):
            return (
                f"{describe(top)} only resembles '{words}', while {describe(other.element)} "
                "is named by them"
            )
    return ""


def tied_best(grounding: Grounding) -> list[Element]:
    """The distinct candidates that score as well as the grounder's pick."""
    if not grounding.candidates:
        return []
    top = grounding.candidates[0].score
    found: list[Element] = []
    for c in grounding.candidates:
        if top - c.score < 1e-6 and all(c.element.ref != e.ref for e in found):
            found.append(c.element)
    return found


def _modifier_dropped(grounding: Grounding, query: Query) -> bool:
    """Whether the weak pick is the one field whose whole name is the head of the words
    asked for ("Real name", "Name of the milestone" and the form's only "Name"): the
    other words only qualify it.
    A field or a list only; what a click does lies in the words it would drop."""
    top = grounding.element
    if top is None or query.want not in (Want.FIELD, Want.CONTROL) or len(tied_best(grounding)) > 1:
        return False
    if not grounding.evidence or not grounding.evidence[0].startswith("part of the words"):
        return False
    name, words = normalise(label_of(top)), normalise(query.words)
    if not name:
        return False
    # the head noun is the field's name: "Real name" ends with it, "Name of the
    # milestone" starts with it before a preposition
    rest = words.removeprefix(name + " ").split(" ", 1)[0] if words.startswith(name + " ") else ""
    return words.endswith(" " + name) or rest in _PREPOSITIONS


_PREPOSITIONS = frozenset({"of", "for", "in", "on", "to", "at", "from", "with", "by"})


def spelling_guess(grounding: Grounding) -> bool:
    """Whether the grounder's pick is weak and rests on spelling alone (a fuzzy match)."""
    return (
        grounding.low_confidence
        and grounding.confidence < WEAK
        and bool(grounding.evidence)
        and grounding.evidence[0].startswith("fuzzy")
    )
