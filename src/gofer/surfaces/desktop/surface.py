"""The desktop surface: applications on a virtual desktop, behind the Surface interface.

A :class:`DesktopSurface` owns one :class:`~gofer.surfaces.desktop.session.DesktopSession`
and its AT-SPI agent. :meth:`DesktopSurface.open` starts an application; a snapshot
reads every application's windows into the screen model; actions go to the agent
(AT-SPI first, keyboard and pointer as the fallback) and report what they changed from
the accessibility events that followed them.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from gofer.errors import SurfaceError, SurfaceTimeout
from gofer.surfaces.base import ActionEffect, Masker, Selection, SurfaceKind
from gofer.surfaces.desktop.apps import find_application
from gofer.surfaces.desktop.screen_share import DesktopLiveView
from gofer.surfaces.desktop.screenshot import screenshot
from gofer.surfaces.desktop.session import DesktopProcess, DesktopSession, SessionOptions
from gofer.surfaces.desktop.tree import build_screen
from gofer.surfaces.live import LiveOptions
from gofer.surfaces.screen import Box, Screen

__all__ = ["DesktopSurface", "effect_of"]

REQUEST_TIMEOUT_S = 30.0
OPEN_TIMEOUT_MS = 20_000


def effect_of(events: Sequence[str]) -> ActionEffect:
    """What an action changed, from the accessibility events after it."""
    kinds = set(events)

    def any_of(*prefixes: str) -> bool:
        return any(k.startswith(prefixes) for k in kinds)

    return ActionEffect(
        dom_changed=any_of("object:children-changed", "window:create", "window:destroy"),
        focus_changed=any_of("object:state-changed:focused", "window:activate"),
        dialog=any_of("window:create"),
        state_changed=any_of(
            "object:state-changed:checked",
            "object:state-changed:pressed",
            "object:state-changed:selected",
            "object:state-changed:expanded",
            "object:state-changed:showing",
            "object:state-changed:visible",
            "object:state-changed:sensitive",
        ),
        values_changed=any_of(
            "object:text-changed",
            "object:value-changed",
            "object:property-change:accessible-value",
            "object:property-change:accessible-name",
        ),
    )


class DesktopSurface:
    """The applications of one virtual desktop. Make one with :meth:`start`."""

    kind: SurfaceKind = "desktop"

    def __init__(self, session: DesktopSession, agent: DesktopProcess) -> None:
        self.session = session
        self._agent = agent
        self._lock = asyncio.Lock()
        self._nodes: dict[str, Box] = {}
        self._app = ""
        self._closed = False
        self.walk_ms = 0.0

    @classmethod
    async def start(cls, options: SessionOptions | None = None) -> DesktopSurface:
        """A new virtual desktop and its agent (SURFACE_UNAVAILABLE when it cannot run)."""
        session = await DesktopSession.start(options)
        try:
            agent = await session.start_agent()
        except BaseException:
            await session.close()
            raise
        return cls(session, agent)

    # ------------------------------------------------------------------ talking

    async def _ask(self, request: dict[str, Any], timeout_s: float = REQUEST_TIMEOUT_S) -> Any:
        if self._closed:
            raise SurfaceError("the desktop is closed", code="WORKSPACE_CLOSED")
        process = self._agent.process
        assert process.stdin is not None and process.stdout is not None
        async with self._lock:
            process.stdin.write(json.dumps(request).encode() + b"\n")
            try:
                await process.stdin.drain()
                line = await asyncio.wait_for(process.stdout.readline(), timeout_s)
            except TimeoutError as exc:
                raise SurfaceTimeout(
                    "the desktop did not answer in time", code="SURFACE_TIMEOUT"
                ) from exc
            except ConnectionError as exc:
                raise SurfaceError("the desktop's agent is gone", code="SURFACE_ERROR") from exc
        if not line:
            raise SurfaceError("the desktop's agent is gone", code="SURFACE_ERROR")
        reply = json.loads(line)
        if not reply.get("ok"):
            code = str(reply.get("code"))
            kind = SurfaceTimeout if code.endswith("_TIMEOUT") else SurfaceError
            raise kind(str(reply.get("error")), code=code)
        return reply

    async def _act(self, kind: str, ref: str | None, **arg: Any) -> ActionEffect:
        if ref is not None:
            box = self._nodes.get(ref)
            if box is None:
                raise SurfaceError(
                    f"no element {ref} on the latest screen", code="SURFACE_STALE_REF"
                )
            arg["box"] = [box.x, box.y, box.width, box.height]
        reply = await self._ask({"op": "act", "kind": kind, "ref": ref, "arg": arg})
        effect = effect_of(reply["events"])
        if "value" in reply:
            effect = dataclasses.replace(effect, value=str(reply["value"]))
        return effect

    # ------------------------------------------------------------------ the surface

    @property
    def url(self) -> str:
        return f"desktop:{self._app}"

    @property
    def pages(self) -> int:
        return 0 if self._closed else 1

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def blocked(self) -> list[str]:
        return []

    async def open(self, wanted: str) -> ActionEffect:
        """Start the application ``wanted`` names and wait for its window."""
        app = find_application(wanted)
        await self.launch(app.argv, name=app.name)
        return ActionEffect(new_page=True, dom_changed=True)

    async def launch(
        self, argv: Sequence[str], *, name: str = "", stdout: int | None = None
    ) -> DesktopProcess:
        """Start ``argv`` on the desktop and wait for its window."""
        before = [[a["pid"], a["windows"]] for a in (await self._ask({"op": "apps"}))["apps"]]
        process = await self.session.launch(argv, name=name or argv[0], stdout=stdout)
        await self._ask(
            {
                "op": "wait_window",
                "pid": process.pid,
                "before": before,
                "timeout_ms": OPEN_TIMEOUT_MS,
            },
            timeout_s=OPEN_TIMEOUT_MS / 1000 + 5,
        )
        self._app = name or argv[0]
        return process

    async def snapshot(self, mask: Masker | None = None) -> Screen:
        reply = await self._ask({"op": "walk"})
        self.walk_ms = float(reply["ms"])
        options = self.session.options
        screen = build_screen(
            reply["nodes"],
            url=self.url,
            viewport=Box(0, 0, options.width, options.height),
            mask=mask,
        )
        self._nodes = {el.ref: el.box for el in screen.elements}
        return screen

    async def settle(self, timeout_ms: int = 10_000) -> None:
        await self._ask({"op": "settle", "timeout_ms": timeout_ms})

    async def wait_for_change(self, timeout_ms: int) -> bool:
        reply = await self._ask(
            {"op": "wait", "timeout_ms": timeout_ms}, timeout_s=timeout_ms / 1000 + 10
        )
        return bool(reply["changed"])

    async def goto(self, url: str) -> ActionEffect:
        raise SurfaceError("the desktop has no web addresses to load", code="SURFACE_NOT_ALLOWED")

    async def click(self, ref: str) -> ActionEffect:
        return await self._act("click", ref)

    async def fill(self, ref: str, text: str) -> ActionEffect:
        return await self._act("fill", ref, text=text)

    async def select_option(self, ref: str, label: str, *, add: bool = False) -> ActionEffect:
        return await self._act("select", ref, label=label)

    async def selection(self, ref: str) -> Selection:
        return Selection(multiple=False, selected=())

    async def set_checked(self, ref: str, checked: bool) -> ActionEffect:
        return await self._act("check", ref, checked=checked)

    async def hover(self, ref: str) -> ActionEffect:
        return await self._act("hover", ref)

    async def wheel(self, ref: str, dy: float) -> ActionEffect:
        """The desktop agent has no wheel: the pointer moves there and nothing scrolls."""
        return await self._act("hover", ref)

    async def focus(self, ref: str) -> ActionEffect:
        return await self._act("focus", ref)

    async def press(self, key: str) -> ActionEffect:
        return await self._act("press", None, key=key)

    async def type_keys(self, ref: str, text: str) -> ActionEffect:
        return await self._act("type", ref, text=text)

    def answer_confirms(self, yes: bool) -> None:
        """Desktop dialogs are controls on the screen, answered by steps."""

    async def read_value(self, ref: str) -> str:
        if ref not in self._nodes:
            raise SurfaceError(f"no element {ref} on the latest screen", code="SURFACE_STALE_REF")
        return str((await self._ask({"op": "read", "ref": ref}))["value"])

    async def answered(self, quiet_ms: int, timeout_ms: int) -> None:
        """Nothing here talks to a server over a socket: settled at once."""
        return

    async def read_values(self, refs: Sequence[str]) -> list[str | None]:
        found: list[str | None] = []
        for ref in refs:
            try:
                found.append(await self.read_value(ref))
            except SurfaceError:
                found.append(None)
        return found

    async def live(self, options: LiveOptions | None = None) -> DesktopLiveView:
        """A person's live view of the desktop: its picture, their pointer and keys."""
        if self._closed:
            raise SurfaceError("the desktop is closed", code="LIVE_CLOSED")
        size = (self.session.options.width, self.session.options.height)
        return DesktopLiveView(
            self.session.framebuffer, self.session.env, size, options, url=lambda: self.url
        )

    async def screenshot(self) -> bytes:
        return await asyncio.to_thread(screenshot, self.session.framebuffer)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        stdin = self._agent.process.stdin
        if stdin is not None:
            stdin.close()
        await self.session.close()
