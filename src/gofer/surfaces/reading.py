"""Turning what ``js/snapshot.js`` returns for each frame into one :class:`Screen`.

Pure data work: offsets frame boxes into page coordinates, puts text lines in
reading order, renumbers record groups across frames and masks every string.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from gofer.surfaces.base import Masker
from gofer.surfaces.screen import Box, Element, Record, RecordGroup, Screen, TextLine
from gofer.surfaces.scripts import BRIDGE

__all__ = ["FrameReading", "build_screen", "load_js", "page_script", "reading_order"]


@cache
def load_js(name: str) -> str:
    """The text of one bundled script in ``gofer/surfaces/js`` (read once)."""
    return (resources.files("gofer.surfaces") / "js" / name).read_text(encoding="utf-8")


@cache
def page_script() -> str:
    """The script installed in every frame: the page helper with the screen reader in it.

    The reader is compiled once per document and called as ``__gofer.snapshot(args)``
    rather than sent and compiled again for every snapshot.
    """
    return (
        load_js("page_init.js").replace("__GOFER_BRIDGE__", BRIDGE)
        + "\n"
        + load_js("icons.js")
        + "\n;(() => {\n  const read = (\n"
        + load_js("snapshot.js")
        + "\n  );\n  const g = window.__gofer;\n"
        + "  if (g && !g.snapshot) g.snapshot = read;\n})();\n"
    )


@dataclass(frozen=True, slots=True)
class FrameReading:
    """One frame's raw snapshot with where the frame sits on the page.

    ``covered`` lists, per element index, whether the frame itself is covered at
    that element's centre by something in the page around it.
    """

    raw: Mapping[str, Any]
    path: str = ""
    dx: float = 0.0
    dy: float = 0.0
    covered: Sequence[bool] = ()


def _box(b: Sequence[float] | None, dx: float = 0.0, dy: float = 0.0) -> Box:
    if not b:
        return Box(0, 0, 0, 0)
    return Box(round(b[0] + dx, 1), round(b[1] + dy, 1), round(b[2], 1), round(b[3], 1))


def reading_order(lines: Iterable[TextLine]) -> list[TextLine]:
    """Top to bottom, then left to right within a row (half a line's height of slack)."""
    ordered = sorted(lines, key=lambda ln: (ln.box.y, ln.box.x))
    rows: list[list[TextLine]] = []
    for line in ordered:
        if rows:
            first = rows[-1][0]
            slack = max(2.0, min(first.box.height, line.box.height) / 2)
            if line.box.y - first.box.y <= slack:
                rows[-1].append(line)
                continue
        rows.append([line])
    return [line for row in rows for line in sorted(row, key=lambda ln: ln.box.x)]


def _mask_all(values: Iterable[str], mask: Masker) -> tuple[str, ...]:
    return tuple(mask(v) for v in values)


def _element(
    e: Mapping[str, Any], frame: FrameReading, index: int, mask: Masker, offset: int
) -> Element:
    rec = e.get("record")
    on_top = bool(e.get("on_top"))
    if index < len(frame.covered) and frame.covered[index]:
        on_top = False
    return Element(
        ref=str(e["ref"]),
        role=str(e["role"]),
        name=mask(e.get("name") or ""),
        tag=str(e.get("tag") or ""),
        label=mask(e.get("label") or ""),
        placeholder=mask(e.get("placeholder") or ""),
        value=mask(e.get("value") or ""),
        text=mask(e.get("text") or ""),
        input_type=str(e.get("input_type") or ""),
        title=mask(e.get("title") or ""),
        checked=e.get("checked"),
        selected=e.get("selected"),
        expanded=e.get("expanded"),
        disabled=bool(e.get("disabled")),
        editable=bool(e.get("editable")),
        visible=bool(e.get("visible")),
        on_top=on_top,
        focused=bool(e.get("focused")),
        box=_box(e.get("box"), frame.dx, frame.dy),
        frame=frame.path,
        section=mask(e.get("section") or ""),
        group=mask(e.get("group") or ""),
        record=(int(rec[0]) + offset, int(rec[1])) if rec else None,
        options=_mask_all(e.get("options") or (), mask),
        describedby=mask(e.get("describedby") or ""),
        invalid=bool(e.get("invalid")),
        href=mask(e.get("href") or ""),
        autocomplete=str(e.get("autocomplete") or ""),
    )


def _group(g: Mapping[str, Any], frame: FrameReading, mask: Masker) -> RecordGroup:
    return RecordGroup(
        box=_box(g.get("box"), frame.dx, frame.dy),
        records=tuple(
            Record(
                box=_box(r.get("box"), frame.dx, frame.dy),
                lines=_mask_all(r.get("lines") or (), mask),
                fields={mask(k): mask(v) for k, v in (r.get("fields") or {}).items()},
            )
            for r in g.get("records") or ()
        ),
        headers=_mask_all(g.get("headers") or (), mask),
        name=mask(g.get("name") or ""),
    )


def _keep(text: str) -> str:
    return text


def build_screen(frames: Sequence[FrameReading], mask: Masker | None = None) -> Screen:
    """One screen from the main frame's reading (first) and its subframes' readings."""
    m: Masker = mask or _keep
    main = frames[0].raw
    lines: list[TextLine] = []
    elements: list[Element] = []
    groups: list[RecordGroup] = []
    dialog = False
    for frame in frames:
        raw = frame.raw
        lines.extend(
            TextLine(text=m(ln["t"]), box=_box(ln["b"], frame.dx, frame.dy), heading=int(ln["h"]))
            for ln in raw.get("lines") or ()
        )
        offset = len(groups)
        elements.extend(
            _element(e, frame, i, m, offset) for i, e in enumerate(raw.get("elements") or ())
        )
        groups.extend(_group(g, frame, m) for g in raw.get("records") or ())
        dialog = dialog or (bool(raw.get("dialog")) and not frame.path)
    return Screen(
        url=m(str(main.get("url") or "")),
        title=m(str(main.get("title") or "")),
        lines=tuple(reading_order(lines)),
        elements=tuple(elements),
        records=tuple(groups),
        viewport=_box(main.get("viewport")),
        dialog_open=dialog,
        lang=str(main.get("lang") or ""),
    )
