"""The edge with PyGObject's AT-SPI bindings: every ``gi`` call gofer makes lives here.

PyGObject ships no type stubs, so its objects are ``Any`` at this edge only; the rest
of the desktop surface sees the plain values these functions return. Imported only in
the agent process (:mod:`gofer.surfaces.desktop.agent`), never in gofer's own.
"""

from __future__ import annotations

import time
from typing import Any

import gi  # type: ignore[import-untyped]

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # type: ignore[import-untyped]  # noqa: E402

__all__ = [
    "Accessible",
    "Error",
    "EventWatch",
    "action_names",
    "applications",
    "children",
    "do_action",
    "extents",
    "grab_focus",
    "interfaces",
    "labelled_by",
    "name",
    "process_id",
    "role",
    "select_child",
    "set_text",
    "set_value",
    "states",
    "text",
    "toolkit",
    "value",
]

Accessible = Any
"""An ``Atspi.Accessible`` (untyped: PyGObject has no stubs)."""

_UNSET = -(2**31)


def applications() -> list[Accessible]:
    desktop = Atspi.get_desktop(0)
    return [a for a in children(desktop)]


def children(node: Accessible) -> list[Accessible]:
    out = []
    for i in range(node.get_child_count()):
        child = node.get_child_at_index(i)
        if child is not None:
            out.append(child)
    return out


def role(node: Accessible) -> str:
    # the role's name from its number, which the bindings cache: no call to the app
    return str(Atspi.role_get_name(node.get_role()))


def name(node: Accessible) -> str:
    return str(node.get_name() or "")


def description(node: Accessible) -> str:
    return str(node.get_description() or "")


def states(node: Accessible) -> list[str]:
    return [str(s.value_nick) for s in node.get_state_set().get_states()]


def interfaces(node: Accessible) -> set[str]:
    return {str(i) for i in node.get_interfaces()}


def toolkit(app: Accessible) -> tuple[str, str]:
    return str(app.get_toolkit_name() or ""), str(app.get_toolkit_version() or "")


def process_id(node: Accessible) -> int:
    return int(node.get_process_id())


def extents(node: Accessible) -> tuple[int, int, int, int] | None:
    """The node's rectangle as the toolkit reports it in screen coordinates, or None
    when it has none (an unmapped menu item reports the minimum integer)."""
    rect = Atspi.Component.get_extents(node, Atspi.CoordType.SCREEN)
    if rect.x == _UNSET or rect.y == _UNSET:
        return None
    return int(rect.x), int(rect.y), int(rect.width), int(rect.height)


def text(node: Accessible) -> str:
    count = Atspi.Text.get_character_count(node)
    return str(Atspi.Text.get_text(node, 0, count) or "")


def value(node: Accessible) -> tuple[float, float, float]:
    return (
        float(Atspi.Value.get_current_value(node)),
        float(Atspi.Value.get_minimum_value(node)),
        float(Atspi.Value.get_maximum_value(node)),
    )


def action_names(node: Accessible) -> list[str]:
    return [
        str(Atspi.Action.get_action_name(node, i)) for i in range(Atspi.Action.get_n_actions(node))
    ]


def do_action(node: Accessible, index: int) -> bool:
    return bool(Atspi.Action.do_action(node, index))


def set_text(node: Accessible, content: str) -> bool:
    return bool(Atspi.EditableText.set_text_contents(node, content))


def set_value(node: Accessible, number: float) -> bool:
    return bool(Atspi.Value.set_current_value(node, number))


def grab_focus(node: Accessible) -> bool:
    return bool(Atspi.Component.grab_focus(node))


def select_child(container: Accessible, index: int) -> bool:
    return bool(Atspi.Selection.select_child(container, index))


def index_in_parent(node: Accessible) -> int:
    return int(node.get_index_in_parent())


def parent(node: Accessible) -> Accessible | None:
    return node.get_parent()


def labelled_by(node: Accessible) -> list[Accessible]:
    """The nodes the node's LABELLED_BY relation names."""
    out: list[Accessible] = []
    for relation in node.get_relation_set() or ():
        if relation.get_relation_type() == Atspi.RelationType.LABELLED_BY:
            out.extend(relation.get_target(i) for i in range(relation.get_n_targets()))
    return out


Error: type[Exception] = GLib.Error
"""The bindings' error: a node gone, a call the application refused or did not answer."""


class EventWatch:
    """Counts the AT-SPI events the desktop sends: what an action changed, and when the
    applications have gone quiet after it. Events arrive only while :meth:`pump` runs
    the GLib main context."""

    KINDS = (
        "object:children-changed",
        "object:state-changed",
        "object:text-changed",
        "object:property-change:accessible-name",
        "object:property-change:accessible-value",
        "object:value-changed",
        "window:create",
        "window:destroy",
        "window:activate",
    )

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.last = 0.0
        self.first = 0.0
        self._listener = Atspi.EventListener.new(self._on_event)
        for kind in self.KINDS:
            self._listener.register(kind)

    def _on_event(self, event: Any) -> None:
        if not self.seen:
            self.first = time.monotonic()
        self.seen.append(str(event.type))
        self.last = time.monotonic()

    def take(self) -> list[str]:
        seen, self.seen = self.seen, []
        return seen

    def wait(self, until: float) -> bool:
        """Run the main context until an event arrives or ``until`` (monotonic) passes;
        whether one arrived."""
        context = GLib.MainContext.default()
        count = len(self.seen)
        while len(self.seen) == count:
            rest = until - time.monotonic()
            if rest <= 0:
                return False
            fired: list[bool] = []

            def wake(fired: list[bool] = fired) -> bool:
                fired.append(True)
                return False

            source = GLib.timeout_add(max(1, int(rest * 1000)), wake)
            context.iteration(True)
            while context.pending():
                context.iteration(False)
            if not fired:
                GLib.source_remove(source)
        return True
