"""A task's cell is data: only the turn (tasks/turn.py) assigns its fields, and only
``next_move`` decides what its pending segments and flow become after a run."""

from __future__ import annotations

import ast
from pathlib import Path

import gofer

SRC = Path(gofer.__file__).resolve().parent
MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault"}


def _field_of_cell(node: ast.expr) -> str | None:
    """The cell field ``node`` names (``cell.x``, ``cell.x[i]``), else None."""
    while isinstance(node, ast.Subscript):
        node = node.value
    is_cell = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
    return node.attr if is_cell and node.value.id == "cell" else None  # type: ignore[attr-defined]


def _writes(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
        ):
            targets = [node.func.value]
        for target in targets:
            for part in target.elts if isinstance(target, ast.Tuple) else [target]:
                name = _field_of_cell(part)
                if name is not None and name != "ledger":
                    found.append((getattr(node, "lineno", 0), name))
    return found


def test_only_the_turn_assigns_a_cells_fields() -> None:
    outside = {
        f"{path.relative_to(SRC)}:{line} cell.{name}"
        for path in SRC.rglob("*.py")
        if path != SRC / "tasks" / "turn.py"
        for line, name in _writes(ast.parse(path.read_text(encoding="utf-8")))
    }
    assert not outside


def test_the_turn_sets_pending_and_flow_only_as_a_move_or_a_plan_says() -> None:
    """After a run, ``cell.pending`` and ``cell.flow`` change only as the move says: in
    the driver's one ``match`` on it, and in its stop, which takes a stopping outcome's
    pending segments (before any run of the turn: its reply, its plan, a person's
    hand-back)."""
    tree = ast.parse((SRC / "tasks" / "turn.py").read_text(encoding="utf-8"))
    where = {
        fn.name
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        and any(field in ("pending", "flow") for _line, field in _writes(fn))
    }
    assert where == {"drive", "stop", "_plan_then_drive", "_handed_back", "_restore"}
