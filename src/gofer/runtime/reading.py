"""Reading values off a screen: one value near its label, or a list of records.

A record (a result card, a table row) is read as its own words: the names of
the record's own controls ("Select", "Book") and lone connecting words ("from")
are left out, since they are not part of what the record says.
"""

from __future__ import annotations

import re

from gofer.decide import normalise, resolve_within
from gofer.flow import JSONValue
from gofer.surfaces.screen import Record, RecordGroup, Screen

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


def _labelled_value(label: str, screen: Screen) -> str | None:
    """A value shown beside or under its label, or held by the field the label names."""
    lines = [line.text for line in screen.lines]
    for i, text in enumerate(lines):
        folded = normalise(text)
        if folded == label:
            if i + 1 < len(lines) and lines[i + 1].strip():
                return lines[i + 1].strip()
            continue
        if folded.startswith(label + " "):
            rest = _after_label(text, label)
            if rest:
                return rest
    for el in screen.elements:
        if not el.visible or not el.value:
            continue
        if label in (normalise(el.label), normalise(el.name), normalise(el.placeholder)):
            return el.value
    return None


def read_value(what: str, screen: Screen) -> str | None:
    """The value ``what`` names: a labelled value, a field's value, or a record's words.

    Text after a colon describes what to read and does not take part in finding it.
    """
    place = what.split(":", 1)[0].strip()
    label = normalise(place)
    if not label:
        return None
    region = resolve_within(place, screen)
    record = region.record if region is not None else None
    if record is not None and _POSITION.search(label):
        return " · ".join(record_lines(screen, *record))
    bare = _ARTICLE.sub("", label)
    for words in dict.fromkeys((label, bare)):
        value = _labelled_value(words, screen) if words else None
        if value:
            return value
    if record is not None:
        return " · ".join(record_lines(screen, *record))
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
            {h or f"column {i + 1}": v
             for i, (h, v) in enumerate(zip(headers, record.lines, strict=True))}
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
