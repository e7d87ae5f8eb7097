"""Finding the Chromium executable gofer drives (Debian's ``chromium`` by default)."""

from __future__ import annotations

import os
import shutil

from gofer.errors import SurfaceError

__all__ = ["CHROMIUM_ARGS", "chromium_available", "find_chromium"]

CHROMIUM_ARGS: tuple[str, ...] = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
"""Command-line switches every browser gofer launches gets."""

_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_FALLBACK = "/usr/bin/chromium"
_HINT = "install Debian's `chromium` package (apt-get install chromium) or name the executable"


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_chromium(explicit: str | None = None) -> str:
    """The path of the Chromium (or Chrome) executable to launch.

    ``explicit`` wins when given (a path or a command name on ``PATH``); otherwise
    the usual command names are looked up on ``PATH``, then ``/usr/bin/chromium``.
    Raises :class:`SurfaceError` ``CHROMIUM_NOT_FOUND`` when none is there.
    """
    if explicit:
        found = explicit if _executable(explicit) else shutil.which(explicit)
        if found:
            return found
        raise SurfaceError(
            f"the browser executable {explicit!r} does not exist or is not executable",
            code="CHROMIUM_NOT_FOUND",
            path=explicit,
            hint=_HINT,
        )
    for name in _NAMES:
        found = shutil.which(name)
        if found:
            return found
    if _executable(_FALLBACK):
        return _FALLBACK
    raise SurfaceError(
        "no Chromium or Chrome executable was found",
        code="CHROMIUM_NOT_FOUND",
        searched=list(_NAMES),
        hint=_HINT,
    )


def chromium_available(explicit: str | None = None) -> tuple[bool, str]:
    """Whether a browser can be launched: ``(True, path)`` or ``(False, reason)``."""
    try:
        return True, find_chromium(explicit)
    except SurfaceError as err:
        return False, f"{err.message}; {_HINT}"
