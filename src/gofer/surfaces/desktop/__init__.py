"""The desktop surface: Linux desktop applications on a virtual desktop, read and driven
through their accessibility tree (AT-SPI).

One module per concept: ``session`` (Xvfb, the D-Bus session bus, the AT-SPI bus and a
window manager, each process ended by its id), ``agent`` and ``atspi`` (the process that
walks the tree and acts, and its edge with PyGObject), ``tree`` (the walked tree as the
screen model), ``actions`` (AT-SPI actions with a keyboard and pointer fallback),
``screenshot``, ``apps`` (which program an ``open`` step names) and ``surface`` (all of
it behind the :class:`~gofer.surfaces.Surface` interface). Nothing here imports PyGObject
in gofer's own process: only the agent does.
"""

from __future__ import annotations

import glob
import importlib.util

from gofer.surfaces.desktop.session import SessionOptions, missing_programs
from gofer.surfaces.desktop.surface import DesktopSurface

__all__ = ["DesktopSurface", "SessionOptions", "desktop_available"]


def desktop_available() -> tuple[bool, str | None]:
    """Whether this machine can run the desktop surface, and if not, exactly what is
    missing."""
    missing = missing_programs()
    if importlib.util.find_spec("gi") is None:
        missing.append(
            "PyGObject in gofer's Python environment (pip install 'gofer[desktop]', "
            "with Debian's libgirepository1.0-dev, libcairo2-dev and pkg-config to build it)"
        )
    if not glob.glob("/usr/lib/*/girepository-1.0/Atspi-2.0.typelib") and not glob.glob(
        "/usr/lib/girepository-1.0/Atspi-2.0.typelib"
    ):
        missing.append("AT-SPI's introspection data (Debian package gir1.2-atspi-2.0)")
    if missing:
        return False, (
            "missing " + "; ".join(missing) + " (`gofer doctor` prints the command that adds "
            "them; from a checkout, `./dev setup --desktop`)"
        )
    return True, None
