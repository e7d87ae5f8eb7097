"""Per-screen precomputation: every normalised string the grounder needs, once.

A screen is immutable, so its normalised element names, record texts, section names
and text lines are computed the first time a query touches it and then reused for
every later query on the same :class:`Screen` object (a small cache keyed by
identity; it keeps the screen alive, so an id is never reused while cached).
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from gofer.decide.text import normalise, stem_tokens, symbol_words
from gofer.surfaces.screen import Box, Element, Screen, TextLine

__all__ = [
    "DATE_INPUTS",
    "FIELD_ROLES",
    "ElementInfo",
    "Prepared",
    "Source",
    "box_distance",
    "label_of",
    "prepare",
]

FIELD_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "textarea"})
"""Roles one can type into."""
DATE_INPUTS = frozenset({"date", "time", "datetime-local", "month", "week"})
"""The input types of native date and time controls."""


def label_of(el: Element) -> str:
    """The words a person would call ``el`` by, for reports and reasons: its
    :attr:`~gofer.surfaces.screen.Element.display_name`, else its role."""
    return el.display_name or el.role


_CACHE_SIZE = 16
_NEAR_LABEL_PX = 90.0


@dataclass(frozen=True, slots=True)
class Source:
    """One name an element goes by: which field it came from and its normalised form."""

    field: str  # "name", "label", "placeholder", "text", "title", "group", "nearby", "symbol"
    norm: str
    stems: frozenset[str]


@dataclass(frozen=True, slots=True)
class ElementInfo:
    """An element with its precomputed names and its reading-order index."""

    index: int
    element: Element
    sources: tuple[Source, ...]
    is_field: bool


@dataclass(frozen=True, slots=True)
class Prepared:
    """Everything about one screen that does not depend on the query."""

    screen: Screen
    elements: tuple[ElementInfo, ...]
    record_texts: dict[tuple[int, int], tuple[str, tuple[str, ...]]]  # norm text, norm lines
    line_norms: tuple[str, ...]
    sections: dict[str, frozenset[str]]  # normalised section name -> raw names
    groups: dict[str, frozenset[str]]  # normalised group name -> raw names


_cache: OrderedDict[int, Prepared] = OrderedDict()


def prepare(screen: Screen) -> Prepared:
    """The :class:`Prepared` data for ``screen``, from the cache when it is there."""
    key = id(screen)
    hit = _cache.get(key)
    if hit is not None and hit.screen is screen:
        _cache.move_to_end(key)
        return hit
    prepared = _build(screen)
    _cache[key] = prepared
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return prepared


def is_field(el: Element) -> bool:
    """Whether ``el`` takes typed text."""
    return (
        el.role in FIELD_ROLES
        or el.editable
        or el.input_type in DATE_INPUTS
        or el.tag == "textarea"
    )


def _build(screen: Screen) -> Prepared:
    memo: dict[str, Source | None] = {}

    def source(field: str, raw: str) -> Source | None:
        key = field + "\x00" + raw
        if key not in memo:
            norm = normalise(raw)
            memo[key] = Source(field, norm, stem_tokens(norm)) if norm else None
        return memo[key]

    lines = screen.lines
    infos: list[ElementInfo] = []
    sections: dict[str, set[str]] = {}
    groups: dict[str, set[str]] = {}
    for i, el in enumerate(screen.elements):
        field_like = is_field(el)
        srcs: list[Source] = []
        seen: set[str] = set()
        fields = [
            ("name", el.name),
            ("label", el.label),
            ("placeholder", el.placeholder),
            ("text", el.text),
            ("title", el.title),
            ("group", el.group),
        ]
        if field_like and not el.label:
            near = _nearby_label(el.box, lines)
            if near:
                fields.append(("nearby", near))
        for field, raw in fields:
            if not raw:
                continue
            s = source(field, raw)
            if s is None:
                # A lone icon glyph ("+", "›", "×") names the control by what it does.
                for word in symbol_words(raw) if field in ("name", "text") else ():
                    meaning = source("symbol", word)
                    if meaning is not None and meaning.norm not in seen:
                        seen.add(meaning.norm)
                        srcs.append(meaning)
                continue
            if s.norm in seen and field != "group":
                continue
            seen.add(s.norm)
            srcs.append(s)
        infos.append(ElementInfo(i, el, tuple(srcs), field_like))
        if el.section:
            sections.setdefault(normalise(el.section), set()).add(el.section)
        if el.group:
            groups.setdefault(normalise(el.group), set()).add(el.group)
    record_texts: dict[tuple[int, int], tuple[str, tuple[str, ...]]] = {}
    for g, group in enumerate(screen.records):
        for r, rec in enumerate(group.records):
            norm_lines = tuple(normalise(line) for line in rec.lines)
            record_texts[(g, r)] = (" ".join(norm_lines), norm_lines)
    return Prepared(
        screen=screen,
        elements=tuple(infos),
        record_texts=record_texts,
        line_norms=tuple(normalise(line.text) for line in lines),
        sections={k: frozenset(v) for k, v in sections.items()},
        groups={k: frozenset(v) for k, v in groups.items()},
    )


def _nearby_label(box: Box, lines: tuple[TextLine, ...]) -> str:
    """The text just left of a field on its row, or just above it: an unlinked label."""
    if box.width <= 0 and box.height <= 0:
        return ""
    best = ""
    best_d = _NEAR_LABEL_PX
    for line in lines:
        lb = line.box
        if lb.width <= 0 and lb.height <= 0:
            continue
        same_row = abs(lb.cy - box.cy) <= max(box.height, 12.0) / 2 + 4
        if same_row and lb.x + lb.width <= box.x + 4:
            d = box.x - (lb.x + lb.width)
        elif (
            lb.y + lb.height <= box.y + 4
            and lb.x < box.x + box.width
            and lb.x + lb.width > box.x - 4
        ):
            d = box.y - (lb.y + lb.height) + 15  # a label beside beats one above
        else:
            continue
        if line.heading:
            d += 30  # a heading names a part of the page more often than one field
        if 0 <= d < best_d:
            best, best_d = line.text, d
    return best


def box_distance(a: Box, b: Box) -> float:
    """The gap between two boxes (0 when they overlap), in CSS pixels."""
    dx = max(a.x - (b.x + b.width), b.x - (a.x + a.width), 0.0)
    dy = max(a.y - (b.y + b.height), b.y - (a.y + a.height), 0.0)
    return float((dx * dx + dy * dy) ** 0.5)
