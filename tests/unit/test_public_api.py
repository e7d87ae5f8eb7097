"""The public API: every package's ``__all__`` is complete and true, and imports run
down the map (docs/architecture.md), never up."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGES = [
    "gofer",
    "gofer.flow",
    "gofer.facts",
    "gofer.safety",
    "gofer.shape",
    "gofer.models",
    "gofer.planner",
    "gofer.rescue",
    "gofer.decider",
    "gofer.surfaces",
    "gofer.decide",
    "gofer.runtime",
    "gofer.tasks",
    "gofer.demo",
    "gofer.store",
    "gofer.api",
]

SRC = Path(__file__).resolve().parents[2] / "src" / "gofer"


@pytest.mark.parametrize("name", PACKAGES)
def test_all_names_exist_and_cover_the_public_namespace(name: str) -> None:
    module = importlib.import_module(name)
    exported = list(module.__all__)
    assert len(exported) == len(set(exported)), "a name is exported twice"
    for item in exported:
        assert hasattr(module, item), f"{name}.__all__ names {item}, which is missing"
    public = {
        n
        for n, v in vars(module).items()
        if not n.startswith("_")
        and not isinstance(v, type(importlib))
        and getattr(v, "__module__", name).startswith("gofer")
    }
    # annotations and typing helpers re-exported by accident do not count
    public -= {"annotations", "TYPE_CHECKING"}
    assert public <= set(exported) | {"annotations"}, f"not in __all__: {public - set(exported)}"


def _files(part: str) -> list[Path]:
    """The files of ``part`` of gofer: a package's modules, or a top-level module."""
    folder = SRC / part
    return sorted(folder.rglob("*.py")) if folder.is_dir() else [SRC / f"{part}.py"]


def _imports(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` (or the top-level module of that name) and the gofer
    packages and modules it imports at run time."""
    found: dict[str, set[str]] = {}
    for path in _files(package):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                for inner in ast.walk(node):
                    inner.type_checking = True  # type: ignore[attr-defined]
        for node in ast.walk(tree):
            if getattr(node, "type_checking", False):
                continue
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(a.name for a in node.names)
        found[str(path.relative_to(SRC))] = {
            n.split(".")[1] for n in names if n.startswith("gofer.") and n.count(".") >= 1
        }
    return found


ALLOWED = {
    "flow": {"flow", "errors", "naming"},
    "facts": {"facts", "errors", "naming"},
    "safety": {"safety", "errors"},
    "shape": {"shape", "errors", "flow", "models"},
    "surfaces": {"surfaces", "errors"},
    "decide": {"decide", "errors", "flow", "safety", "surfaces"},
    "runtime": {"runtime", "errors", "flow", "facts", "safety", "surfaces", "decide"},
    "tasks": {
        "tasks",
        "errors",
        "flow",
        "facts",
        "safety",
        "shape",
        "surfaces",
        "decide",
        "runtime",
        "models",
        "planner",
        "rescue",
        "store",
    },
    "planner": {"planner", "errors", "flow", "models"},
    "rescue": {"rescue", "errors", "flow", "models"},
    "decider": {"decider", "errors", "models", "decide", "runtime", "surfaces"},
    "demo": {"demo", "errors", "serving"},
    "models": {"models", "errors"},
    "store": {"store", "errors"},
    "api": {"api", "errors", "tasks", "flow", "facts", "safety", "store", "serving"},
    # the top-level modules: the leaves, what a process is configured with, the machine's
    # checks, the one place a process is put together, and the command-line face
    "__init__": {"errors"},
    "errors": set(),
    "naming": set(),
    "serving": {"errors"},
    "config": {"errors", "models", "runtime", "store", "surfaces"},
    "doctor": {"config", "errors", "surfaces"},
    "wiring": {
        "config",
        "decider",
        "errors",
        "models",
        "planner",
        "rescue",
        "runtime",
        "shape",
        "store",
        "surfaces",
        "tasks",
    },
    **{
        cli: {"api", "config", "demo", "doctor", "errors", "facts", "flow", "store", "tasks"}
        | {"wiring", "cli_flows", "cli_remote", "cli_terminal"}
        for cli in ("cli", "cli_flows", "cli_remote", "cli_terminal")
    },
}

FACES = ["api", "cli", "cli_flows", "cli_remote", "cli_terminal"]
"""What callers reach gofer through: they reach tasks/ through ``gofer.tasks`` alone."""


def test_every_module_of_gofer_has_a_place_on_the_map() -> None:
    parts = {p.name for p in SRC.iterdir() if (p / "__init__.py").exists()}
    parts |= {p.stem for p in SRC.glob("*.py")}
    assert parts == set(ALLOWED), (
        f"without a place: {sorted(parts - set(ALLOWED))}; gone: {sorted(set(ALLOWED) - parts)}"
    )


@pytest.mark.parametrize("face", FACES)
def test_the_faces_reach_tasks_through_its_public_face(face: str) -> None:
    """Not one import of a module inside gofer.tasks, not even for type checking or
    inside a function: the faces speak the names ``gofer.tasks`` exports."""
    for path in _files(face):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            deep = [n for n in names if n.startswith("gofer.tasks.")]
            assert not deep, f"{path.relative_to(SRC)} imports {deep}: use gofer.tasks"


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_run_down_the_map(package: str) -> None:
    for module, imported in _imports(package).items():
        wrong = imported - ALLOWED[package]
        assert not wrong, f"{module} imports {sorted(wrong)}, against docs/architecture.md"


def _module_graph(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of the same package it imports,
    counting imports made only for type checking."""
    graph: dict[str, set[str]] = {}
    for path in (SRC / package).rglob("*.py"):
        module = "gofer." + ".".join(path.relative_to(SRC).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.startswith(f"gofer.{package}.")
        }
    return graph


@pytest.mark.parametrize("package", sorted(p for p in ALLOWED if (SRC / p).is_dir()))
def test_no_module_imports_itself_back(package: str) -> None:
    """No cycle between a package's modules, not even one hidden behind TYPE_CHECKING
    (the package's ``__init__`` only re-exports, so it is left out)."""
    graph = _module_graph(package)
    graph.pop(f"gofer.{package}", None)

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, set()):
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                if reaches(nxt, goal, seen):
                    return True
        return False

    cycles = sorted(m for m in graph if reaches(m, m, set()))
    assert not cycles, f"modules that import themselves back: {cycles}"


def test_nothing_outside_surfaces_imports_playwright() -> None:
    """The Surface protocol is all the rest of gofer sees of the browser library."""
    offenders = []
    for path in SRC.rglob("*.py"):
        if path.relative_to(SRC).parts[0] == "surfaces":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else []
            )
            if any(n == "playwright" or n.startswith("playwright.") for n in names):
                offenders.append(str(path.relative_to(SRC)))
    assert not offenders, f"import Playwright outside gofer.surfaces: {sorted(offenders)}"


def test_the_tasks_seams_keep_their_fake_and_the_real_runner_apart() -> None:
    """The runner seam (tasks/seams.py) and its scripted fake (tasks/testing.py) are
    apart, and the real runner sits beside the runtime (runtime/workspace_runner.py):
    no module of tasks/ but the fake imports the fake surface, and none imports the
    real runner; holding a browser for a person is tasks/holding.py, and a claimed turn
    runs from its load to its end in tasks/turn.py, over the modules named for what
    they hold: the task's in-turn state and its views (cell.py), the ledger side of a
    turn (book.py), what a run's result means for the task (outcome.py), the task's
    state (state.py) and its events (events.py)."""
    modules = {p.name for p in (SRC / "tasks").glob("*.py")}
    turn = {"seams.py", "turn.py", "cell.py", "book.py", "outcome.py", "state.py", "events.py"}
    assert turn | {"testing.py", "holding.py", "worker.py"} <= modules
    folded = {"runner.py", "interpret.py", "recovery.py", "codes.py", "handback.py"}
    folded |= {"publish.py", "journal.py", "drive.py", "store.py", "live.py"}
    assert not folded & modules and "workspace_runner.py" not in modules
    assert (SRC / "runtime" / "workspace_runner.py").exists()
    for path in (SRC / "tasks").glob("*.py"):
        if path.name == "__init__.py":
            continue  # names both lazily (see the next test)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        assert "gofer.runtime.workspace_runner" not in imported, path.name
        if path.name != "testing.py":
            assert "gofer.surfaces.testing" not in imported, path.name
            assert "gofer.tasks.testing" not in imported or path.name == "examples.py", path.name


def test_importing_the_tasks_package_loads_neither_playwright_nor_runner_nor_fake() -> None:
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, gofer.tasks; print(' '.join(sorted(sys.modules)))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    for fake_or_real in (
        "playwright",
        "gofer.tasks.testing",
        "gofer.surfaces.testing",
        "gofer.models.testing",
        "gofer.runtime.workspace_runner",
    ):
        assert fake_or_real not in loaded
    assert not [m for m in loaded if m.split(".")[0] == "playwright"]
    assert not [m for m in loaded if {"testing", "fake", "fakes"} & set(m.split("."))]
    from gofer.tasks import ScriptedRunner, WorkspaceRunner  # the names still import

    assert ScriptedRunner.__module__ == "gofer.tasks.testing"
    assert WorkspaceRunner.__module__ == "gofer.runtime.workspace_runner"


def test_a_claimed_turn_runs_down_from_its_one_owner() -> None:
    """tasks/turn.py owns a claimed turn; the modules it runs over (the task's in-turn
    state and views, the ledger side, what a result means, the pre-run checks, the
    seams, and the state, events and errors under them) never reach back up into the
    turn, the worker, the controller or the held browsers; the state module, the
    bottom of tasks/, imports no other module of it."""
    graph = _module_graph("tasks")
    owners = {f"gofer.tasks.{m}" for m in ("turn", "worker", "controller", "holding")}
    for part in ("cell", "book", "outcome", "checks", "seams", "state", "events", "errors"):
        assert not graph[f"gofer.tasks.{part}"] & owners, part
    assert graph["gofer.tasks.state"] == set()
    assert "gofer.tasks.turn" in graph["gofer.tasks.worker"]
