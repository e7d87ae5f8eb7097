"""Grounding hints: remembering which element some words resolved to on a site."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from gofer.decide.text import normalise
from gofer.decide.types import GroundingHint, Query
from gofer.surfaces.screen import Element, Screen

__all__ = [
    "CONTEXT_CHARS",
    "GroundingHint",
    "hint_for",
    "hint_names",
    "is_hinted",
    "learn_hint",
    "learns",
    "site_of",
]

CONTEXT_CHARS = 200
"""How much of the record or section around an element a hint keeps."""


def site_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url`` (lower case), or ``""`` for a non-web address."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return ""
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def _key(words: str) -> str:
    """Words as a hint knows them: normalised, or as written when they are only a glyph
    ("+" and "−" are two controls)."""
    return normalise(words) or words.strip()


def hint_for(query: Query, screen: Screen, hints: Sequence[GroundingHint]) -> GroundingHint | None:
    """The hint learned for these words, this step kind, these ``within`` words and this
    screen's site, if any ("Start thread" on the page and "Start thread" within the
    panel it opens are two hints).

    Hints come newest first: the first that matches wins.
    """
    site = site_of(screen.url)
    words = _key(query.words)
    within = normalise(query.within or "")
    for hint in hints:
        if (
            hint.site == site
            and hint.kind == query.kind
            and _key(hint.words) == words
            and normalise(hint.within) == within
        ):
            return hint
    return None


def _context(element: Element, screen: Screen) -> str:
    """The words around ``element`` that tell it from others of its name: its record's
    text, else its section."""
    if element.record is not None:
        group, index = element.record
        if group < len(screen.records) and index < len(screen.records[group].records):
            return screen.records[group].records[index].text[:CONTEXT_CHARS]
    return element.section[:CONTEXT_CHARS]


def _namesakes(element: Element, screen: Screen) -> bool:
    name = normalise(element.name)
    return any(
        el.ref != element.ref and el.role == element.role and normalise(el.name) == name
        for el in screen.elements
    )


_MEMBERS = frozenset(
    {"radio", "checkbox", "switch", "option", "tab", "button", "menuitemradio", "menuitemcheckbox"}
)


def learns(query: Query, element: Element) -> bool:
    """Whether a hint may remember ``element`` for ``query``'s words: not for a control
    with no name, nor for one member of a group a choose found through its option,
    which the same words with another option do not name."""
    if not normalise(element.name):
        return False  # a control with no name of its own: a hint could not find it again
    if not query.option or element.role not in _MEMBERS:
        return True
    return normalise(element.display_name) == normalise(query.words)


def learn_hint(
    query: Query, element: Element, site: str, screen: Screen | None = None
) -> GroundingHint:
    """The hint to remember after ``query`` resolved to ``element`` on ``site``.

    When ``screen`` holds other elements of the same role and name (a "Select" in
    every result), the hint also keeps the record or section around this one, so it
    names this one again only where that context is the same.
    """
    context = (
        _context(element, screen) if screen is not None and _namesakes(element, screen) else ""
    )
    return GroundingHint(
        site=site,
        kind=query.kind,
        words=query.words,
        role=element.role,
        name=element.name,
        context=context,
        within=query.within or "",
    )


def hint_names(hint: GroundingHint, element: Element, screen: Screen) -> bool:
    """Whether ``element`` is the element ``hint`` remembers (its role and name, and its
    context when the hint kept one)."""
    return (
        element.role == hint.role
        and normalise(element.name) == normalise(hint.name)
        and (not hint.context or _context(element, screen) == hint.context)
    )


def is_hinted(
    query: Query, screen: Screen, hints: Sequence[GroundingHint], element: Element | None
) -> bool:
    """Whether ``element`` is the one a hint remembers for ``query`` on this site (so a
    step that needed the model decider once can go without it)."""
    hint = hint_for(query, screen, hints) if element is not None else None
    return hint is not None and element is not None and hint_names(hint, element, screen)
