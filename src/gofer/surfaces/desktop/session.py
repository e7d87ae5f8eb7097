"""A virtual desktop: Xvfb on a free display, a D-Bus session bus, the AT-SPI bus and a
small window manager, each started by gofer in its own process group and ended by its
id.

Applications started on it (:meth:`DesktopSession.launch`) get the desktop's display and
buses in their environment, with toolkit accessibility switched on, and a private home
for their settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from gofer.errors import SurfaceError

__all__ = [
    "AT_SPI_LAUNCHER",
    "DesktopProcess",
    "DesktopSession",
    "SessionOptions",
    "missing_programs",
]

AT_SPI_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
WINDOW_MANAGERS = ("openbox", "matchbox-window-manager")


@dataclass(frozen=True, slots=True)
class SessionOptions:
    """How the virtual desktop is made."""

    width: int = 1280
    height: int = 800
    window_manager: bool = True
    start_timeout_s: float = 10.0


def missing_programs() -> list[str]:
    """What the desktop surface needs and this machine lacks, in words ([] when nothing)."""
    missing = []
    if shutil.which("Xvfb") is None:
        missing.append("Xvfb (Debian package xvfb)")
    if shutil.which("dbus-daemon") is None:
        missing.append("dbus-daemon (Debian package dbus)")
    if shutil.which("gdbus") is None:
        missing.append("gdbus (Debian package libglib2.0-bin)")
    if not os.access(AT_SPI_LAUNCHER, os.X_OK):
        missing.append("the AT-SPI bus (Debian package at-spi2-core)")
    if shutil.which("xdotool") is None:
        missing.append("xdotool (Debian package xdotool)")
    return missing


@dataclass(slots=True)
class DesktopProcess:
    """One process gofer started on the desktop, in a process group of its own."""

    name: str
    process: asyncio.subprocess.Process

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def running(self) -> bool:
        return self.process.returncode is None

    async def end(self, grace_s: float = 2.0) -> None:
        """End the process and its group (by the group's id): TERM, then KILL."""
        if self.running:
            _signal_group(self.pid, signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), grace_s)
            except TimeoutError:
                _signal_group(self.pid, signal.SIGKILL)
                await self.process.wait()
        # children left in the group after its leader went (an activated service)
        _signal_group(self.pid, signal.SIGKILL)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, sig)


@dataclass(slots=True)
class DesktopSession:
    """A running virtual desktop. Make one with :meth:`start`; :meth:`close` ends every
    process it started."""

    display: str
    bus_address: str
    home: Path
    framebuffer: Path
    options: SessionOptions
    processes: list[DesktopProcess] = field(default_factory=list)
    closed: bool = False

    @classmethod
    async def start(cls, options: SessionOptions | None = None) -> DesktopSession:
        """Start Xvfb on a free display, a session bus, the AT-SPI bus and a window
        manager (SURFACE_UNAVAILABLE when a program is missing or does not start)."""
        options = options or SessionOptions()
        missing = missing_programs()
        if missing:
            raise SurfaceError(
                "the desktop needs " + ", ".join(missing), code="SURFACE_UNAVAILABLE"
            )
        home = Path(tempfile.mkdtemp(prefix="gofer-desktop-"))
        fbdir = home / "fb"
        fbdir.mkdir()
        session = cls("", "", home, fbdir / "Xvfb_screen0", options)
        try:
            await session._start_x(fbdir)
            await session._start_bus()
            await session._start_accessibility()
            if options.window_manager:
                await session._start_window_manager()
        except BaseException:
            await session.close()
            raise
        return session

    @property
    def env(self) -> dict[str, str]:
        """The environment an application on this desktop runs with."""
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DBUS_", "AT_SPI_", "WAYLAND_", "XDG_"))
            and k not in {"DISPLAY", "HOME", "NO_AT_BRIDGE", "GTK_MODULES"}
        }
        runtime = self.home / "run"
        runtime.mkdir(mode=0o700, exist_ok=True)
        env.update(
            DISPLAY=self.display,
            DBUS_SESSION_BUS_ADDRESS=self.bus_address,
            HOME=str(self.home),
            XDG_RUNTIME_DIR=str(runtime),
            XDG_CONFIG_HOME=str(self.home / "config"),
            XDG_DATA_HOME=str(self.home / "data"),
            XDG_CACHE_HOME=str(self.home / "cache"),
            GDK_BACKEND="x11",
            GSETTINGS_BACKEND="memory",
            GTK_A11Y="atspi",
            NO_AT_BRIDGE="0",
            GNOME_ACCESSIBILITY="1",
            QT_ACCESSIBILITY="1",
            QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1",
            LIBGL_ALWAYS_SOFTWARE="1",
        )
        return env

    async def _spawn(
        self,
        name: str,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        pass_fds: Sequence[int] = (),
        stdout: int | None = asyncio.subprocess.DEVNULL,
        cwd: Path | None = None,
    ) -> DesktopProcess:
        process = await asyncio.create_subprocess_exec(
            *argv,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=stdout,
            stderr=asyncio.subprocess.DEVNULL,
            env=dict(env if env is not None else os.environ),
            pass_fds=tuple(pass_fds),
            start_new_session=True,
            cwd=cwd,
        )
        started = DesktopProcess(name, process)
        self.processes.append(started)
        return started

    async def _read_fd(self, fd: int, what: str) -> str:
        """One line a starting program writes to ``fd`` (the read end is ours)."""
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(fd, "rb", 0)
        )
        try:
            line = await asyncio.wait_for(reader.readline(), self.options.start_timeout_s)
        except TimeoutError as exc:
            raise SurfaceError(f"{what} did not start", code="SURFACE_UNAVAILABLE") from exc
        finally:
            transport.close()
        if not line.strip():
            raise SurfaceError(f"{what} did not start", code="SURFACE_UNAVAILABLE")
        return line.decode().strip()

    async def _start_x(self, fbdir: Path) -> None:
        read, write = os.pipe()
        try:
            await self._spawn(
                "Xvfb",
                [
                    "Xvfb",
                    "-displayfd",
                    str(write),
                    "-screen",
                    "0",
                    f"{self.options.width}x{self.options.height}x24",
                    "-fbdir",
                    str(fbdir),
                    "-nolisten",
                    "tcp",
                    "-noreset",
                ],
                pass_fds=[write],
            )
        finally:
            os.close(write)
        self.display = ":" + await self._read_fd(read, "Xvfb")

    async def _start_bus(self) -> None:
        read, write = os.pipe()
        try:
            await self._spawn(
                "dbus-daemon",
                [
                    "dbus-daemon",
                    "--session",
                    "--nofork",
                    "--nopidfile",
                    f"--print-address={write}",
                ],
                env=self.env,
                pass_fds=[write],
            )
        finally:
            os.close(write)
        self.bus_address = await self._read_fd(read, "the D-Bus session bus")

    async def _start_accessibility(self) -> None:
        launcher = await self._spawn(
            "at-spi-bus-launcher",
            [AT_SPI_LAUNCHER, "--launch-immediately", "--a11y=1"],
            env=self.env,
        )
        # the launcher is ready once it owns org.a11y.Bus on the session bus: wait for
        # the name to appear (asking for it could start a second launcher through the
        # bus's service file)
        probe = await asyncio.create_subprocess_exec(
            "gdbus",
            "wait",
            "--session",
            "--timeout",
            str(int(self.options.start_timeout_s)),
            "org.a11y.Bus",
            env=self.env,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )
        if await probe.wait() != 0 or not launcher.running:
            raise SurfaceError("the AT-SPI bus did not start", code="SURFACE_UNAVAILABLE")

    async def _start_window_manager(self) -> None:
        for wm in WINDOW_MANAGERS:
            if shutil.which(wm) is not None:
                argv = [wm, "--sm-disable"] if wm == "openbox" else [wm]
                await self._spawn(wm, argv, env=self.env)
                return

    async def launch(
        self, argv: Sequence[str], *, name: str | None = None, stdout: int | None = None
    ) -> DesktopProcess:
        """Start an application on this desktop (``stdout``: ``asyncio.subprocess.PIPE``
        to read what it prints)."""
        if self.closed:
            raise SurfaceError("the desktop is closed", code="WORKSPACE_CLOSED")
        try:
            return await self._spawn(
                name or argv[0],
                argv,
                env=self.env,
                cwd=self.home,
                stdout=asyncio.subprocess.DEVNULL if stdout is None else stdout,
            )
        except OSError as exc:
            raise SurfaceError(
                f"could not start {argv[0]}: {exc.strerror}", code="SURFACE_APP_FAILED"
            ) from exc

    async def start_agent(self) -> DesktopProcess:
        """Start the AT-SPI agent (:mod:`gofer.surfaces.desktop.agent`) on this desktop,
        its standard input and output piped to gofer."""
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "gofer.surfaces.desktop.agent",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            env=self.env,
            start_new_session=True,
            limit=64 * 1024 * 1024,
        )
        agent = DesktopProcess("agent", process)
        self.processes.append(agent)
        return agent

    async def close(self) -> None:
        """End every process the session started, newest first, and remove its home.
        A cancel while it runs (a task's release cut short) waits for the ending to
        finish first: no process of the desktop outlives it."""
        self.closed = True
        ending = asyncio.ensure_future(self._end_all())
        try:
            await asyncio.shield(ending)
        except asyncio.CancelledError:
            await ending
            raise

    async def _end_all(self) -> None:
        try:
            while self.processes:
                await self.processes[-1].end()
                self.processes.pop()
        finally:
            for process in self.processes:  # only when ending them failed
                _signal_group(process.pid, signal.SIGKILL)
            shutil.rmtree(self.home, ignore_errors=True)
