"""Grounding hints: remembering which element some words resolved to on a site."""

from __future__ import annotations

from collections.abc import Sequence
from urllib.parse import urlsplit

from gofer.decide.text import normalise
from gofer.decide.types import GroundingHint, Query
from gofer.surfaces.screen import Element, Screen

__all__ = ["GroundingHint", "hint_for", "is_hinted", "learn_hint", "site_of"]


def site_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url`` (lower case), or ``""`` for a non-web address."""
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return ""
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def hint_for(
    query: Query, screen: Screen, hints: Sequence[GroundingHint]
) -> GroundingHint | None:
    """The hint learned for these words, this step kind and this screen's site, if any.

    Hints come newest first: the first that matches wins.
    """
    site = site_of(screen.url)
    words = normalise(query.words)
    for hint in hints:
        if hint.site == site and hint.kind == query.kind and normalise(hint.words) == words:
            return hint
    return None


def learn_hint(query: Query, element: Element, site: str) -> GroundingHint:
    """The hint to remember after ``query`` resolved to ``element`` on ``site``."""
    return GroundingHint(
        site=site, kind=query.kind, words=query.words, role=element.role, name=element.name
    )


def is_hinted(
    query: Query, screen: Screen, hints: Sequence[GroundingHint], element: Element | None
) -> bool:
    """Whether ``element`` is the one a hint remembers for ``query`` on this site (so a
    step that needed the model decider once can go without it)."""
    hint = hint_for(query, screen, hints) if element is not None else None
    return (
        hint is not None and element is not None and element.role == hint.role
        and normalise(element.name) == normalise(hint.name)
    )
