"""X's names for the keys a flow or a person names (pure: shared by the agent's
actions and the live view)."""

from __future__ import annotations

__all__ = ["KEYS"]

KEYS = {
    "enter": "Return",
    "return": "Return",
    "escape": "Escape",
    "esc": "Escape",
    "tab": "Tab",
    "backspace": "BackSpace",
    "delete": "Delete",
    "space": "space",
    " ": "space",
    "arrowdown": "Down",
    "arrowup": "Up",
    "arrowleft": "Left",
    "arrowright": "Right",
    "home": "Home",
    "end": "End",
    "pageup": "Prior",
    "pagedown": "Next",
}
