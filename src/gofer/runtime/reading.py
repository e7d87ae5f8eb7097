"""Reading values off a screen: one value near its label, or a list of records."""

from __future__ import annotations

import re

from gofer.decide import normalise, resolve_within
from gofer.flow import JSONValue
from gofer.surfaces.screen import Record, RecordGroup, Screen

_PRICE = re.compile(r"(?:[₹$€£¥]|rs\.?|inr|usd|eur)\s?\d[\d,]*(?:\.\d+)?", re.IGNORECASE)
_TIME = re.compile(r"\b(?:[01]?\d|2[0-3])[:.][0-5]\d(?:\s?[ap]\.?m\.?)?\b", re.IGNORECASE)
_DURATION = re.compile(r"\b\d+\s?h(?:r|rs|ours?)?\s?(?:\d+\s?m(?:in|ins|inutes?)?)?\b", re.I)


def read_value(what: str, screen: Screen) -> str | None:
    """The value ``what`` names: a record's text, a labelled value, or a field's value."""
    region_words = what.split(":", 1)[0].strip()
    region = resolve_within(region_words, screen)
    if region is not None and region.record is not None:
        group_index, record_index = region.record
        record = screen.records[group_index].records[record_index]
        return record.text
    label = normalise(region_words)
    if not label:
        return None
    lines = [line.text for line in screen.lines]
    for i, text in enumerate(lines):
        folded = normalise(text)
        if folded == label and i + 1 < len(lines):
            return lines[i + 1].strip()
        if folded.startswith(label):
            rest = text.strip()[len(region_words):].lstrip(" :–-\t")
            # the label's own characters may differ in case or spacing from the words
            idx = text.casefold().find(region_words.casefold())
            if idx >= 0:
                rest = text[idx + len(region_words):].lstrip(" :–-\t")
            if rest:
                return rest.strip()
    for el in screen.elements:
        if el.visible and label in (normalise(el.label), normalise(el.name), normalise(el.placeholder)):
            if el.value:
                return el.value
    if region is not None and region.text:
        return region.text
    return None


def _record_object(record: Record, headers: tuple[str, ...]) -> dict[str, JSONValue]:
    out: dict[str, JSONValue] = {}
    if record.fields:
        out.update(record.fields)
    elif headers and len(headers) == len(record.lines):
        out.update({h or f"column {i + 1}": v for i, (h, v) in enumerate(zip(headers, record.lines, strict=True))})
    text = record.text
    out.setdefault("text", text)
    if "price" not in {k.casefold() for k in out}:
        prices = _PRICE.findall(text)
        if prices:
            out["price"] = prices[0]
    if not any(k.casefold() in ("time", "times", "departure") for k in out):
        times = _TIME.findall(text)
        if times:
            out["times"] = list(times)
    if "duration" not in {k.casefold() for k in out}:
        durations = _DURATION.findall(text)
        if durations:
            out["duration"] = durations[0].strip()
    return out


def choose_group(what: str, screen: Screen) -> RecordGroup | None:
    """The record group ``what`` most likely means: named like it, else the largest."""
    if not screen.records:
        return None
    words = set(normalise(what).split())
    best: tuple[float, int] | None = None
    for i, group in enumerate(screen.records):
        named = set(normalise(" ".join((group.name, *group.headers))).split())
        score = len(words & named) * 5 + len(group.records) + group.box.width * group.box.height / 1e6
        if best is None or score > best[0]:
            best = (score, i)
    assert best is not None
    return screen.records[best[1]]


def read_list(what: str, screen: Screen) -> list[JSONValue] | None:
    """The repeated records of the list or table ``what`` names, as objects."""
    group = choose_group(what, screen)
    if group is None:
        return None
    return [_record_object(r, group.headers) for r in group.records]
