"""The screen: a snapshot of a surface as a person or a model reads it.

A :class:`Screen` holds the visible text lines in reading order, the interactive
elements with their role, accessible name and state, and the repeated record
groups (result cards, table rows, list items) found on it. It is plain data:
the grounder (``decide/``) and the runtime work on it without any I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle in CSS pixels, relative to the top-left of the page viewport."""

    x: float
    y: float
    width: float
    height: float

    @property
    def cx(self) -> float:
        return self.x + self.width / 2

    @property
    def cy(self) -> float:
        return self.y + self.height / 2

    def contains(self, other: Box) -> bool:
        return (
            self.x <= other.cx <= self.x + self.width and self.y <= other.cy <= self.y + self.height
        )


@dataclass(frozen=True, slots=True)
class TextLine:
    """One visible line of text, in reading order."""

    text: str
    box: Box
    heading: int = 0  # 1..6 for headings, 0 otherwise


@dataclass(frozen=True, slots=True)
class Element:
    """One interactive element on the screen.

    ``ref`` identifies the element within its snapshot and is what a surface acts
    on. ``role`` is the ARIA role, explicit or implicit (``button``, ``link``,
    ``textbox``, ``searchbox``, ``combobox``, ``listbox``, ``option``,
    ``checkbox``, ``radio``, ``switch``, ``tab``, ``menuitem``, ``gridcell``,
    ``spinbutton``, ``slider``, ``row``), or ``clickable`` for an element that acts
    as a button without a role (a ``span`` with a click handler, a styled
    ``div``). ``value`` is what the field holds, masked only when the snapshot
    was given a mask.
    """

    ref: str
    role: str
    name: str
    tag: str = ""
    label: str = ""
    placeholder: str = ""
    value: str = ""
    text: str = ""
    input_type: str = ""
    title: str = ""
    checked: bool | None = None
    selected: bool | None = None
    expanded: bool | None = None
    disabled: bool = False
    editable: bool = False
    visible: bool = True
    on_top: bool = True
    focused: bool = False
    box: Box = Box(0, 0, 0, 0)
    frame: str = ""  # "" for the main frame, else a frame path such as "1" or "1.2"
    section: str = ""  # nearest heading, legend, dialog or landmark label around it
    group: str = ""  # name of the radio group / listbox / tablist it belongs to
    record: tuple[int, int] | None = None  # (group index, record index) in Screen.records
    options: tuple[str, ...] = ()  # a native select's option texts
    describedby: str = ""  # what aria-describedby or aria-errormessage points at
    invalid: bool = False  # the page marks the field's value as wrong (aria-invalid, :user-invalid)
    href: str = ""  # where a plain link goes ("" for "#", "javascript:", or a link run by script)
    autocomplete: str = ""  # a field's autocomplete tokens ("cc-number", "billing email")

    @property
    def display_name(self) -> str:
        """The words a person would call this element by: its accessible name, else its
        label, text, placeholder or title (``""`` when it has none of them)."""
        return self.name or self.label or self.text or self.placeholder or self.title

    @property
    def words(self) -> str:
        """Every name this element goes by, joined, for matching and display."""
        parts = [self.name, self.label, self.placeholder, self.text, self.title]
        seen: list[str] = []
        for p in parts:
            if p and p not in seen:
                seen.append(p)
        return " | ".join(seen)


@dataclass(frozen=True, slots=True)
class Record:
    """One repeated record (a result card, a table row, a list item)."""

    box: Box
    lines: tuple[str, ...]
    fields: dict[str, str] = field(default_factory=dict)  # label -> value when labelled

    @property
    def text(self) -> str:
        return " · ".join(self.lines)


@dataclass(frozen=True, slots=True)
class RecordGroup:
    """Sibling records of the same structure, e.g. a results list or a table body."""

    box: Box
    records: tuple[Record, ...]
    headers: tuple[str, ...] = ()  # column headers for tables
    name: str = ""  # the group's label or nearest heading


@dataclass(frozen=True, slots=True)
class Screen:
    """A snapshot of one surface."""

    url: str
    title: str
    lines: tuple[TextLine, ...]
    elements: tuple[Element, ...]
    records: tuple[RecordGroup, ...] = ()
    viewport: Box = Box(0, 0, 1280, 800)
    dialog_open: bool = False  # a modal dialog or overlay covers the page
    lang: str = ""  # the language the page says it is written in ("en-GB"), if it says

    @property
    def text(self) -> str:
        """The visible text, one line per line."""
        return "\n".join(line.text for line in self.lines)

    def element(self, ref: str) -> Element | None:
        for el in self.elements:
            if el.ref == ref:
                return el
        return None


def screen_to_dict(screen: Screen) -> dict[str, Any]:
    """The screen as JSON-ready data (for saved snapshots and traces)."""
    return asdict(screen)


def screen_from_dict(data: Mapping[str, Any]) -> Screen:
    """Rebuild a :class:`Screen` from :func:`screen_to_dict` output."""

    def box(d: Mapping[str, Any] | None) -> Box:
        return Box(**d) if d else Box(0, 0, 0, 0)

    elements = []
    for e in data.get("elements", ()):
        fields = dict(e)
        fields["box"] = box(e.get("box"))
        fields["options"] = tuple(e.get("options", ()))
        rec = e.get("record")
        fields["record"] = tuple(rec) if rec is not None else None
        elements.append(Element(**fields))
    groups = tuple(
        RecordGroup(
            box=box(g.get("box")),
            records=tuple(
                Record(
                    box=box(r.get("box")),
                    lines=tuple(r.get("lines", ())),
                    fields=dict(r.get("fields", {})),
                )
                for r in g.get("records", ())
            ),
            headers=tuple(g.get("headers", ())),
            name=g.get("name", ""),
        )
        for g in data.get("records", ())
    )
    return Screen(
        url=data.get("url", ""),
        title=data.get("title", ""),
        lines=tuple(
            TextLine(text=t["text"], box=box(t.get("box")), heading=t.get("heading", 0))
            for t in data.get("lines", ())
        ),
        elements=tuple(elements),
        records=groups,
        viewport=box(data.get("viewport")),
        dialog_open=bool(data.get("dialog_open", False)),
        lang=str(data.get("lang", "")),
    )
