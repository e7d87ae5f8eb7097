"""A task's state is named in one module and its events in one other: no code outside
tasks/state.py compares, matches or sets a literal state name, and none outside
tasks/events.py (and the store under it) tells, writes or reads an event by a bare
kind string or dict. Read from the code's syntax tree, so a comment or a docstring that
says "running" is no offence and a comparison written any other way is one."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from gofer.tasks.events import (
    Again,
    Ended,
    LetGo,
    MarkedDone,
    PressJournaled,
    Reopened,
    Reply,
    Start,
    TaskCancelled,
    ViewEvent,
)
from gofer.tasks.state import State

SRC = Path(__file__).resolve().parents[2] / "src" / "gofer"

STATES = {s.value for s in State} | {"queued", "released", "paused"}
"""Every state a task's status takes, and the words a turn's or a browser's state
goes by."""

KINDS = {
    e.KIND
    for e in (
        Start,
        Reply,
        Again,
        ViewEvent,
        Ended,
        TaskCancelled,
        LetGo,
        MarkedDone,
        Reopened,
        PressJournaled,
    )
}
NOTICE = "task"
"""The notice the events' writer sends when a task's log changes."""


def _faces() -> Iterator[Path]:
    """The modules that read or set a task's status: tasks/, api/ and the CLI."""
    yield from sorted((SRC / "tasks").glob("*.py"))
    yield from sorted((SRC / "api").rglob("*.py"))
    yield from sorted(SRC.glob("cli*.py"))


def _strings(node: ast.AST) -> Iterator[ast.Constant]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for item in node.elts:
            yield from _strings(item)


def _state_literals(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        places: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            places = [node.left, *node.comparators]
        elif isinstance(node, ast.MatchValue) or (
            isinstance(node, ast.keyword) and node.arg == "state"
        ):
            places = [node.value]
        elif (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "state"
        ):
            places = [node.annotation]
            if node.value is not None:
                places.append(node.value)
        for place in places:
            for const in ast.walk(place):
                if isinstance(const, ast.Constant) and const.value in STATES:
                    yield const.lineno, str(const.value)


def _event_literals(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            told = any(isinstance(s, ast.Attribute) and s.attr in ("kind", "event") for s in sides)
            for side in sides if told else []:
                for const in _strings(side):
                    if const.value in KINDS | {NOTICE}:
                        yield const.lineno, f"compares {const.value!r}"
        elif isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else None
            name = node.func.id if isinstance(node.func, ast.Name) else name
            if (
                name == "Notice"
                and node.args
                and any(c.value == NOTICE for c in _strings(node.args[0]))
            ):
                yield node.lineno, "sends a task notice"
            if name in ("append", "write") and any(
                isinstance(a, ast.Constant) and a.value in KINDS for a in node.args
            ):
                yield node.lineno, "writes an event by its kind"
        elif (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "data"
        ):
            yield node.lineno, "reads an event's data"


def test_no_literal_state_outside_the_state_module() -> None:
    offences = [
        f"{path.relative_to(SRC)}:{line}: {word!r}"
        for path in _faces()
        if path.name != "state.py" or path.parent.name != "tasks"
        for line, word in _state_literals(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not offences, "name states through gofer.tasks.state: " + ", ".join(offences)


def test_no_event_told_by_a_bare_kind_or_dict_outside_the_events_module() -> None:
    modules = [p for p in sorted(SRC.rglob("*.py")) if "store" not in p.relative_to(SRC).parts]
    offences = [
        f"{path.relative_to(SRC)}:{line}: {what}"
        for path in modules
        if path != SRC / "tasks" / "events.py"
        for line, what in _event_literals(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not offences, "write and read events through gofer.tasks.events: " + ", ".join(offences)


def test_the_checks_see_what_they_are_for() -> None:
    """The two checks above find each kind of offence they look for."""
    code = ast.parse(
        "\n".join(
            [
                'if view.status.state == "needs_human": pass',
                'if turn.state in ("queued", "running"): pass',
                "match state:",
                '    case "cancelled": pass',
                'status = Running(state="done")',
                'state: Literal["failed"] = "failed"',
                'if notice.event == "task" and notice.kind == "cancelled": pass',
                'tx.notify(Notice("task", kind="view"))',
                'await ledger.append(owner, task_id, "ended", {"view": view})',
                'view = event.data["view"]',
            ]
        )
    )
    states = {word for _line, word in _state_literals(code)}
    assert states == {"needs_human", "queued", "running", "cancelled", "done", "failed"}
    events = [line for line, _what in _event_literals(code)]
    assert sorted(set(events)) == [7, 8, 9, 10]
    quiet = ast.parse('"""The task is running; it failed."""\nlabel = "running"\n')
    assert not list(_state_literals(quiet)) and not list(_event_literals(quiet))
