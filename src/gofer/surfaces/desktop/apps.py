"""Which program an ``open`` step means: a desktop entry (by its file name, its
``Name`` or ``GenericName``), or a program on the ``PATH`` by its own name."""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gofer.errors import SurfaceError

__all__ = ["APPLICATION_DIRS", "Application", "find_application"]

APPLICATION_DIRS: tuple[Path, ...] = (
    Path("/usr/share/applications"),
    Path("/usr/local/share/applications"),
)


@dataclass(frozen=True, slots=True)
class Application:
    """A program to start: its command line and the name a person knows it by."""

    name: str
    argv: tuple[str, ...]


def _entry(path: Path) -> dict[str, str]:
    fields: dict[str, str] = {}
    section = ""
    for raw in path.read_text(encoding="utf-8", errors="replace").splitlines():
        line = raw.strip()
        if line.startswith("["):
            section = line
        elif section == "[Desktop Entry]" and "=" in line:
            key, _, value = line.partition("=")
            fields.setdefault(key.strip(), value.strip())
    return fields


def _argv(exec_line: str) -> tuple[str, ...]:
    """An entry's ``Exec`` without its field codes (``%U``, ``%f`` ...)."""
    words = [w for w in shlex.split(exec_line) if not (len(w) == 2 and w.startswith("%"))]
    return tuple(w.replace("%%", "%") for w in words)


def find_application(wanted: str, dirs: Sequence[Path] = APPLICATION_DIRS) -> Application:
    """The application ``wanted`` names (SURFACE_APP_NOT_FOUND when none)."""
    key = wanted.strip().removesuffix(".desktop").casefold()
    matches: list[tuple[int, Application]] = []
    for folder in dirs:
        if not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.desktop")):
            fields = _entry(path)
            if fields.get("Type") != "Application" or "Exec" not in fields:
                continue
            if fields.get("NoDisplay") == "true" or fields.get("Hidden") == "true":
                rank_offset = 1
            else:
                rank_offset = 0
            names = {
                0: path.stem.casefold(),
                1: fields.get("Name", "").casefold(),
                2: fields.get("GenericName", "").casefold(),
            }
            tail = path.stem.casefold().rsplit(".", 1)[-1]
            for rank, name in names.items():
                if key and key in (name, tail if rank == 0 else name):
                    argv = _argv(fields["Exec"])
                    if argv and shutil.which(argv[0]):
                        matches.append(
                            (rank * 2 + rank_offset, Application(fields.get("Name", key), argv))
                        )
                    break
    if matches:
        return min(matches, key=lambda m: m[0])[1]
    # a bare program name only: an open step names an application, never a command line
    program = wanted.strip()
    if program and " " not in program and "/" not in program and shutil.which(program):
        return Application(program, (program,))
    raise SurfaceError(
        f"no application called '{wanted}' is installed", code="SURFACE_APP_NOT_FOUND"
    )
