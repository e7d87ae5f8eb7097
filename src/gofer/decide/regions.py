"""Where on a screen a step's ``within`` words point: a record, a section, or a place.

"the first result", "second flight", "the 3rd row" and "last item" pick a record by
its position. Other words ("Economy", "IndiGo 6E 2031", "Passenger 2") pick the
smallest thing that contains them: a record, then a named section or group, then
the band under a heading, and failing those the neighbourhood of a text line.

The same words often name more than one place: a product's name is the heading of
its card on the page and a line in the cart drawer open over it. :func:`resolve_regions`
gives every reading, best first, so the grounder can move on to the next one when
the first holds nothing that fits the step.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from rapidfuzz import fuzz

from gofer.decide.prepared import Prepared, box_distance, label_of, prepare
from gofer.decide.text import normalise, stem_tokens
from gofer.decide.when import date_parts
from gofer.surfaces.screen import Box, Element, Screen

__all__ = [
    "OWN_CALENDAR_PX",
    "Region",
    "caption_field",
    "days_near_field",
    "field_frame",
    "names_row",
    "resolve_regions",
    "resolve_within",
]

_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "last": -1,
}
_ORDINAL_RE = re.compile(
    r"^(?:the\s+)?(?:(?P<word>" + "|".join(_ORDINALS) + r")|(?P<num>\d{1,3})(?:st|nd|rd|th)"
    r"|(?:no\.?|number|#)\s*(?P<no>\d{1,3}))(?:\s+(?P<noun>[a-z][a-z ]*))?$"
)
_NOUN_FIRST_RE = re.compile(r"^(?:the\s+)?(?P<noun>[a-z]+)\s+(?:no\s*|number\s+)?(?P<no>\d{1,3})$")
_LEADING = re.compile(r"^(?:the|a|an|in|inside|within|under|on|for)\s+")
_TABLE_NOUNS = frozenset({"row", "line", "entry"})
_NEAR_FALLOFF_PX = 800.0


@dataclass(frozen=True, slots=True)
class Region:
    """An area of a screen that ``within`` words name.

    ``kind`` is ``"record"`` (``record`` is its (group, index) in ``Screen.records``),
    ``"section"`` or ``"group"`` (``names`` holds the element section or group names
    that belong), ``"band"`` (the stretch under a heading, ``box``), ``"field"`` (what
    a caption line names: from its left edge rightwards, down to the next line that
    starts at that edge or left of it, ``box``), or ``"near"``
    (only a place: ``boxes`` are the text lines the words are on, ``box`` the first;
    nothing is excluded, elements nearer any of them rank higher).
    """

    kind: str
    words: str
    describe: str  # how it reads in evidence: "the first result", "section 'Passenger 2'"
    record: tuple[int, int] | None = None
    names: frozenset[str] = frozenset()
    box: Box | None = None
    boxes: tuple[Box, ...] = ()

    def contains(self, el: Element) -> bool:
        """Whether ``el`` lies inside the region (always false for a ``near`` region)."""
        if self.kind == "record":
            if el.record == self.record:
                return True
            inside = self.box is not None and _has_area(self.box) and self.box.contains(el.box)
            # An element of a record nested inside this one (a card's own row of parts)
            # belongs to this one too; one of a sibling record never does.
            same_group = (
                el.record is not None and self.record is not None and el.record[0] == self.record[0]
            )
            return inside and not same_group
        if self.kind == "section":
            return el.section in self.names and (self.record is None or el.record == self.record)
        if self.kind == "group":
            return el.group in self.names
        if self.kind == "band" and self.box is not None:
            return self.box.y <= el.box.cy <= self.box.y + self.box.height
        if self.kind == "field" and self.box is not None:
            return (
                self.box.x <= el.box.cx and self.box.y <= el.box.cy < self.box.y + self.box.height
            )
        return False

    def nearness(self, el: Element) -> float:
        """1.0 next to the region's anchor falling to 0.65 far away (``near`` regions)."""
        anchors = self.boxes or ((self.box,) if self.box is not None else ())
        if not anchors:
            return 1.0
        d = min(box_distance(anchor, el.box) for anchor in anchors)
        return 1.0 - 0.35 * min(1.0, d / _NEAR_FALLOFF_PX)


def _shown(norm: str, prep: Prepared) -> bool:
    """Whether the normalised words ``norm`` are on the screen: in a text line or a
    record's text."""
    return bool(norm) and (
        any(norm in line for line in prep.line_norms)
        or any(norm in text for text, _ in prep.record_texts.values())
    )


def _has_area(b: Box) -> bool:
    return b.width > 0 and b.height > 0


def resolve_within(within: str, screen: Screen) -> Region | None:
    """The region ``within`` names on ``screen``, or ``None`` when nothing fits.

    Text after a colon is a description of what to read, not part of the place:
    "the first result: airline and price" means "the first result"; unless the whole
    phrase, colon and all, is on the screen ("Django Pony Size: Medium, Colour: Red",
    a cart line named by its product's options).
    """
    regions = resolve_regions(within, screen)
    return regions[0] if regions else None


def resolve_regions(within: str, screen: Screen) -> tuple[Region, ...]:
    """Every region ``within`` may name on ``screen``, the likeliest first.

    A position ("the first result") names one record only. Other words are read as
    a named section or group, a record that holds them, a part of a section's name,
    the band under a heading, the field a caption line names, and the neighbourhood
    of the lines that show them, in that order; readings that name the same place
    twice are given once.
    """
    prep = prepare(screen)
    phrase = within.strip()
    if ":" in phrase and not _shown(normalise(phrase), prep):
        phrase = phrase.split(":", 1)[0].strip()
    if not phrase:
        return ()
    norm = normalise(phrase)
    ordinal = None if _shown_as_line(prep, norm) else _ordinal(norm)
    if ordinal is not None:
        position, noun = ordinal
        found = _record_by_position(prep, position, noun, phrase)
        return (found,) if found is not None else ()
    words = _LEADING.sub("", norm)
    if not words:
        return ()
    out = _readings(prep, words, phrase)
    head, _, noun = words.rpartition(" ")
    if not out and head and noun in _CONTAINER_NOUNS:
        # "the sign in dialog", "the payment form": the place is named by the words
        # before the kind of place
        out = _readings(prep, head, phrase)
    return tuple(out)


_CONTAINER_NOUNS = frozenset(
    {"dialog", "modal", "popup", "window", "form", "panel", "box", "section", "card", "menu"}
)


def _readings(prep: Prepared, words: str, phrase: str) -> list[Region]:
    out: list[Region] = []
    for reader in (
        _exact_name,
        _record_with,
        _partial_name,
        _heading_band,
        _caption_region,
        _near_line,
    ):
        region = reader(prep, words, phrase)
        if region is not None and region not in out:
            out.append(region)
    return out


def _shown_as_line(prep: Prepared, norm: str) -> bool:
    """Whether a record shows the words as one whole line: "The first bug" is then that
    record's title, not the first record about bugs."""
    bare = _LEADING.sub("", norm)
    return any(norm in lines or bare in lines for _text, lines in prep.record_texts.values())


def _ordinal(norm: str) -> tuple[int, str] | None:
    m = _ORDINAL_RE.match(norm)
    if m:
        if m.group("word"):
            pos = _ORDINALS[m.group("word")]
        else:
            pos = int(m.group("num") or m.group("no"))
        return pos, (m.group("noun") or "").strip()
    m = _NOUN_FIRST_RE.match(norm)
    if m and m.group("noun") in {"result", "row", "item", "card", "option", "flight", "record"}:
        return int(m.group("no")), m.group("noun")
    return None


def _record_by_position(prep: Prepared, position: int, noun: str, phrase: str) -> Region | None:
    groups = [(g, grp) for g, grp in enumerate(prep.screen.records) if grp.records]
    if not groups:
        return None
    noun_stem = noun.split()[-1].rstrip("s") if noun else ""

    def rank(item: tuple[int, object]) -> tuple[int, int, int]:
        g, _ = item
        grp = prep.screen.records[g]
        named = bool(noun_stem) and noun_stem in normalise(grp.name)
        table = noun_stem in _TABLE_NOUNS and bool(grp.headers)
        return (0 if named else 1, 0 if table else 1, -len(grp.records))

    g, _grp = min(groups, key=rank)
    records = prep.screen.records[g].records
    index = len(records) - 1 if position == -1 else position - 1
    if not 0 <= index < len(records):
        return None
    return Region("record", phrase, phrase, record=(g, index), box=records[index].box)


def _exact_name(prep: Prepared, words: str, phrase: str) -> Region | None:
    if words in prep.sections:
        names = prep.sections[words]
        # A heading inside one record (a fare panel in a result card) names a part of that
        # record only; later elements may still carry it as their nearest heading.
        holders = [key for key, (_t, lines) in prep.record_texts.items() if words in lines]
        in_records = {
            info.element.record
            for info in prep.elements
            if info.element.section in names and info.element.record is not None
        }
        record = holders[0] if len(holders) == 1 and len(in_records) > 1 else None
        if record is not None and record not in in_records:
            record = None
        return Region("section", phrase, f"section '{phrase}'", names=names, record=record)
    if words in prep.groups:
        return Region("group", phrase, f"group '{phrase}'", names=prep.groups[words])
    return None


def names_row(fields: Mapping[str, str], words: str) -> bool:
    """Whether normalised ``words`` name a table row by a column and its value:
    "invoice 42", "invoice no 42", "order number 1042" (the Invoice column holds 42)."""
    tokens = words.split()
    if len(tokens) < 2:
        return False
    for header, value in fields.items():
        if normalise(value) == tokens[-1] and set(tokens[:-1]) <= (
            set(normalise(header).split()) | {"no", "number"}
        ):
            return True
    return False


def _record_with(prep: Prepared, words: str, phrase: str) -> Region | None:
    stems = stem_tokens(words)
    scored: list[tuple[float, tuple[int, int]]] = []
    padded = f" {words} "
    for key, (text, lines) in prep.record_texts.items():
        fields = prep.screen.records[key[0]].records[key[1]].fields
        if words in lines or (fields and names_row(fields, words)):
            score = 3.0
        elif padded in f" {text} ":
            score = 2.0
        elif stems <= stem_tokens(text):
            score = 1.0
        elif fuzz.partial_ratio(words, text, score_cutoff=90):
            score = 0.5
        else:
            continue
        scored.append((score, key))
    if not scored:
        return None
    top = max(score for score, _ in scored)
    tied = [key for score, key in scored if score == top]
    g, r = _innermost(prep, tied)
    rec = prep.screen.records[g].records[r]
    return Region("record", phrase, f"the record with '{phrase}'", record=(g, r), box=rec.box)


def _innermost(prep: Prepared, keys: list[tuple[int, int]]) -> tuple[int, int]:
    """Of records that hold the words alike, the one with controls inside all the
    others that have some (a cart line, not the page around it); when several lines
    hold them alike, the first, a record around them all, whose controls the grounder
    then finds alike."""

    if len(keys) == 1:
        return keys[0]

    def box(key: tuple[int, int]) -> Box:
        return prep.screen.records[key[0]].records[key[1]].box

    def controls(key: tuple[int, int]) -> frozenset[str]:
        region = Region("record", "", "", record=key, box=box(key))
        return frozenset(
            info.element.ref
            for info in prep.elements
            if info.element.visible and region.contains(info.element)
        )

    def around(outer: tuple[int, int], inner: tuple[int, int]) -> bool:
        # by its box, or by its controls: a row drawn wider than the list around it (a
        # negative margin) still has only some of the list's controls
        if _has_area(box(inner)) and _encloses(box(outer), box(inner)):
            return True
        return held[inner] < held[outer]

    held = {k: controls(k) for k in keys}
    # a record with no control in it is a part of one (a row's caption cell), no place
    # to act in
    holders = [k for k in keys if held[k]]
    inner = [k for k in holders if not any(o != k and around(k, o) for o in holders)]
    if len(inner) == 1:
        return inner[0]
    return keys[0]


def _encloses(outer: Box, inner: Box) -> bool:
    """Whether ``inner`` lies wholly inside ``outer`` (a pixel of slack)."""
    return (
        outer.x - 1 <= inner.x
        and outer.y - 1 <= inner.y
        and inner.x + inner.width <= outer.x + outer.width + 1
        and inner.y + inner.height <= outer.y + outer.height + 1
    )


def _partial_name(prep: Prepared, words: str, phrase: str) -> Region | None:
    padded = f" {words} "
    for norm, raw in prep.sections.items():
        if padded in f" {norm} ":
            return Region("section", phrase, f"section '{phrase}'", names=raw)
    for norm, raw in prep.groups.items():
        if padded in f" {norm} ":
            return Region("group", phrase, f"group '{phrase}'", names=raw)
    return None


def _heading_band(prep: Prepared, words: str, phrase: str) -> Region | None:
    lines = prep.screen.lines
    for i, line in enumerate(lines):
        if not line.heading or not _has_area(line.box):
            continue
        norm = prep.line_norms[i]
        if norm != words and f" {words} " not in f" {norm} ":
            continue
        end = prep.screen.viewport.y + 1e9
        for later in lines[i + 1 :]:
            if later.heading and later.heading <= line.heading and later.box.y > line.box.y:
                end = later.box.y
                break
        top = line.box.y
        return Region(
            "band", phrase, f"under the heading '{line.text}'", box=Box(0.0, top, 1e9, end - top)
        )
    return None


def caption_field(words: str, screen: Screen) -> Region | None:
    """The field a caption line ("Replies:", "Start new thread") that reads ``words``
    names, or ``None`` when no line reads just them.

    A caption titles what follows it: the controls right of its left edge, from the
    line down to the next line that starts at that edge or further left (the next
    caption, or the help text under the field) in its column: a sidebar's lines left of it
    do not end it. Among identical controls ("Yes" in
    every row of a form, a "Start thread" on the page and in the panel), that tells
    the one a caption names by the field it belongs to, not by its distance in pixels.
    """
    norm = _LEADING.sub("", normalise(words))
    if not norm:
        return None
    return _caption_region(prepare(screen), norm, words)


def _caption_region(prep: Prepared, words: str, phrase: str) -> Region | None:
    lines = prep.screen.lines
    for i, line in enumerate(lines):
        if line.heading or not _has_area(line.box) or prep.line_norms[i] != words:
            continue
        left, below = line.box.x, line.box.y + line.box.height
        end = min(
            (
                other.box.y
                for other in lines
                if _has_area(other.box)
                and other.box.y >= below - 1
                and other.box.x <= left + 2
                and other.box.x + other.box.width > left  # in its column, not a sidebar's
            ),
            default=line.box.y + 1e9,
        )
        top = line.box.y
        return Region(
            "field",
            phrase,
            f"the field '{line.text}'",
            box=Box(left - 2, top, 1e9, end - top),
        )
    return None


def _near_line(prep: Prepared, words: str, phrase: str) -> Region | None:
    padded = f" {words} "
    exact = [
        line
        for i, line in enumerate(prep.screen.lines)
        if prep.line_norms[i] == words and _has_area(line.box)
    ]
    # A line that is just the words ("Children" by its stepper) is the place they
    # name; lines that merely mention them ("2 adults · 0 children") come only after.
    found = exact or [
        line
        for i, line in enumerate(prep.screen.lines)
        if padded in f" {prep.line_norms[i]} " and _has_area(line.box)
    ]
    if not found:
        return None
    return Region(
        "near",
        phrase,
        f"near '{found[0].text}'",
        box=found[0].box,
        boxes=tuple(line.box for line in found),
    )


OWN_CALENDAR_PX = 200.0


def days_near_field(el: Element, screen: Screen) -> bool:
    """Whether a calendar's days show next to the field (its popup does; an inline
    calendar further down the form does not)."""
    frame = field_frame(el, screen)
    for e in screen.elements:
        words = normalise(e.display_name)
        day = words.isdigit() and len(words) <= 2
        if not day and re.search(r"\d", words):
            d, month, _year = date_parts(e.display_name)
            day = d is not None and month is not None
        if e.visible and day and box_distance(e.box, frame) <= OWN_CALENDAR_PX:
            return True
    return False


def field_frame(el: Element, screen: Screen) -> Box:
    """The box a field is drawn in: the smallest other visible element of the same name
    whose box holds the field's (an outlined frame), else the field's own box."""
    name = normalise(label_of(el))
    b = el.box
    frames = [
        e.box
        for e in screen.elements
        if e.ref != el.ref
        and e.visible
        and normalise(label_of(e)) == name
        and e.box.x <= b.x
        and e.box.y <= b.y
        and e.box.x + e.box.width >= b.x + b.width
        and e.box.y + e.box.height >= b.y + b.height
    ]
    return min(frames, key=lambda f: f.width * f.height, default=b)
