"""What covers a step's target, and the control a careful person would close it with.

A consent wall, a newsletter popup or a promotion can sit over the page a flow works
on without the flow mentioning it. The screen says which controls are in the top
layer (``on_top``) and whether a modal dialog is open; from those :func:`covering`
finds the layer over the target: its controls, its name and its words. Then
:func:`dismisser` picks the control that closes it with the least consent given
("Reject all" before "Close"), never one that pays or cannot be undone.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from gofer.decide.text import normalise, symbol_words
from gofer.safety import Consequence, consequence
from gofer.surfaces.screen import Box, Element, Screen

__all__ = ["Cover", "covering", "dismisser", "opened_by"]

# Best first: what a careful person presses to get a wall out of the way while
# agreeing to as little as possible.
_DISMISS: tuple[tuple[str, ...], ...] = (
    ("reject all", "reject all cookies", "refuse all", "decline all", "deny all"),
    (
        "reject",
        "reject cookies",
        "decline",
        "decline cookies",
        "refuse",
        "deny",
        "disagree",
        "i disagree",
        "do not accept",
        "dont accept",
    ),
    (
        "only necessary",
        "necessary only",
        "only necessary cookies",
        "necessary cookies only",
        "use necessary cookies only",
        "allow necessary cookies only",
        "only essential",
        "essential only",
        "only essential cookies",
        "essential cookies only",
        "strictly necessary only",
        "only required",
        "required only",
    ),
    (
        "continue without accepting",
        "continue without agreeing",
        "continue without consent",
        "continue without cookies",
    ),
    (
        "no thanks",
        "no thank you",
        "not now",
        "not interested",
        "maybe later",
        "later",
        "skip",
        "no",
    ),
    (
        "close",
        "close dialog",
        "close this dialog",
        "close banner",
        "close popup",
        "close modal",
        "close window",
        "dismiss",
        "x",
    ),
)
_CONTROL_ROLES = frozenset({"button", "link", "clickable", "menuitem"})
_NEAR_PX = 240.0  # controls of one banner lie within this of each other


@dataclass(frozen=True, slots=True)
class Cover:
    """The layer over a target: its name (heading or label), controls, words and box."""

    name: str
    controls: tuple[Element, ...]
    text: str
    box: Box


def _gap(a: Box, b: Box) -> float:
    dx = max(0.0, max(a.x, b.x) - min(a.x + a.width, b.x + b.width))
    dy = max(0.0, max(a.y, b.y) - min(a.y + a.height, b.y + b.height))
    return float((dx * dx + dy * dy) ** 0.5)


def _union(boxes: list[Box]) -> Box:
    x1 = min(b.x for b in boxes)
    y1 = min(b.y for b in boxes)
    x2 = max(b.x + b.width for b in boxes)
    y2 = max(b.y + b.height for b in boxes)
    return Box(x1, y1, x2 - x1, y2 - y1)


def _banner(anchor: Element, top: list[Element]) -> list[Element]:
    """The top-layer controls that belong with ``anchor``: its section, close together."""
    pool = [e for e in top if e.section == anchor.section] if anchor.section else top
    layer = [anchor]
    rest = [e for e in pool if e is not anchor]
    grew = True
    while grew:
        grew = False
        for e in list(rest):
            if any(_gap(e.box, member.box) <= _NEAR_PX for member in layer):
                layer.append(e)
                rest.remove(e)
                grew = True
    return layer


def covering(screen: Screen, target: Element) -> Cover | None:
    """The layer that covers ``target`` on ``screen``, or None when none can be told.

    With a modal dialog open, or most of the page covered, the top layer is the
    dialog. Otherwise (a banner over part of the page) it is the top-layer controls
    gathered around the one nearest the target, and only when one of them would close
    it: without a modal, a target can look covered when nothing covers it.
    """
    visible = [e for e in screen.elements if e.visible and e.box.width and e.box.height]
    top = [e for e in visible if e.on_top and e.ref != target.ref]
    if not top:
        return None
    covered = sum(1 for e in visible if not e.on_top)
    banner = not (screen.dialog_open or covered * 2 >= len(visible))
    if banner:
        anchor = min(top, key=lambda e: _gap(e.box, target.box))
        layer = _banner(anchor, top)
    else:
        layer = top
    cover = _layer(screen, layer)
    # Controls that merely sit near the target say nothing covers it, unless one of
    # them closes something.
    if banner and dismisser(cover) is None:
        return None
    return cover


def opened_by(before: Screen, after: Screen, target: Element) -> Cover | None:
    """The popup that acting on ``target`` opened, or None when none can be told.

    A prompt that opens when a field gets focus (a newsletter offer, a consent
    question) need not cover the field, and may keep it from taking what is typed:
    its controls are the buttons and links showing on ``after`` that ``before`` did
    not have, gathered around the one nearest the target. It counts only when one of
    them would close it.
    """
    shown = {e.ref for e in before.elements if e.visible}
    fresh = [
        e
        for e in after.elements
        if e.visible
        and e.box.width
        and e.box.height
        and e.ref not in shown
        and e.ref != target.ref
        and (e.role in _CONTROL_ROLES or e.input_type == "button")
    ]
    if not fresh:
        return None
    anchor = min(fresh, key=lambda e: _gap(e.box, target.box))
    cover = _layer(after, _banner(anchor, fresh))
    if dismisser(cover) is None:
        return None
    # the prompt is named by its own words, not by the heading of the page around it
    said = {(line.text, line.box) for line in before.lines}
    words = [
        line
        for line in after.lines
        if (line.text, line.box) not in said and _gap(line.box, cover.box) <= _NEAR_PX
    ]
    if words:
        name = min(words, key=lambda line: _gap(line.box, cover.box)).text
        return Cover(name=name, controls=cover.controls, text=cover.text, box=cover.box)
    return cover


def _layer(screen: Screen, layer: list[Element]) -> Cover:
    """The cover made of ``layer``'s controls: its name, its words and its box."""
    sections = Counter(e.section for e in layer if e.section)
    name = sections.most_common(1)[0][0] if sections else ""
    box = _union([e.box for e in layer])
    if name:
        titles = [
            line.box
            for line in screen.lines
            if normalise(line.text) == normalise(name)
            and line.box.y <= box.y + box.height
            and _gap(line.box, box) <= _NEAR_PX * 2
        ]
        if titles:
            box = _union([box, max(titles, key=lambda b: b.y)])
    lines = [
        line.text
        for line in screen.lines
        if box.y <= line.box.cy <= box.y + box.height
        and line.box.x < box.x + box.width
        and line.box.x + line.box.width > box.x
    ]
    words = [*lines, *(e.name or e.label for e in layer if e.name or e.label)]
    if not name:
        name = lines[0] if lines else layer[0].display_name
    return Cover(name=name, controls=tuple(layer), text="\n".join(words), box=box)


def _rank(el: Element) -> int | None:
    """How good a dismissing control ``el`` is (0 best), or None if it is not one."""
    said = [w for w in (el.name, el.text, el.title, el.label) if w.strip()]
    for words in said:
        glyph = symbol_words(words)
        if glyph and glyph[0] == "close":
            return len(_DISMISS) - 1
    for tier, phrases in enumerate(_DISMISS):
        for words in said:
            folded = normalise(words)
            if folded in phrases:
                return tier
    return None


def dismisser(cover: Cover) -> Element | None:
    """The control in ``cover`` that closes it agreeing to the least, if there is one.

    Only buttons and links are pressed, and never one whose words pay or cannot
    be undone.
    """
    ranked: list[tuple[int, int, Element]] = []
    for order, el in enumerate(cover.controls):
        if el.disabled or (el.role not in _CONTROL_ROLES and el.input_type not in ("button",)):
            continue
        tier = _rank(el)
        if tier is None or consequence(el.display_name or "close") is not Consequence.REVERSIBLE:
            continue
        ranked.append((tier, order, el))
    return min(ranked, key=lambda r: (r[0], r[1]))[2] if ranked else None
