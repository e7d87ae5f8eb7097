"""Actions on a desktop application's controls, run in the agent process.

Each goes through AT-SPI first (the Action, EditableText and Value interfaces: no
pointer, no focus needed, works on a covered window), and falls back to keyboard and
pointer input with xdotool: the element's window raised and focused, then a click at
the element's centre or keys typed into it. Typed text reaches xdotool on its standard
input, never on its command line.
"""

from __future__ import annotations

import re
import subprocess
from typing import Any

from gofer.surfaces.desktop import atspi
from gofer.surfaces.desktop.keys import KEYS

__all__ = ["ActionFailed", "Windows", "perform", "read_value", "xdotool_key"]

PRESS_ACTIONS = ("click", "press", "activate", "toggle", "jump", "open", "default.activate")
TEXT_INPUT_ROLES = frozenset({"text", "entry", "password text", "spin button", "editbar"})


class ActionFailed(Exception):
    def __init__(self, message: str, code: str = "SURFACE_ACTION_FAILED") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def _xdotool(*args: str, stdin: str | None = None) -> str:
    try:
        done = subprocess.run(
            ["xdotool", *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise ActionFailed(f"xdotool {args[0]} did not finish", "SURFACE_TIMEOUT") from exc
    if done.returncode != 0 and "search" not in args[:1]:
        raise ActionFailed(f"xdotool {args[0]} failed: {done.stderr.strip()[:200]}")
    return done.stdout


def xdotool_key(key: str) -> str:
    """xdotool's name for a key as a flow names it (``Enter``, ``ArrowDown``, ``Control+a``)."""
    parts = [p for p in re.split(r"\+", key) if p] or [key]
    named = []
    for part in parts:
        low = part.casefold()
        if low in ("control", "ctrl"):
            named.append("ctrl")
        elif low in ("shift", "alt", "super"):
            named.append(low)
        elif low in ("meta", "cmd", "command"):
            named.append("super")
        else:
            named.append(KEYS.get(low, part))
    return "+".join(named)


class Windows:
    """The X windows of the desktop's applications, through xdotool."""

    def ids(self, pid: int) -> list[str]:
        return _xdotool("search", "--onlyvisible", "--pid", str(pid)).split()

    def origin(self, pid: int, title: str) -> tuple[int, int]:
        """Where the window of ``pid`` titled ``title`` sits on the screen: what GTK4's
        window-relative extents are measured from."""
        fallback = (0, 0)
        for wid in self.ids(pid):
            geometry = _xdotool("getwindowgeometry", wid)
            found = re.search(r"Position: (-?\d+),(-?\d+)", geometry)
            if found is None:
                continue
            here = (int(found.group(1)), int(found.group(2)))
            if _xdotool("getwindowname", wid).strip() == title:
                return here
            fallback = here
        return fallback

    def raise_and_focus(self, pid: int) -> None:
        ids = self.ids(pid)
        if ids:
            _xdotool("windowactivate", "--sync", ids[-1])


def _press_index(names: list[str]) -> int | None:
    for wanted in PRESS_ACTIONS:
        for i, name in enumerate(names):
            if name.casefold() == wanted:
                return i
    return None


def _centre(arg: Any) -> tuple[int, int]:
    box = arg.get("box") if isinstance(arg, dict) else None
    if not box or box[2] <= 0 or box[3] <= 0:
        raise ActionFailed("the element has no place on the screen to click")
    return int(box[0] + box[2] / 2), int(box[1] + box[3] / 2)


def _pointer_click(node: atspi.Accessible, arg: Any, windows: Windows) -> str:
    x, y = _centre(arg)
    windows.raise_and_focus(atspi.process_id(node))
    _xdotool("mousemove", str(x), str(y), "click", "1")
    return "pointer"


def _click(node: atspi.Accessible, arg: Any, windows: Windows) -> str:
    ifaces = atspi.interfaces(node)
    if "Action" in ifaces:
        index = _press_index(atspi.action_names(node))
        if index is not None and atspi.do_action(node, index):
            return "action"
    return _pointer_click(node, arg, windows)


def _focus(node: atspi.Accessible, arg: Any, windows: Windows) -> str:
    windows.raise_and_focus(atspi.process_id(node))
    grabbed = "Component" in atspi.interfaces(node) and atspi.grab_focus(node)
    if grabbed and "focused" in atspi.states(node):
        return "focus"
    return _pointer_click(node, arg, windows)


def _type(node: atspi.Accessible, arg: Any, windows: Windows, *, replace: bool) -> str:
    _focus(node, arg, windows)
    if replace:
        _xdotool("key", "--clearmodifiers", "ctrl+a", "BackSpace")
    _xdotool("type", "--clearmodifiers", "--delay", "4", "--file", "-", stdin=str(arg["text"]))
    return "keys"


def _fill(node: atspi.Accessible, arg: Any, windows: Windows) -> str:
    content = str(arg["text"])
    ifaces = atspi.interfaces(node)
    if "Value" in ifaces and "EditableText" not in ifaces:
        try:
            number = float(content.replace(",", "").strip())
        except ValueError as exc:
            raise ActionFailed(f"'{atspi.name(node)}' takes a number") from exc
        if atspi.set_value(node, number):
            return "value"
    written = "EditableText" in ifaces and atspi.set_text(node, content)
    if written and ("Text" not in ifaces or shows(atspi.text(node), content, node)):
        return "text"
    return _type(node, arg, windows, replace=True)


def _select(node: atspi.Accessible, arg: Any, windows: Windows) -> str:
    """Pick the option labelled ``arg["label"]`` among the node's descendants."""
    label = str(arg["label"]).strip().casefold()
    stack = list(atspi.children(node))
    while stack:
        child = stack.pop(0)
        if " ".join(atspi.name(child).split()).casefold() == label:
            holder = atspi.parent(child)
            selectable = holder is not None and "Selection" in atspi.interfaces(holder)
            if selectable and atspi.select_child(holder, atspi.index_in_parent(child)):
                return "selection"
            return _click(child, {}, windows)
        stack.extend(atspi.children(child))
    raise ActionFailed(f"no option '{arg['label']}' in '{atspi.name(node)}'")


def perform(kind: str, node: atspi.Accessible | None, arg: Any, windows: Windows) -> str:
    """Do the action ``kind`` on ``node``; how it was done (``action``, ``pointer`` ...)."""
    if kind == "press":
        _xdotool("key", "--clearmodifiers", xdotool_key(str(arg["key"])))
        return "keys"
    if node is None:
        raise ActionFailed(f"{kind} needs an element")
    if kind == "click":
        return _click(node, arg, windows)
    if kind == "check":
        if ("checked" in atspi.states(node)) == bool(arg["checked"]):
            return "already"
        return _click(node, arg, windows)
    if kind == "fill":
        return _fill(node, arg, windows)
    if kind == "type":
        return _type(node, arg, windows, replace=False)
    if kind == "focus":
        return _focus(node, arg, windows)
    if kind == "hover":
        x, y = _centre(arg)
        _xdotool("mousemove", str(x), str(y))
        return "pointer"
    if kind == "select":
        return _select(node, arg, windows)
    raise ActionFailed(f"unknown action {kind!r}")


def hides(node: atspi.Accessible) -> bool:
    """Whether the field shows its characters hidden (a password field)."""
    return atspi.role(node) == "password text"


def shows(shown: str, typed: str, node: atspi.Accessible) -> bool:
    """Whether the field shows ``typed``: a password field shows one hidden character
    for each typed one."""
    if hides(node):
        return len(shown) == len(typed) and len(set(shown)) <= 1 and shown != typed[:1] * len(typed)
    return shown == typed


def read_value(node: atspi.Accessible) -> str:
    """What the control holds: its text, its number, else its name."""
    ifaces = atspi.interfaces(node)
    if "Text" in ifaces and atspi.role(node) in TEXT_INPUT_ROLES:
        return atspi.text(node)
    if "Value" in ifaces:
        return format_number(atspi.value(node)[0])
    if "Text" in ifaces:
        return atspi.text(node)
    return atspi.name(node)


def format_number(number: float) -> str:
    return str(int(number)) if number == int(number) else f"{number:g}"
