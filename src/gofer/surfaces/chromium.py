"""Finding the Chromium executable gofer drives (Debian's ``chromium`` by default)."""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from gofer.errors import SurfaceError
from gofer.surfaces.policy import BrowserPolicy, shown

__all__ = [
    "BROWSER_USER",
    "CHROMIUM_ARGS",
    "NO_SANDBOX",
    "LaunchPlan",
    "chromium_available",
    "describe_isolation",
    "find_chromium",
    "launch_plan",
]

BROWSER_USER = "gofer-browser"
"""The unprivileged user ``./dev setup`` creates (as root) for the browser to run as."""
NO_SANDBOX = "--no-sandbox"
"""The switch that turns Chromium's sandbox off: only by the operator's explicit choice."""

CHROMIUM_ARGS: tuple[str, ...] = (
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
)
"""Command-line switches every browser gofer launches gets."""

_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
_HEADLESS_NAMES = ("chromium-headless-shell", "chrome-headless-shell")
"""Chromium's headless-only build (Debian's ``chromium-headless-shell``, the one
Playwright runs headless by default): the same engine without the browser's window and
interface, which a headless session never shows. It is launched in their place when
there: about half the CPU and memory for each page."""
_FALLBACK = "/usr/bin/chromium"
_HINT = "install Debian's `chromium` package (apt-get install chromium) or name the executable"


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_chromium(explicit: str | None = None, *, headless: bool = False) -> str:
    """The path of the Chromium (or Chrome) executable to launch.

    ``explicit`` wins when given (a path or a command name on ``PATH``); otherwise,
    for a ``headless`` browser, Chromium's headless shell when it is on ``PATH``, then
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
    for name in (*_HEADLESS_NAMES, *_NAMES) if headless else _NAMES:
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


@dataclass(frozen=True, slots=True)
class LaunchPlan:
    """How the browser is launched: the executable, its switches, whether its sandbox
    is on, and the words ``gofer describe`` says it in."""

    executable: str
    args: tuple[str, ...]
    sandbox: bool
    isolation: str
    workdir: str | None = None
    """The wrapper's own directory, removed when the browser is done with."""
    downloads: str | None = None
    """Where the browser saves what it downloads, when it runs as another user (who can
    write there; None: Playwright's own folder)."""


_WRAPPER = """#!/bin/sh
# Runs Chromium as {user}: gofer runs as root, where Chromium cannot keep its sandbox.
for arg in "$@"; do
  case "$arg" in --user-data-dir=*) chown -R {user} "${{arg#--user-data-dir=}}" ;; esac
done
exec setpriv --reuid={uid} --regid={gid} --init-groups -- \\
  env HOME={home} XDG_CONFIG_HOME={home}/.config XDG_CACHE_HOME={home}/.cache {chromium} "$@"
"""


def _user(name: str) -> pwd.struct_passwd | None:
    try:
        return pwd.getpwnam(name)
    except KeyError:
        return None


def launch_plan(path: str, policy: BrowserPolicy, euid: int | None = None) -> LaunchPlan:
    """How to launch the Chromium at ``path`` under ``policy``.

    The sandbox stays on. Only as root, where Chromium cannot keep it, does the browser
    run as an unprivileged user (``policy.browser_user``, else ``gofer-browser`` when
    it exists) through a small wrapper; with ``sandbox="off"`` the operator chose to
    run it without (``--no-sandbox``). As root with neither, ``SANDBOX_UNAVAILABLE``.
    """
    if policy.sandbox == "off":
        return LaunchPlan(
            path, (*CHROMIUM_ARGS, NO_SANDBOX), False, "no sandbox (the operator's choice)"
        )
    if (os.geteuid() if euid is None else euid) != 0:
        return LaunchPlan(path, CHROMIUM_ARGS, True, "sandboxed")
    name = policy.browser_user or BROWSER_USER
    user = _user(name)
    if user is None or user.pw_uid == 0:
        raise SurfaceError(
            "gofer runs as root, where Chromium cannot keep its sandbox, and there is no "
            f"unprivileged user {name!r} to run it as: run ./dev setup (it creates "
            f"{BROWSER_USER}), name one in GOFER_BROWSER_USER, or turn the sandbox off "
            "yourself with GOFER_NO_SANDBOX=1",
            code="SANDBOX_UNAVAILABLE",
            user=name,
        )
    where = Path(tempfile.mkdtemp(prefix="gofer-browser-"))
    where.chmod(0o711)  # the user passes through to its home, and reads nothing else
    home = where / "home"
    home.mkdir()
    os.chown(home, user.pw_uid, user.pw_gid)
    downloads = home / "downloads"
    downloads.mkdir(mode=0o700)
    os.chown(downloads, user.pw_uid, user.pw_gid)
    wrapper = where / "chromium"
    wrapper.write_text(
        _WRAPPER.format(
            user=shlex.quote(name),
            uid=user.pw_uid,
            gid=user.pw_gid,
            home=shlex.quote(str(home)),
            chromium=shlex.quote(path),
        )
    )
    wrapper.chmod(0o700)
    return LaunchPlan(
        str(wrapper),
        CHROMIUM_ARGS,
        True,
        f"sandboxed, as the unprivileged user {name}",
        str(where),
        str(downloads),
    )


def describe_isolation(policy: BrowserPolicy, euid: int | None = None) -> str:
    """In words, how the browser is kept from the machine under ``policy``."""
    if policy.remote:
        return f"in the operator's remote browser at {shown(policy.remote)}"
    if policy.sandbox == "off":
        return "no sandbox (the operator's choice)"
    if (os.geteuid() if euid is None else euid) != 0:
        return "sandboxed"
    name = policy.browser_user or BROWSER_USER
    user = _user(name)
    if user is None or user.pw_uid == 0:
        return f"cannot start: running as root with no unprivileged user {name!r}"
    return f"sandboxed, as the unprivileged user {name}"
