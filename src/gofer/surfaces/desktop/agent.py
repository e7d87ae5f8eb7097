"""The AT-SPI agent: a process of its own per desktop, started by the surface with the
desktop's display and buses in its environment, answering one JSON request per line.

AT-SPI's client library talks to one accessibility bus per process and blocks on every
call, so each desktop gets its own agent and gofer's event loop never waits on D-Bus.
Requests: ``walk`` (the raw tree, see :mod:`gofer.surfaces.desktop.tree`), ``act``
(an action on a node of the latest walk, see :mod:`gofer.surfaces.desktop.actions`),
``read`` (a node's value), ``wait`` (until the desktop changes) and ``settle``.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from gofer.surfaces.desktop import actions, atspi
from gofer.surfaces.desktop.actions import ActionFailed, Windows
from gofer.surfaces.desktop.tree import LINE_ROLES, ROLES, WINDOWS

__all__ = ["Agent", "main"]

MAX_NODES = 3000
MAX_DEPTH = 60
MAX_TEXT = 4000
TEXT_ROLES = frozenset(
    {
        "text",
        "entry",
        "password text",
        "label",
        "paragraph",
        "heading",
        "static",
        "terminal",
        "document text",
        "document frame",
        "spin button",
        "editbar",
        "caption",
    }
)
BOXED = frozenset(ROLES) | LINE_ROLES | WINDOWS
PRESSABLE_ROLES = frozenset(
    {
        "push button",
        "button",
        "toggle button",
        "check box",
        "radio button",
        "switch",
        "menu item",
        "check menu item",
        "radio menu item",
        "menu",
        "link",
        "page tab",
        "combo box",
        "slider",
        "spin button",
    }
)
CONTROL_ROLES = frozenset(
    {
        "text",
        "entry",
        "password text",
        "spin button",
        "slider",
        "combo box",
        "check box",
        "radio button",
        "toggle button",
        "switch",
        "scroll bar",
    }
)


class Agent:
    """Walks the desktop's applications and acts on what the latest walk found."""

    def __init__(self) -> None:
        self.nodes: dict[str, atspi.Accessible] = {}
        # a node keeps its ref from walk to walk while it stays on the screen (the
        # bindings hand out one object per node), as a page's element keeps its own
        self.refs: dict[atspi.Accessible, str] = {}
        self.made = 0
        self.watch = atspi.EventWatch()
        self.windows = Windows()
        # what was typed into a field that shows its characters hidden, to answer a read
        # while it still shows as many (kept in this process only, never sent on a walk)
        self.hidden: list[tuple[atspi.Accessible, str]] = []

    # ------------------------------------------------------------------ walk

    def walk(self) -> dict[str, Any]:
        started = time.perf_counter()
        self.nodes = {}
        known, self.refs = self.refs, {}
        out: list[dict[str, Any]] = []
        apps = []
        for app in atspi.applications():
            try:
                kit, version = atspi.toolkit(app)
                pid = atspi.process_id(app)
                app_name = atspi.name(app)
            except atspi.Error:
                continue  # an application that went away
            gtk4 = kit.lower() == "gtk" and version.startswith("4")
            apps.append({"name": app_name, "toolkit": kit, "version": version, "pid": pid})
            for frame in atspi.children(app):
                origin = self.windows.origin(pid, atspi.name(frame)) if gtk4 else (0, 0)
                self._walk(frame, "", 0, app_name, gtk4, origin, out, known)
        self.watch.take()
        return {
            "nodes": out,
            "apps": apps,
            "ms": round((time.perf_counter() - started) * 1000, 1),
        }

    def _walk(
        self,
        node: atspi.Accessible,
        parent: str,
        depth: int,
        app: str,
        gtk4: bool,
        origin: tuple[int, int],
        out: list[dict[str, Any]],
        known: dict[atspi.Accessible, str],
    ) -> None:
        if len(out) >= MAX_NODES or depth > MAX_DEPTH:
            return
        try:
            states = atspi.states(node)
            # GTK4 reports no "showing"; what it does not draw is not "visible"
            if ("visible" if gtk4 else "showing") not in states:
                return
            record = self._record(node, states)
        except atspi.Error:
            return  # a node gone mid-walk is skipped
        ref = known.get(node)
        if ref is None:
            self.made += 1
            ref = f"d{self.made}"
        self.refs[node] = ref
        self.nodes[ref] = node
        record.update(ref=ref, parent=parent, depth=depth, app=app, gtk4=gtk4, origin=origin)
        out.append(record)
        try:
            kids = atspi.children(node)
        except atspi.Error:
            return
        for child in kids:
            self._walk(child, ref, depth + 1, app, gtk4, origin, out, known)

    def _record(self, node: atspi.Accessible, states: list[str]) -> dict[str, Any]:
        role = atspi.role(node)
        ifaces = atspi.interfaces(node)
        record: dict[str, Any] = {
            "role": role,
            "name": atspi.name(node),
            "states": states,
            # a container's rectangle is never read: only controls, text and windows
            "box": atspi.extents(node) if "Component" in ifaces and role in BOXED else None,
            "text": None,
            "value": None,
            "label": "",
            "description": atspi.description(node) if role in PRESSABLE_ROLES else "",
        }
        if "Text" in ifaces and role in TEXT_ROLES:
            record["text"] = atspi.text(node)[:MAX_TEXT]
        if "Value" in ifaces:
            record["value"] = atspi.value(node)
        if role in CONTROL_ROLES:
            record["label"] = " ".join(
                atspi.name(label) for label in atspi.labelled_by(node) if label is not None
            ).strip()
        return record

    # ------------------------------------------------------------------ acting

    def node(self, ref: str) -> atspi.Accessible:
        node = self.nodes.get(ref)
        if node is None:
            raise ActionFailed(f"no element {ref} on the latest screen", "SURFACE_STALE_REF")
        return node

    def act(self, kind: str, ref: str | None, arg: Any, settle_ms: int) -> dict[str, Any]:
        self.watch.take()
        node = self.node(ref) if ref else None
        how = actions.perform(kind, node, arg, self.windows)
        if kind == "fill" and ref and node is not None and actions.hides(node):
            self.hidden = [(n, t) for n, t in self.hidden if n != node]
            self.hidden.append((node, str(arg["text"])))
        acted = time.monotonic()
        events = self.settle(settle_ms)
        first = round((self.watch.first - acted) * 1000, 1) if events else None
        reply: dict[str, Any] = {"how": how, "events": events, "first_event_ms": first}
        if kind in ("fill", "type") and ref:
            # what the field holds, in the same round trip (the runtime checks it)
            reply["value"] = self.read(ref)
        return reply

    def settle(self, timeout_ms: int, quiet_ms: int = 100, first_ms: int = 500) -> list[str]:
        """Pump events until none came for ``quiet_ms`` (or ``timeout_ms`` passed). An
        action's first event may come late (GTK4 sends its changes on its next frame):
        wait up to ``first_ms`` for one before calling the desktop quiet."""
        started = time.monotonic()
        deadline = started + timeout_ms / 1000
        if not self.watch.seen:
            self.watch.wait(min(deadline, started + first_ms / 1000))
        quiet = quiet_ms / 1000
        while self.watch.seen:
            quiet_until = self.watch.last + quiet
            if time.monotonic() >= min(quiet_until, deadline):
                break
            self.watch.wait(min(quiet_until, deadline))
        return self.watch.take()

    def wait(self, timeout_ms: int) -> bool:
        changed = self.watch.wait(time.monotonic() + timeout_ms / 1000)
        if changed:
            self.settle(2000)
        return changed

    def apps(self) -> dict[int, tuple[str, int]]:
        """The applications on the accessibility bus that show a window: pid to name
        and how many windows they show."""
        found = {}
        for app in atspi.applications():
            try:
                frames = atspi.children(app)
                shown = sum(1 for f in frames if {"visible", "showing"} & set(atspi.states(f)))
                if shown:
                    found[atspi.process_id(app)] = (atspi.name(app), shown)
            except atspi.Error:
                continue  # an application that went away
        return found

    def wait_window(self, pid: int, before: dict[int, int], timeout_ms: int) -> dict[str, Any]:
        """Wait until the process ``pid`` shows a window, or another application one
        more than ``before`` (pid to windows shown): a launcher that hands over to
        another process, or a second start of a one-instance application."""
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            apps = self.apps()
            new = [p for p in apps if p == pid] or [
                p for p, (_, shown) in apps.items() if shown > before.get(p, 0)
            ]
            if new:
                self.settle(3000)
                return {"pid": new[0], "name": apps[new[0]][0]}
            if apps and not _alive(pid):
                # it handed its start to the instance already running (a one-instance
                # application opens a tab, or only raises its window) and went
                self.settle(3000)
                return {"pid": None, "name": ""}
            if time.monotonic() >= deadline:
                raise ActionFailed("the application showed no window", "SURFACE_APP_FAILED")
            # an application joining the bus is no event a listener gets: look again
            # after any event, or a quarter second at most
            self.watch.wait(min(deadline, time.monotonic() + 0.25))

    def read(self, ref: str) -> str:
        node = self.node(ref)
        shown = actions.read_value(node)
        for field, typed in self.hidden:
            if field == node and actions.shows(shown, typed, node):
                return typed
        return shown

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "walk":
            return self.walk()
        if op == "act":
            return self.act(
                str(request["kind"]),
                request.get("ref"),
                request.get("arg"),
                int(request.get("settle_ms", 3000)),
            )
        if op == "read":
            return {"value": self.read(str(request["ref"]))}
        if op == "wait":
            return {"changed": self.wait(int(request["timeout_ms"]))}
        if op == "apps":
            return {
                "apps": [{"pid": p, "name": n, "windows": w} for p, (n, w) in self.apps().items()]
            }
        if op == "wait_window":
            return self.wait_window(
                int(request["pid"]),
                {int(p): int(w) for p, w in request["before"]},
                int(request["timeout_ms"]),
            )
        if op == "settle":
            return {"events": self.settle(int(request["timeout_ms"]))}
        raise ActionFailed(f"unknown request {op!r}", "SURFACE_ERROR")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return status.rsplit(")", 1)[-1].split()[0] == "Z"


def main() -> None:
    """Answer requests on standard input, one JSON object per line, until it closes."""
    agent = Agent()
    out = sys.stdout
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = {"ok": True, **agent.handle(request)}
        except ActionFailed as exc:
            reply = {"ok": False, "error": exc.message, "code": exc.code}
        except atspi.Error as exc:  # the bindings' errors cross as replies
            reply = {"ok": False, "error": str(exc), "code": "SURFACE_ERROR"}
        out.write(json.dumps(reply) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
