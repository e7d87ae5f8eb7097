"""Reading values off a screen: one value near its label, or a list of records.

A record (a result card, a table row) is read as its own words: the names of
the record's own controls ("Select", "Book") and lone connecting words ("from")
are left out, since they are not part of what the record says.
"""

from __future__ import annotations

import re

from gofer.decide.regions import names_row, resolve_regions, resolve_within
from gofer.decide.text import normalise
from gofer.flow import JSONValue
from gofer.surfaces.screen import Box, Element, Record, RecordGroup, Screen

_PRICE = re.compile(r"(?:[₹$€£¥]|rs\.?|inr|usd|eur)\s?\d[\d,]*(?:\.\d+)?", re.IGNORECASE)
_TIME = re.compile(r"\b(?:[01]?\d|2[0-3])[:.][0-5]\d(?:\s?[ap]\.?m\.?)?\b", re.IGNORECASE)
_DURATION = re.compile(r"\b\d+\s?h(?:r|rs|ours?)?\s?(?:\d+\s?m(?:in|ins|inutes?)?)?\b", re.I)
_FILLER = frozenset({"from", "to", "at", "for", "only", "and", "or", "via", "each", "per"})
_SEPARATORS = " :–—-\t|=·"
_ARTICLE = re.compile(r"^(?:the|a|an|my|your|our|this|that)\s+")
_POSITION = re.compile(
    r"^(?:the\s+)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last"
    r"|top|\d{1,3}(?:st|nd|rd|th))\b|^(?:the\s+)?[a-z]+\s+(?:no\s*|number\s+)?\d{1,3}$"
)


def _control_names(screen: Screen, group: int, index: int) -> set[str]:
    """The normalised names of the controls that belong to one record."""
    names: set[str] = set()
    for el in screen.elements:
        if el.record == (group, index):
            for words in (el.name, el.text, el.label):
                if words:
                    names.add(normalise(words))
    return names


def record_lines(screen: Screen, group: int, index: int) -> list[str]:
    """The lines of a record that say something: no control names, no lone filler words."""
    record = screen.records[group].records[index]
    controls = _control_names(screen, group, index)
    kept: list[str] = []
    for line in record.lines:
        folded = normalise(line)
        if not folded or folded in controls or folded in _FILLER:
            continue
        kept.append(line.strip())
    return kept or [line.strip() for line in record.lines]


def _after_label(line: str, label: str) -> str | None:
    """What follows ``label`` at the start of ``line`` ("Total ₹3,512" -> "₹3,512")."""
    tokens = line.split()
    wanted = label.split()
    taken: list[str] = []
    for i, token in enumerate(tokens):
        folded = normalise(token)
        if folded:
            taken.extend(folded.split())
        if taken == wanted:
            rest = " ".join(tokens[i + 1 :]).lstrip(_SEPARATORS).strip()
            return rest or None
        if len(taken) > len(wanted) or taken != wanted[: len(taken)]:
            return None
    return None


def _record_at(screen: Screen, box: Box) -> tuple[int, int] | None:
    """The smallest record whose box holds ``box``'s centre, if any."""
    best: tuple[float, tuple[int, int]] | None = None
    for g, group in enumerate(screen.records):
        for i, record in enumerate(group.records):
            if record.box.width > 0 and record.box.height > 0 and record.box.contains(box):
                area = record.box.width * record.box.height
                if best is None or area < best[0]:
                    best = (area, (g, i))
    return best[1] if best is not None else None


def _below_in_column(label: Box, line: Box) -> bool:
    """Whether ``line`` sits under ``label`` in the same column.

    The column is the label's own width, reaching a little past its end for a value
    indented under a short label (a ``<dd>`` under its ``<dt>``).
    """
    indent = 3 * max(label.height, 1.0)
    return line.x < label.x + label.width + indent and line.x + line.width > label.x


def _beside(label: Box, line: Box) -> bool:
    """Whether ``line`` sits on the label's row, to its right."""
    overlap = min(label.y + label.height, line.y + line.height) - max(label.y, line.y)
    return overlap > 0.5 * min(label.height, line.height) and line.x >= label.x + label.width - 1


def _value_after(screen: Screen, index: int) -> str | None:
    """The line that holds the value of the label on line ``index``.

    It is the next line beside the label or under it in its column, within the same
    record as the label: a card's title is never followed by the card beside it.
    """
    label = screen.lines[index]
    home = _record_at(screen, label.box)
    for line in screen.lines[index + 1 :]:
        if not line.text.strip():
            continue
        if _beside(label.box, line.box):
            if _record_at(screen, line.box) == home:
                return line.text.strip()
            continue
        if line.box.y + line.box.height <= label.box.y + label.box.height / 2:
            continue  # above the label's row: a line of another column read earlier
        if not _below_in_column(label.box, line.box):
            continue
        if _record_at(screen, line.box) != home:
            return None
        return line.text.strip()
    return None


def _labelled_value(label: str, screen: Screen) -> str | None:
    """A value shown beside or under its label, or held by the field the label names.

    A field labelled by the words is read first: the line under its label is its help
    text, not its value (an empty field reads as nothing).
    """
    for el in screen.elements:
        if el.visible and _holds_text(el) and label in (normalise(el.label), normalise(el.name)):
            return el.value or None
    for i, line in enumerate(screen.lines):
        folded = normalise(line.text)
        if folded == label:
            value = _value_after(screen, i)
            if value:
                return value
            continue
        if folded.startswith(label + " "):
            rest = _after_label(line.text, label)
            if rest:
                return rest
    for el in screen.elements:
        if not el.visible or not el.value:
            continue
        if label in (normalise(el.label), normalise(el.name), normalise(el.placeholder)):
            return el.value
    return None


def _names_key(words: str, screen: Screen) -> bool:
    """Whether ``words`` are a key the screen shows: a label line or a field's name that
    reads just them ("Last name", "First class fare", "Top speed" are keys, not
    positions)."""
    return any(normalise(line.text) == words for line in screen.lines) or any(
        words in (normalise(el.label), normalise(el.name)) for el in screen.elements
    )


_TEXT_ROLES = frozenset({"textbox", "searchbox", "spinbutton", "combobox"})
_NOT_TEXT = frozenset({"checkbox", "radio", "submit", "button", "image", "reset", "hidden"})


def _holds_text(el: Element) -> bool:
    if el.tag in ("input", "textarea", "select"):
        return el.input_type not in _NOT_TEXT
    return not el.tag and el.role in _TEXT_ROLES


def _titled_record(words: str, screen: Screen) -> list[str] | None:
    """The lines of the record whose title (first line) is ``words``.

    Records nest (a row of cards is a record of the page, each card one of the row);
    the smallest one with that title is the one the words name.
    """
    best: tuple[float, list[str]] | None = None
    for g, group in enumerate(screen.records):
        for i, record in enumerate(group.records):
            lines = record_lines(screen, g, i)
            if not lines or normalise(lines[0]) != words:
                continue
            area = record.box.width * record.box.height
            if best is None or area < best[0]:
                best = (area, lines)
    return best[1] if best is not None else None


_CELL_OF = re.compile(r"^(?:the\s+)?(?P<column>.+?)\s+(?:of|for|in)\s+(?P<row>.+)$")
_CELL_POSSESSIVE = re.compile(r"^(?:the\s+)?(?P<row>.+?)[\u2019']s\s+(?P<column>.+)$")


def _row_score(record: Record, row: str) -> float:
    """How well ``row`` words name a table row: a cell that is them, or a column's
    name and its value ("invoice 42": the Invoice column holds 42), or its words."""
    best = (
        3.0
        if names_row(record.fields, row) or any(normalise(v) == row for v in record.fields.values())
        else 0.0
    )
    text = normalise(" ".join(record.lines))
    if best < 2.0 and f" {row} " in f" {text} ":
        best = 2.0
    return best


def table_cell(what: str, screen: Screen) -> str | None:
    """The cell ``what`` names by its column and row words, or None.

    "the Status of invoice 42", "Amount for Ben Ortiz", "invoice 42's status", "the
    price of the first result": the column is a table header (or a labelled part of
    a record), the row the record the other words name.
    """
    phrase = what.split(":", 1)[0].strip()
    for pattern in (_CELL_OF, _CELL_POSSESSIVE):
        m = pattern.match(phrase.replace("\u2019", "'"))
        if m is None:
            continue
        column, row = normalise(m.group("column")), normalise(m.group("row"))
        if not column or not row:
            continue
        found = _cell(screen, column, row, m.group("row"))
        if found is not None:
            return found
    return None


def _cell(screen: Screen, column: str, row: str, row_words: str) -> str | None:
    by_position = resolve_within(row_words, screen) if _POSITION.search(row) else None
    best: tuple[float, str] | None = None
    for g, group in enumerate(screen.records):
        for i, record in enumerate(group.records):
            key = next((k for k in record.fields if normalise(k) == column), None)
            if key is None or not record.fields[key].strip():
                continue
            if by_position is not None:
                if by_position.record == (g, i):
                    return record.fields[key].strip()
                continue
            score = _row_score(record, row)
            if score and (best is None or score > best[0]):
                best = (score, record.fields[key].strip())
    return best[1] if best is not None else None


def read_value(what: str, screen: Screen) -> str | None:
    """The value ``what`` names: a record, a labelled value, or a field's value.

    Words that are a record's title read the record's own words; a record that is
    only a label and its value (a table row "Total | ₹3,512") reads the value. Then a
    label's value beside or under it, a field's value, and last a record that shows
    the words. Text after a colon describes what to read and does not take part in
    finding it; with such a description a titled record is read whole.
    """
    place, _, description = (part.strip() for part in what.partition(":"))
    label = normalise(place)
    if not label:
        return None
    cell = table_cell(place, screen)
    if cell is not None:
        return cell
    region = resolve_within(place, screen)
    record = region.record if region is not None else None
    bare = _ARTICLE.sub("", label)
    if record is not None and _POSITION.search(label) and not _names_key(bare, screen):
        return " · ".join(record_lines(screen, *record))
    candidates = [words for words in dict.fromkeys((label, bare)) if words]
    for words in candidates:
        lines = _titled_record(words, screen)
        if lines is not None:
            if len(lines) == 2 and not description:
                return lines[1]
            return " · ".join(lines)
    for words in candidates:
        value = _labelled_value(words, screen)
        if value:
            return value
    placed = _label_in_place(place, screen)
    if placed is None and not _CELL_POSSESSIVE.match(place.replace("\u2019", "'")):
        placed = _qualified(bare, screen)
    if placed is not None:
        return placed
    if record is not None:
        return " · ".join(record_lines(screen, *record))
    return _main_display(screen) if bare in _DISPLAY_WORDS else None


_DISPLAY_WORDS = frozenset({"result", "answer", "display", "output", "outcome"})


def _main_display(screen: Screen) -> str | None:
    """What an application's main display shows (a calculator's): the largest text
    box on the screen that holds a value, when nothing is labelled as the result."""
    shown = [e for e in screen.elements if e.visible and e.value and e.role in _TEXT_ROLES]
    if not shown:
        return None
    return max(shown, key=lambda e: e.box.width * e.box.height).value


_TITLED = frozenset({"section", "group", "band", "field"})


def _qualified(words: str, screen: Screen) -> str | None:
    """A label the screen shows with fewer words than asked ("the order total" where the
    order's summary says "Total"): the last words as the label, read inside the place
    the first words name, else the one line on the screen that shows them as a label."""
    tokens = words.split()
    for k in range(1, len(tokens)):
        head, tail = " ".join(tokens[:k]), " ".join(tokens[k:])
        placed = _label_in_place(f"{tail} of {head}", screen)
        if placed is not None:
            return placed
        if any(r.kind in _TITLED for r in resolve_regions(head, screen)):
            continue  # a place titled so that holds no such label: not one elsewhere
        shown = [
            i
            for i, line in enumerate(screen.lines)
            if normalise(line.text) == tail or normalise(line.text).startswith(tail + " ")
        ]
        if len(shown) == 1:
            value = _labelled_value(tail, screen)
            if value:
                return value
    return None


def _label_in_place(phrase: str, screen: Screen) -> str | None:
    """The value of a label inside the place the other words name: "the cart's total",
    "the total in the cart" read the "Total" under the cart's heading."""
    for pattern in (_CELL_POSSESSIVE, _CELL_OF):
        m = pattern.match(phrase.replace("\u2019", "'"))
        if m is None:
            continue
        label = _ARTICLE.sub("", normalise(m.group("column")))
        if not label:
            continue
        for region in resolve_regions(m.group("row"), screen):
            if region.box is None or region.kind == "near":
                continue
            for i, line in enumerate(screen.lines):
                if normalise(line.text) == label and region.box.contains(line.box):
                    value = _value_after(screen, i)
                    if value:
                        return value
    return None


def _record_object(
    screen: Screen, group: int, index: int, headers: tuple[str, ...]
) -> dict[str, JSONValue]:
    record: Record = screen.records[group].records[index]
    out: dict[str, JSONValue] = {}
    if record.fields:
        out.update(record.fields)
    elif headers and len(headers) == len(record.lines):
        out.update(
            {
                h or f"column {i + 1}": v
                for i, (h, v) in enumerate(zip(headers, record.lines, strict=True))
            }
        )
    text = " · ".join(record_lines(screen, group, index))
    out.setdefault("text", text)
    keys = {k.casefold() for k in out}
    if "price" not in keys:
        prices = _PRICE.findall(text)
        if prices:
            out["price"] = prices[0]
    if not keys & {"time", "times", "departure", "departs"}:
        times = _TIME.findall(text)
        if times:
            out["times"] = list(times)
    if "duration" not in keys:
        durations = _DURATION.findall(text)
        if durations:
            out["duration"] = durations[0].strip()
    return out


def choose_group(what: str, screen: Screen) -> int | None:
    """The index of the record group ``what`` most likely means: named like it, else the largest."""
    words = set(normalise(what).split())
    best: tuple[float, int] | None = None
    for i, group in enumerate(screen.records):
        if not group.records:
            continue
        named = set(normalise(" ".join((group.name, *group.headers))).split())
        area = group.box.width * group.box.height / 1e6
        score = len(words & named) * 5 + len(group.records) + area
        if best is None or score > best[0]:
            best = (score, i)
    return best[1] if best is not None else None


def read_list(what: str, screen: Screen) -> list[JSONValue] | None:
    """The repeated records of the list or table ``what`` names, as objects."""
    index = choose_group(what, screen)
    if index is None:
        return None
    group: RecordGroup = screen.records[index]
    return [_record_object(screen, index, i, group.headers) for i in range(len(group.records))]
