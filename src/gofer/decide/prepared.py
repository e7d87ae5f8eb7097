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

    field: str  # "name", "label", "placeholder", "text", "title", "group", "nearby",
    # "column" (the header of the column it sits in), "symbol"
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
    header_rows = _header_rows(
        lines, frozenset(normalise(h) for g in screen.records for h in g.headers)
    )
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
        if (field_like or el.role == "slider") and (not el.label or _labelled_by_pick(el)):
            near = _nearby_label(el.box, lines)
            if near:
                fields.append(("nearby", near))
        elif el.role in _TOGGLES and not (el.name or el.label or el.text):
            beside = _text_right_of(el.box, lines)
            if beside:
                fields.append(("nearby", beside))
        if field_like or el.role in _COLUMN_CONTROLS:
            header = _column_header(el.box, header_rows)
            if header:
                fields.append(("column", header))
        for field, raw in fields:
            if not raw:
                continue
            s = source(field, raw)
            if s is None:
                # A lone icon glyph ("+", "›", "×") names the control: as it is shown,
                # and by what it does.
                glyph = raw.strip() if field in ("name", "text") and len(raw.strip()) <= 3 else ""
                if glyph and glyph not in seen:
                    seen.add(glyph)
                    srcs.append(Source("glyph", glyph, frozenset({glyph})))
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


def _labelled_by_pick(el: Element) -> bool:
    """Whether a dropdown's label is only the option it shows ("(Main)" labelling a
    combobox through ``aria-labelledby``): the caption beside it still names it."""
    own = normalise(el.label)
    return el.role == "combobox" and own in (normalise(el.value), normalise(el.text))


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


_TOGGLES = frozenset({"checkbox", "radio", "switch"})
_TOGGLE_LABEL_GAP_PX = 24.0


def _text_right_of(box: Box, lines: tuple[TextLine, ...]) -> str:
    """The text just right of a nameless box or radio on its row: its label as a
    person reads it, though nothing ties the two."""
    if box.width <= 0 or box.height <= 0:
        return ""
    best, best_d = "", _TOGGLE_LABEL_GAP_PX
    for line in lines:
        lb = line.box
        gap = lb.x - (box.x + box.width)
        if abs(lb.cy - box.cy) <= max(box.height, 12.0) / 2 + 4 and -2 <= gap < best_d:
            best, best_d = line.text, gap
    return best


_COLUMN_CONTROLS = frozenset({"checkbox", "radio", "switch", "combobox", "listbox"})
_ROW_SLACK_PX = 4.0
_HEADER_MAX_CHARS = 40


def _header_rows(
    lines: tuple[TextLine, ...], table_headers: frozenset[str]
) -> list[tuple[TextLine, ...]]:
    """Rows of short texts side by side on one line (two or more headings, or two or
    more of a table's column headers): what heads the columns of a table or of a grid
    of basket lines drawn with boxes."""
    shown = [
        ln
        for ln in lines
        if (ln.box.width > 0 or ln.box.height > 0) and 0 < len(ln.text) <= _HEADER_MAX_CHARS
    ]
    shown.sort(key=lambda ln: (ln.box.cy, ln.box.x))
    rows: list[tuple[TextLine, ...]] = []
    row: list[TextLine] = []
    for ln in [*shown, None]:
        if ln is None or (row and abs(ln.box.cy - row[0].box.cy) > _ROW_SLACK_PX):
            # a page's side menu may share the line with a table's header row
            headings = [x for x in row if x.heading]
            tabled = [x for x in row if normalise(x.text) in table_headers]
            heads = max(headings, tabled, key=len)
            if len(heads) >= 2:
                rows.append(tuple(heads))
            row = []
        if ln is not None:
            row.append(ln)
    return rows


def _column_header(box: Box, rows: list[tuple[TextLine, ...]]) -> str:
    """The header of the column ``box`` sits in: in the nearest row of headers above
    it that reaches over the box, the one text that does (none when two do)."""
    if box.width <= 0 or box.height <= 0:
        return ""
    for row in reversed(rows):
        if row[0].box.y + row[0].box.height > box.y + _ROW_SLACK_PX:
            continue
        heads = [
            ln for ln in row if ln.box.x < box.x + box.width and ln.box.x + ln.box.width > box.x
        ]
        if len(heads) == 1:
            return heads[0].text
        if heads:
            return ""
    return ""


def box_distance(a: Box, b: Box) -> float:
    """The gap between two boxes (0 when they overlap), in CSS pixels."""
    dx = max(a.x - (b.x + b.width), b.x - (a.x + a.width), 0.0)
    dy = max(a.y - (b.y + b.height), b.y - (a.y + a.height), 0.0)
    return float((dx * dx + dy * dy) ** 0.5)
