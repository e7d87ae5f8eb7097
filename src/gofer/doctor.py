"""``gofer doctor``: what this machine has and lacks for each part of gofer, and the
exact command that adds what is missing.

Only Chromium is needed to run tasks; the rest are parts a deployment may want (the
headless shell, the sandbox's user, PostgreSQL, the desktop surface, a model)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from importlib.metadata import PackageNotFoundError, version

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from gofer.config import GoferConfig
from gofer.errors import GoferError
from gofer.surfaces import OPERATOR, BrowserPolicy, describe_isolation, find_chromium
from gofer.surfaces.chromium import BROWSER_USER
from gofer.surfaces.desktop import desktop_available

__all__ = ["Check", "as_json", "isolation", "machine_checks", "print_checks"]

APT = "sudo apt-get install -y"
DESKTOP_PACKAGES = (
    "xvfb dbus libglib2.0-bin at-spi2-core gir1.2-atspi-2.0 openbox xdotool "
    "libgirepository1.0-dev libcairo2-dev pkg-config gcc"
)


def isolation(policy: BrowserPolicy) -> str:
    """In words, how a browser launched under ``policy`` is kept from this machine."""
    return describe_isolation(policy)


@dataclass(frozen=True, slots=True)
class Check:
    """One part of gofer on this machine: whether it is there, what was found, and the
    command that adds it when it is not (``needed``: tasks cannot run without it)."""

    part: str
    ok: bool
    found: str
    fix: str = ""
    needed: bool = False


def _version_of(executable: str) -> str:
    try:
        run = subprocess.run(
            [executable, "--version"], capture_output=True, text=True, timeout=20, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return executable
    words = run.stdout.strip().splitlines()
    return f"{words[0]} ({executable})" if words else executable


def _gofer_version() -> str:
    try:
        return version("gofer")
    except PackageNotFoundError:
        return "not installed as a package (run from a checkout)"


def _browser(config: GoferConfig) -> list[Check]:
    try:
        chromium = find_chromium(config.chromium)
    except GoferError:
        browser = Check(
            "Chromium (runs every browser task)",
            False,
            "not found",
            f"{APT} chromium  (or set GOFER_CHROMIUM to a Chromium or Chrome executable)",
            needed=True,
        )
    else:
        browser = Check("Chromium (runs every browser task)", True, _version_of(chromium))
    shell = shutil.which("chromium-headless-shell") or shutil.which("chrome-headless-shell")
    headless = Check(
        "Chromium's headless shell (headless tasks at half the CPU and memory)",
        shell is not None,
        shell or "not found: headless tasks run in Chromium",
        "" if shell else f"{APT} chromium-headless-shell",
    )
    isolation = describe_isolation(OPERATOR)
    sandbox = Check(
        "the browser's sandbox",
        not isolation.startswith("cannot"),
        isolation,
        ""
        if not isolation.startswith("cannot")
        else f"sudo useradd --system --no-create-home --shell /usr/sbin/nologin {BROWSER_USER}",
        needed=not browser.ok or isolation.startswith("cannot"),
    )
    return [browser, headless, sandbox]


def _postgres() -> list[Check]:
    psql = shutil.which("psql")
    server = any(
        os.access(os.path.join(root, "bin", "postgres"), os.X_OK) for root in _postgres_roots()
    )
    return [
        Check(
            "PostgreSQL's client (psql; gofer itself talks to PostgreSQL through psycopg)",
            psql is not None,
            psql or "not found",
            "" if psql else f"{APT} postgresql-client",
        ),
        Check(
            "a PostgreSQL server on this machine (for many workers; SQLite needs none)",
            server,
            "found" if server else "not found",
            "" if server else f"{APT} postgresql",
        ),
    ]


def _postgres_roots() -> list[str]:
    base = "/usr/lib/postgresql"
    if not os.path.isdir(base):
        return []
    return [os.path.join(base, name) for name in sorted(os.listdir(base))]


def _desktop() -> Check:
    ok, missing = desktop_available()
    fix = ""
    if not ok:
        fix = f"{APT} {DESKTOP_PACKAGES}"
        if importlib.util.find_spec("gi") is None:
            fix += "; then pip install 'gofer[desktop]' in gofer's environment"
    return Check("the desktop surface (Linux desktop applications)", ok, missing or "ready", fix)


def _model(config: GoferConfig) -> Check:
    passes = {
        "planner": config.planner_model,
        "rescuer": config.rescue_model,
        "decider": config.decider_model,
        "shaper": config.output_model,
    }
    named = [f"{name} {model}" for name, model in passes.items() if model]
    if named and config.model_base_url:
        return Check("a language model", True, f"{', '.join(named)} at {config.model_base_url}")
    return Check(
        "a language model (plain-language tasks, rescue; flows run without one)",
        False,
        "none configured: flows run on the deterministic grounder",
        "set GOFER_MODEL_BASE_URL (an OpenAI-compatible API), GOFER_MODEL_API_KEY and "
        "GOFER_PLANNER_MODEL (see gofer --help)",
    )


def _store(config: GoferConfig) -> Check:
    if config.db.startswith("postgresql://"):
        return Check("the task store", True, "PostgreSQL (GOFER_DB)")
    folder = os.path.dirname(os.path.abspath(config.db)) or "."
    while not os.path.exists(folder):
        folder = os.path.dirname(folder)
    writable = os.access(folder, os.W_OK)
    return Check(
        "the task store",
        writable,
        f"SQLite at {config.db}" + ("" if writable else f" ({folder} is not writable)"),
        "" if writable else "set GOFER_DB to a file in a folder you can write",
        needed=not writable,
    )


def machine_checks(config: GoferConfig) -> list[Check]:
    """Every part, in the order a new user meets them."""
    python = f"Python {sys.version.split()[0]}, gofer {_gofer_version()}"
    return [
        Check("gofer", True, python),
        *_browser(config),
        _store(config),
        _model(config),
        *_postgres(),
        _desktop(),
    ]


def as_json(checks: list[Check]) -> list[dict[str, object]]:
    return [asdict(check) for check in checks]


def print_checks(checks: list[Check], console: Console) -> int:
    """The checks as a table, then the commands that add what is missing; 0 when tasks
    can run here, 1 when a part they need is missing."""
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("")
    table.add_column("part")
    table.add_column("here")
    for check in checks:
        mark = (
            "[green]ok[/]" if check.ok else ("[red]MISSING[/]" if check.needed else "[yellow]no[/]")
        )
        table.add_row(mark, check.part, escape(check.found))
    console.print(table)
    fixes = [check for check in checks if not check.ok and check.fix]
    if fixes:
        console.print("\nTo add what is missing:")
        for check in fixes:
            console.print(f"  {escape(check.part)}:\n    {escape(check.fix)}", soft_wrap=True)
    needed = [check for check in checks if check.needed and not check.ok]
    if needed:
        console.print(
            "\n[red]gofer cannot run browser tasks here until what is marked MISSING is added.[/]"
        )
        return 1
    console.print("\ngofer can run tasks here.")
    return 0
