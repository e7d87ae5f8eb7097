"""Controls out of sight: what to open to find a control a closed menu or section holds.

Admin pages keep a record's actions in a closed menu ("More actions", "⋯", a kebab,
a split button's arrow, a Bootstrap dropdown) and rarely used fields in a collapsed
section. Such controls are not on the screen until what holds them is opened. When a
step's words name nothing on the screen well, :func:`openers` says which controls may
hold it, the likeliest first; the runtime opens each in turn and grounds again.
"""

from __future__ import annotations

import re

from gofer.decide.ground import Grounding
from gofer.decide.regions import Region, resolve_regions
from gofer.decide.text import normalise, symbol_words
from gofer.surfaces.screen import Element, Screen

__all__ = ["FOUND", "MAX_OPENERS", "found_well", "openers"]

FOUND = 0.7
"""A match at least this good (the words, a word prefix or containment) needs no search."""

MAX_OPENERS = 3
"""How many closed menus or sections one step opens at most while looking."""

_OPENING_ROLES = frozenset({"button", "clickable", "link", "menuitem"})
_MENU_WORDS = re.compile(
    r"\b(?:more|actions?|options|menu|overflow|dropdown|drop down|toggle|expand|show all|"
    r"see all|other|manage|settings|kebab|ellipsis)\b"
)
_MENU_SYMBOLS = frozenset({"more", "more actions", "menu", "more options"})


def found_well(grounding: Grounding) -> bool:
    """Whether the grounder found a control the words name well enough not to look further."""
    return (
        grounding.element is not None
        and not grounding.low_confidence
        and grounding.confidence >= FOUND
    )


_CHANGES_VALUE = re.compile(
    r"\b(?:increase|decrease|increment|decrement|plus|minus|add|remove|delete|clear|reset|"
    r"less|fewer)\b"
)
"""Words of a control that changes a value (a stepper, a quantity's + and −): looking
for a control must never press one."""


def _menu_like(el: Element) -> bool:
    words = normalise(el.display_name)
    if el.checked is not None or (words and _CHANGES_VALUE.search(words)):
        return False  # a toggle or a stepper: pressing it changes the data
    if words and _MENU_WORDS.search(words):
        return True
    glyphs = symbol_words(el.text or el.name)
    return bool(glyphs) and glyphs[0] in _MENU_SYMBOLS


def openers(screen: Screen, within: str | None = None) -> list[Element]:
    """The controls that may hold a control not on the screen, the likeliest first.

    A control says it opens something when it is collapsed (``aria-expanded`` false,
    a closed ``<details>``); a menu button often says so only by its words ("More
    actions", "Options") or glyph ("⋯", "⋮"). Menu-like ones come before other
    collapsed ones; within each, those in the page's own content come before the
    page's chrome (the bar above its first heading: a site menu, an account menu), each
    in reading order. With ``within`` words that name a record or a section, only the
    openers inside it: another record's menu is never opened.
    """
    headings = [line.box.y for line in screen.lines if line.heading and line.box.height > 0]
    content_top = min(headings) if headings else None
    region: Region | None = None
    if within and within.strip():
        places = [p for p in resolve_regions(within, screen) if p.kind != "near"]
        if not places:
            return []
        region = places[0]
    ranked: list[tuple[int, bool, int, Element]] = []
    for i, el in enumerate(screen.elements):
        if (
            el.role not in _OPENING_ROLES
            or el.checked is not None
            or not el.visible
            or not el.on_top
            or el.disabled
            or el.expanded is True
        ):
            continue
        if region is not None and not region.contains(el):
            continue
        menu = _menu_like(el)
        if el.expanded is False:
            rank = 0 if menu else 1
        elif menu and el.role != "link":
            rank = 2
        else:
            continue
        chrome = content_top is not None and el.box.y + el.box.height <= content_top
        ranked.append((rank, chrome, i, el))
    ranked.sort(key=lambda r: (r[0], r[1], r[2]))
    return [el for _r, _c, _i, el in ranked]
