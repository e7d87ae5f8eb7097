"""What a control is called, what it holds and which one an action means: pure rules.

The runtime's acting steps ask these on a screen they have read; nothing here
touches a page.
"""

from __future__ import annotations

import re

from gofer.decide.gates import judge
from gofer.decide.ground import ground
from gofer.decide.kinds import pressable
from gofer.decide.options import match_option
from gofer.decide.prepared import DATE_INPUTS, FIELD_ROLES, label_of
from gofer.decide.text import normalise
from gofer.decide.types import Query, Want
from gofer.safety import Consequence, consequence, screen_payment_evidence
from gofer.surfaces.screen import Box, Element, Screen

__all__ = [
    "ACTION_ROLES",
    "DATE_INPUTS",
    "FIELD_ROLES",
    "OPTION_ROLES",
    "appeared",
    "group_members",
    "label_of",
    "looks",
    "offering_beside",
    "option_refs",
    "pick_action",
    "popup_choices",
    "shows_choice",
    "value_took",
]

OPTION_ROLES = frozenset({"option", "menuitemradio", "menuitem", "gridcell", "treeitem"})
"""Roles of the choices a popup or list shows."""

ACTION_ROLES = frozenset({"button", "link", "clickable", "menuitem"})
"""Roles of the controls a ``stop_before`` may stop in front of."""

_DIGITS = re.compile(r"\d")
_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")
# Words of a stop_before that asks for the paying control: whole words ("display" and
# "border" are not "pay" and "order").
_PAYING = re.compile(
    r"\b(?:pay(?:s|ing|ment)?|purchas(?:e|ing)|check(?:ing)?\s*-?\s*out|"
    r"buy(?:ing)?|order(?:ing)?)\b",
    re.IGNORECASE,
)


def looks(screen: Screen) -> tuple[object, ...]:
    """What a person would notice of a screen: its address, text and control states."""
    return (
        screen.url,
        screen.text,
        screen.dialog_open,
        tuple(
            (e.role, e.name, e.value, e.checked, e.selected, e.expanded, e.disabled, e.visible)
            for e in screen.elements
        ),
    )


def value_took(wanted: str, shown: str) -> bool:
    """Whether a field showing ``shown`` holds ``wanted`` (the page's formatting aside)."""
    if not wanted:
        return not shown
    if _DIGITS.search(wanted) and len(re.sub(r"\D", "", wanted)) >= 6:
        digits_w, digits_s = re.sub(r"\D", "", wanted), re.sub(r"\D", "", shown)
        if digits_w == digits_s:
            return True
        # a country code or a trunk 0 added or dropped, never an empty or short field
        return len(digits_s) >= 6 and (digits_s.endswith(digits_w) or digits_w.endswith(digits_s))
    if _NUMBER.fullmatch(wanted.strip()):
        # A number is held as a number, sign included, never as a piece of another:
        # a field at "0" does not hold 30, nor one at "-5" 5 (units around it aside).
        number = float(wanted)
        return any(float(m.group()) == number for m in _NUMBER.finditer(shown.replace(",", "")))
    w, s = normalise(wanted), normalise(shown)
    return w == s or (bool(s) and w in s)


def option_refs(screen: Screen, roles: frozenset[str] = OPTION_ROLES) -> set[str]:
    """The refs of the visible elements in ``roles`` (the options showing now)."""
    return {e.ref for e in screen.elements if e.visible and e.role in roles}


def appeared(options: list[Element], before: set[str]) -> list[Element]:
    """The options that appeared since ``before`` (the popup just opened), else all."""
    fresh = [o for o in options if o.ref not in before]
    return fresh or options


def popup_choices(
    screen: Screen, before: set[str], roles: frozenset[str] = OPTION_ROLES, *, drawn: bool = True
) -> list[Element]:
    """The choices showing once a popup opened or suggestions came, ``before`` being
    the refs of the elements (of ``roles`` and clickables) visible until then.

    Options in ``roles`` that appeared come first; else role-less clickables that
    appeared (a list drawn as plain elements behind click handlers, its ``option``
    roles, if any, on a copy only screen readers get); else every option showing.
    A clickable that was there before is never taken for a choice; with ``drawn``
    false, none is.
    """
    shown = [e for e in screen.elements if e.visible and not e.disabled]
    options = [e for e in shown if e.role in roles]
    fresh = [o for o in options if o.ref not in before]
    if fresh:
        return fresh
    plain = [e for e in shown if e.role == "clickable" and e.ref not in before] if drawn else []
    return plain or options


_ROW_ROLES = OPTION_ROLES | {"button", "clickable", "menuitem"}
_ROWS_REACH_PX = 600.0


def rows_under(screen: Screen, field: Element) -> list[Element]:
    """The rows showing under ``field`` and across it: a list a filter box sits over."""
    top = field.box.y + field.box.height - 2
    left, right = field.box.x, field.box.x + field.box.width
    return [
        e
        for e in screen.elements
        if e.visible
        and not e.disabled
        and e.role in _ROW_ROLES
        and top <= e.box.y <= top + _ROWS_REACH_PX
        and e.box.x < right
        and e.box.x + e.box.width > left
    ]


def filtered_rows(screen: Screen, field: Element, before: set[str]) -> list[Element]:
    """The rows of the list under a filter box that its typing narrowed: those of
    ``before`` (the rows under it until then) still showing, once some went away;
    none when the typing hid nothing (no list of that box)."""
    rows = rows_under(screen, field)
    if not before - {e.ref for e in rows}:
        return []
    return [e for e in rows if e.ref in before]


def shows_choice(screen: Screen, control: Element, option: str) -> bool:
    """Whether ``control`` shows ``option`` as chosen: in its own name or value, or drawn
    inside its box (a chip or tag, and the remove button a chip carries)."""
    want = normalise(option)
    if not want:
        return False

    def has(text: str | None) -> bool:
        return f" {want} " in f" {normalise(text or '')} "

    if has(control.display_name) or has(control.value):
        return True
    box = control.box

    def inside(b: Box) -> bool:
        return (
            b.x >= box.x - 2
            and b.y >= box.y - 2
            and b.x + b.width <= box.x + box.width + 2
            and b.y + b.height <= box.y + box.height + 2
        )

    return any(inside(line.box) and has(line.text) for line in screen.lines) or any(
        e.visible and e.ref != control.ref and inside(e.box) and has(e.display_name)
        for e in screen.elements
    )


def group_members(screen: Screen, el: Element) -> list[Element]:
    """The elements of ``el``'s role in its group (its radio or checkbox group), or itself.

    Pressed-state buttons with no group of their own are a group by their row."""
    if pressable(el):
        mid = el.box.y + el.box.height / 2
        return [
            e
            for e in screen.elements
            if pressable(e)
            and (e.group == el.group if el.group else abs(e.box.y + e.box.height / 2 - mid) < 8)
            and e.section == el.section
        ]
    if el.group:
        return [e for e in screen.elements if e.group == el.group and e.role == el.role]
    return [el]


_BESIDE_PX = 200.0
"""How far apart a select and the text box it goes with may stand on their row."""


def offering_beside(screen: Screen, el: Element, option: str) -> Element | None:
    """The one select on ``el``'s row, just beside it, that offers ``option``: a text
    box and its select under one label (a namespace dropdown before a title field)."""
    mid = el.box.y + el.box.height / 2
    found = [
        e
        for e in screen.elements
        if e.visible
        and e.ref != el.ref
        and e.options
        and abs(e.box.y + e.box.height / 2 - mid) <= max(e.box.height, el.box.height) / 2
        and min(abs(e.box.x - (el.box.x + el.box.width)), abs(el.box.x - (e.box.x + e.box.width)))
        <= _BESIDE_PX
        and match_option(option, e.options) is not None
    ]
    return found[0] if len(found) == 1 else None


def choice_members(screen: Screen, el: Element, option: str) -> list[Element]:
    """The members of ``el``'s group to choose ``option`` among.

    A group name may span several rows (a fieldset's legend over a Yes/No pair in each
    row); when other members bear ``el``'s own words and those words are the option,
    the grounder already told the row: ``el`` alone is chosen from.
    """
    members = group_members(screen, el)
    own = normalise(label_of(el))
    twins = sum(1 for m in members if normalise(label_of(m)) == own)
    if twins > 1 and own == normalise(option):
        return [el]
    return members


def pick_action(words: str, screen: Screen) -> tuple[Element, float] | None:
    """The control that does the action ``words`` describe, with a confidence."""
    g = ground(Query(words, Want.ACTION, kind="stop_before"), screen)
    if g.element is not None and not g.low_confidence:
        return g.element, g.confidence
    wants_payment = bool(_PAYING.search(words)) or consequence(words) is Consequence.PAYMENT
    ranked: list[tuple[int, float, Element]] = []
    scores = {c.element.ref: c.score for c in g.candidates}
    for el in screen.elements:
        if not el.visible or (el.role not in ACTION_ROLES and el.input_type not in ("submit",)):
            continue
        kind = judge(el, screen)
        if kind is Consequence.REVERSIBLE:
            continue
        rank = 2 if (kind is Consequence.PAYMENT) == wants_payment else 1
        ranked.append((rank, scores.get(el.ref, 0.0), el))
    if ranked:
        ranked.sort(key=lambda r: (r[0], not r[2].disabled, r[1]), reverse=True)
        return ranked[0][2], 0.6 if ranked[0][0] == 2 else 0.4
    sends_card = _card_submit(screen) if wants_payment else None
    if sends_card is not None:
        return sends_card, 0.6
    if g.element is not None:
        return g.element, g.confidence
    return None


_GOING_BACK = frozenset({"back", "previous", "prev", "cancel", "edit", "change", "return"})


def _card_submit(screen: Screen) -> Element | None:
    """The button that sends a card form ("Next", "Continue" under the card fields):
    the nearest submit below the last card field, one that does not go back."""
    cards = [
        e
        for e in screen.elements
        if e.visible
        and e.role in FIELD_ROLES
        and screen_payment_evidence(
            " ".join((e.label, e.placeholder, e.name)), [e.autocomplete] if e.autocomplete else []
        )
    ]
    if not cards:
        return None
    last = max(e.box.y + e.box.height for e in cards)
    sends = [
        e
        for e in screen.elements
        if e.visible
        and not e.disabled
        and (e.input_type == "submit" or (e.role == "button" and e.tag == "button"))
        and e.box.y >= last - 4
        and not set(normalise(label_of(e)).split()) & _GOING_BACK
    ]
    if not sends:
        return None
    return min(sends, key=lambda e: (round(e.box.y - last), -e.box.x))
