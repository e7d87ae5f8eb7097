"""The desktop's accessibility tree as the screen model the grounder reads.

Pure: takes the raw nodes the agent walked (role, name, states, extents, text, value,
actions) and builds a :class:`~gofer.surfaces.screen.Screen`: AT-SPI roles mapped to
the ARIA roles the grounder knows, names trimmed and cleaned of the toolkits' noise
(GTK4's doubled names, widget class names), extents corrected to screen coordinates
(GTK4 reports them relative to the window), every string through the mask.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gofer.surfaces.screen import Box, Element, Screen, TextLine

__all__ = ["ROLES", "build_screen", "clean_name", "node_box"]

ROLES: Mapping[str, str] = {
    "push button": "button",
    "button": "button",
    "toggle button": "button",
    "push button menu": "button",
    "check box": "checkbox",
    "radio button": "radio",
    "switch": "switch",
    "menu item": "menuitem",
    "check menu item": "menuitem",
    "radio menu item": "menuitem",
    "menu": "menuitem",
    "tearoff menu item": "menuitem",
    "text": "textbox",
    "entry": "textbox",
    "password text": "textbox",
    "editbar": "textbox",
    "spin button": "spinbutton",
    # a slider takes a number as a spin button does: the grounder's field for one
    "slider": "spinbutton",
    "combo box": "combobox",
    "list item": "option",
    "page tab": "tab",
    "link": "link",
    "table cell": "gridcell",
    "tree item": "option",
}
CHECKABLE = frozenset(
    {"check box", "radio button", "switch", "toggle button", "check menu item", "radio menu item"}
)
SELECTABLE = frozenset({"list item", "page tab", "table cell", "tree item"})
TEXT_FIELDS = frozenset({"text", "entry", "password text", "editbar"})
LINE_ROLES = frozenset(
    {
        "label",
        "static",
        "heading",
        "paragraph",
        "caption",
        "status bar",
        "text",
        "document text",
        "alert",
    }
)
WINDOWS = frozenset({"frame", "dialog", "alert", "file chooser", "window"})
_CLASS_NAME = re.compile(r"^(?:Gtk|Adw|Hdy|Gdk|Gs|Gd|Vte|Wnck|Xfce|Mousepad|Q)[A-Z]\w*$")

Masker = Callable[[str], str]


def clean_name(raw: str) -> str:
    """A node's name as a person reads it: whitespace collapsed, a widget's class name
    (``GtkButton``) dropped, a name the toolkit doubled (``7 7``) said once."""
    name = " ".join(raw.split())
    if _CLASS_NAME.match(name):
        return ""
    words = name.split(" ")
    half = len(words) // 2
    if len(words) % 2 == 0 and half and words[:half] == words[half:]:
        name = " ".join(words[:half])
    return name


def node_box(node: Mapping[str, Any]) -> Box:
    """The node's rectangle in screen coordinates (GTK4's measured from its window)."""
    raw = node.get("box")
    if not raw:
        return Box(0, 0, 0, 0)
    x, y, w, h = raw
    if node.get("gtk4"):
        ox, oy = node.get("origin") or (0, 0)
        x, y = x + ox, y + oy
    return Box(float(x), float(y), float(max(w, 0)), float(max(h, 0)))


def _descendant_text(ref: str, kids: Mapping[str, list[Mapping[str, Any]]]) -> str:
    """The words of a control's labels inside it (a GTK4 button's name is often only
    its class: its label child holds the words)."""
    parts: list[str] = []
    stack = list(kids.get(ref, ()))
    while stack:
        node = stack.pop(0)
        if node["role"] in ("label", "static", "text") or not kids.get(node["ref"]):
            words = clean_name(node.get("text") or node["name"])
            if words and words not in parts:
                parts.append(words)
        stack[0:0] = kids.get(node["ref"], [])
    return " ".join(parts)


def build_screen(
    nodes: Sequence[Mapping[str, Any]],
    *,
    url: str,
    viewport: Box,
    mask: Masker | None = None,
) -> Screen:
    """The screen of the walked desktop."""
    m: Masker = mask or (lambda s: s)
    by_ref = {n["ref"]: n for n in nodes}
    kids: dict[str, list[Mapping[str, Any]]] = {}
    for n in nodes:
        kids.setdefault(n["parent"], []).append(n)

    def named_ancestor(node: Mapping[str, Any]) -> str:
        """The nearest name around an unlabelled control (an editor's text area is
        known by its tab's or its window's title)."""
        while node["parent"]:
            node = by_ref[node["parent"]]
            name = clean_name(node["name"])
            if name:
                return name
        return ""

    def window_of(node: Mapping[str, Any]) -> Mapping[str, Any]:
        while node["parent"] and node["role"] not in WINDOWS:
            node = by_ref[node["parent"]]
        return node

    active = [n for n in nodes if n["role"] in WINDOWS and "active" in n["states"]]
    top = active[-1]["ref"] if active else None
    title = clean_name(active[-1]["name"]) if active else ""
    if not title:
        title = next((clean_name(n["name"]) for n in nodes if n["role"] in WINDOWS), "")
    dialog_open = (
        any(n["role"] in ("dialog", "alert") and "modal" in n["states"] for n in nodes)
        and len([n for n in nodes if n["role"] in WINDOWS]) > 1
    )

    elements: list[Element] = []
    lines: list[TextLine] = []
    inside: set[str] = set()  # nodes within a control: their words are the control's
    for node in nodes:
        role = node["role"]
        states = set(node["states"])
        box = node_box(node)
        name = clean_name(node["name"])
        aria = ROLES.get(role)
        if node["parent"] in inside:
            inside.add(node["ref"])
        if aria is not None:
            editable = "editable" in states
            if role == "text" and not editable:
                aria = None  # read-only text is text on the screen, not a field
        if aria is None:
            if node["parent"] in inside or role not in LINE_ROLES:
                continue
            words = " ".join((node.get("text") or name).split())
            if words:
                heading = 1 if role == "heading" else 0
                lines.append(TextLine(m(words), box, heading))
            continue
        inside.add(node["ref"])
        text = node.get("text")
        value = ""
        if node.get("value") is not None and role not in TEXT_FIELDS:
            current = float(node["value"][0])
            value = str(int(current)) if current == int(current) else f"{current:g}"
        elif role in TEXT_FIELDS or role == "spin button":
            value = text or ""
        inner = _descendant_text(node["ref"], kids) if not name else ""
        label = clean_name(node.get("label") or "")
        hint = clean_name(node.get("description") or "")
        if not (name or inner or label or hint) and role in TEXT_FIELDS:
            around = named_ancestor(node)
            beside = any(k["role"] in ("label", "static") for k in kids.get(node["parent"], []))
            if beside:
                hint = around  # a hint only: the label beside the field names it
            else:
                label = around  # an editor's text area, known by its window's title
        window = window_of(node)
        checkable = role in CHECKABLE
        elements.append(
            Element(
                ref=node["ref"],
                role=aria,
                name=m(name or inner),
                label=m(label),
                value=m(value),
                text=m(inner) if inner != name else "",
                input_type="password" if role == "password text" else "",
                title=m(hint),
                checked=("checked" in states or "pressed" in states) if checkable else None,
                selected=("selected" in states) if role in SELECTABLE else None,
                expanded=("expanded" in states) if "expandable" in states else None,
                disabled="sensitive" not in states,
                editable="editable" in states,
                visible=box.width > 0 and box.height > 0,
                on_top=top is None or window["ref"] == top,
                focused="focused" in states,
                box=box,
                section=m(clean_name(window["name"])),
            )
        )
    lines.sort(key=lambda line: (round(line.box.y / 8), line.box.x))
    return Screen(
        url=url,
        title=m(title),
        lines=tuple(lines),
        elements=tuple(elements),
        viewport=viewport,
        dialog_open=dialog_open,
    )
