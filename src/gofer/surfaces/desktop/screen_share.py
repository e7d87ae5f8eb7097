"""A person's live view of the virtual desktop: the display's picture, their pointer and
keys sent to it through xdotool.

The picture is Xvfb's framebuffer, read at most ``max_fps`` times a second and sent as a
PNG whenever it changed: Xvfb tells no one when it paints (this is how a VNC server
without the damage extension follows a screen). Frames and input are the person's own:
never logged, stored or shown to anyone else; typed text reaches xdotool on its standard
input.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from types import TracebackType

from gofer.errors import SurfaceError
from gofer.surfaces.desktop.keys import KEYS
from gofer.surfaces.desktop.screenshot import png_of_xwd
from gofer.surfaces.live import (
    KeyInput,
    LiveDialog,
    LiveFrame,
    LiveOptions,
    PointerInput,
    check_text,
)

__all__ = ["DesktopLiveView", "x_key"]

BUTTONS = {"left": "1", "middle": "2", "right": "3"}
WHEEL_STEP = 40.0  # pixels of a wheel event per click of the wheel
DOM_KEYS = {
    "Enter": "Return",
    "Escape": "Escape",
    "Tab": "Tab",
    "Backspace": "BackSpace",
    "Delete": "Delete",
    "ArrowDown": "Down",
    "ArrowUp": "Up",
    "ArrowLeft": "Left",
    "ArrowRight": "Right",
    "Home": "Home",
    "End": "End",
    "PageUp": "Prior",
    "PageDown": "Next",
    "Shift": "Shift_L",
    "Control": "Control_L",
    "Alt": "Alt_L",
    "Meta": "Super_L",
    " ": "space",
}


def x_key(key: str) -> str | None:
    """The X key name for a key as the DOM names it (None for one X has no name for)."""
    if key in DOM_KEYS:
        return DOM_KEYS[key]
    if len(key) == 1 and key.isascii() and key.isalnum():
        return key
    if len(key) > 1 and key[0] == "F" and key[1:].isdigit():
        return key
    return KEYS.get(key.casefold())


class DesktopLiveView:
    """The live view of one desktop (see the module)."""

    def __init__(
        self,
        framebuffer: Path,
        env: dict[str, str],
        size: tuple[int, int],
        options: LiveOptions | None = None,
        *,
        url: Callable[[], str] = lambda: "",
    ) -> None:
        self._url = url
        self._framebuffer = framebuffer
        self._env = env
        self._size = size
        self._options = options or LiveOptions()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed or not self._framebuffer.exists()

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    @property
    def url(self) -> str:
        """The desktop's address (``desktop:`` and the application opened last)."""
        return self._url()

    async def frames(self) -> AsyncIterator[LiveFrame | LiveDialog]:
        period = 1 / self._options.max_fps
        last = b""
        while not self.closed:
            try:
                raw = await asyncio.to_thread(self._framebuffer.read_bytes)
            except OSError:
                return
            digest = hashlib.blake2b(raw, digest_size=16).digest()
            if digest != last:
                last = digest
                png = await asyncio.to_thread(png_of_xwd, raw)
                yield LiveFrame(png, self._size[0], self._size[1], media_type="image/png")
            await asyncio.sleep(period)

    async def answer(self, accept: bool, text: str = "") -> None:
        """A desktop's dialogs are windows on its picture: nothing waits here."""

    async def _xdotool(self, args: Sequence[str], stdin: bytes | None = None) -> None:
        if self.closed:
            raise SurfaceError("the live view is closed", code="LIVE_CLOSED")
        process = await asyncio.create_subprocess_exec(
            "xdotool",
            *args,
            stdin=asyncio.subprocess.PIPE if stdin is not None else asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            env=self._env,
        )
        await process.communicate(stdin)

    async def pointer(self, event: PointerInput) -> None:
        x = str(round(min(max(event.x, 0), self._size[0] - 1)))
        y = str(round(min(max(event.y, 0), self._size[1] - 1)))
        args = ["mousemove", x, y]
        button = BUTTONS.get(event.button)
        if event.action == "down" and button:
            args += ["mousedown", button]
        elif event.action == "up" and button:
            args += ["mouseup", button]
        elif event.action == "wheel":
            clicks = round(abs(event.dy) / WHEEL_STEP) or (1 if event.dy else 0)
            if clicks:
                args += ["click", "--repeat", str(min(clicks, 20)), "5" if event.dy > 0 else "4"]
        await self._xdotool(args)

    async def key(self, event: KeyInput) -> None:
        name = x_key(event.key)
        mods = event.modifiers
        if name is None and len(event.key) == 1 and event.action == "down":
            if not mods.any_command:
                await self._xdotool(["type", "--file", "-"], stdin=event.key.encode())
            return
        if name is None:
            return
        if event.action == "down" and mods.any_command:
            held = (
                ("ctrl", mods.ctrl),
                ("alt", mods.alt),
                ("super", mods.meta),
                ("shift", mods.shift),
            )
            await self._xdotool(["key", "+".join([*(m for m, on in held if on), name])])
            return
        await self._xdotool(["keydown" if event.action == "down" else "keyup", name])

    async def text(self, text: str) -> None:
        check_text(text)
        await self._xdotool(["type", "--file", "-"], stdin=text.encode())

    async def close(self) -> None:
        self._closed = True

    async def __aenter__(self) -> DesktopLiveView:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
