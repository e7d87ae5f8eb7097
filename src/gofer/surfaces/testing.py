"""A fake :class:`~gofer.surfaces.Surface` built from captured screens, for tests.

:class:`FakeSurface` shows one :class:`~gofer.surfaces.screen.Screen` (a capture
saved by ``tools/capture_screens.py`` or one built by hand) and acts on it the
way a page would, without a browser: a field keeps what is typed into it, a
checkbox or radio ticks, a tab or an option that says whether it is selected becomes
the selected one of its group, a select shows the option chosen, a click listed in
``after_click`` or an address listed in ``sites`` shows the next screen (a next screen
that differs only in its fields' values is reported as such, as a script filling a
field changes no node), and a click that is not listed changes nothing (as a dead
button would). What it was
asked to do is recorded (``clicked``, ``pressed``, ``visited``) for tests to check.

:meth:`FakeSurface.live` opens a :class:`FakeLiveView`: a person's pointer pressed
and released on an element's box clicks it (and focuses it), keys and text go into
the focused field, and every change paints a new frame.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import TracebackType
from typing import Any

from gofer.errors import BlockedOrigin, SurfaceError
from gofer.surfaces.base import ActionEffect, Masker, Selection, Surface, SurfaceKind
from gofer.surfaces.live import (
    KeyInput,
    LiveDialog,
    LiveFrame,
    LiveOptions,
    LiveSurface,
    LiveView,
    PointerInput,
    check_text,
)
from gofer.surfaces.origins import origin_allowed
from gofer.surfaces.screen import (
    Box,
    Element,
    Record,
    RecordGroup,
    Screen,
    TextLine,
    screen_from_dict,
)

__all__ = ["FakeLiveView", "FakeSurface", "mask_screen"]

_TICKS = frozenset({"checkbox", "switch", "menuitemcheckbox"})
_PICKS = frozenset({"tab", "option", "treeitem", "gridcell"})


def mask_screen(screen: Screen, mask: Masker) -> Screen:
    """``screen`` with ``mask`` applied to every string a person could read on it,
    as a real surface's snapshot applies it."""

    def el(e: Element) -> Element:
        return replace(
            e,
            name=mask(e.name),
            label=mask(e.label),
            placeholder=mask(e.placeholder),
            value=mask(e.value),
            text=mask(e.text),
            title=mask(e.title),
            section=mask(e.section),
            group=mask(e.group),
            options=tuple(mask(o) for o in e.options),
            describedby=mask(e.describedby),
            href=mask(e.href),
        )

    def group(g: RecordGroup) -> RecordGroup:
        return replace(
            g,
            name=mask(g.name),
            headers=tuple(mask(h) for h in g.headers),
            records=tuple(
                Record(
                    r.box,
                    tuple(mask(line) for line in r.lines),
                    {mask(k): mask(v) for k, v in r.fields.items()},
                )
                for r in g.records
            ),
        )

    return replace(
        screen,
        title=mask(screen.title),
        lines=tuple(TextLine(mask(t.text), t.box, t.heading) for t in screen.lines),
        elements=tuple(el(e) for e in screen.elements),
        records=tuple(group(g) for g in screen.records),
    )


class FakeSurface:
    """A surface over captured screens: no browser, no I/O.

    ``after_click`` maps an element ref to the screen a click on it leads to, and
    ``after_select`` a select's ref to the page choosing any option in it loads (a
    select that submits its page on change);
    ``confirms`` maps an element ref to the question (a JavaScript ``confirm``) a click
    on it asks, answered no as the browser surface answers it;
    ``sites`` maps an address to the screen :meth:`goto` loads. With ``origins``,
    an address outside them is blocked as the browser surface blocks it. Set
    ``unreadable`` to make :meth:`snapshot` fail as a page that cannot be read does.
    """

    kind: SurfaceKind = "browser"

    def __init__(
        self,
        screen: Screen,
        *,
        after_click: Mapping[str, Screen] | None = None,
        sites: Mapping[str, Screen] | None = None,
        origins: tuple[str, ...] = (),
        after_select: Mapping[str, Screen] | None = None,
        confirms: Mapping[str, str] | None = None,
    ) -> None:
        self.screen = screen
        self.confirms = dict(confirms or {})
        self.confirmed: list[str] = []
        """The questions answered yes (see :meth:`answer_confirms`)."""
        self._confirm = False
        self.after_click = dict(after_click or {})
        self.after_select = dict(after_select or {})
        self.sites = dict(sites or {})
        self.origins = origins
        self.unreadable = False
        self.clicked: list[str] = []
        self.pressed: list[str] = []
        self.visited: list[str] = []
        self._values: dict[str, str] = {}
        self._blocked: list[str] = []
        self._closed = False
        self.views: list[FakeLiveView] = []
        """Every live view opened on it, oldest first."""
        self.viewport = (1280, 800)
        self.picture: bytes | None = None
        """What its live view's frames show (an image); by default ``b"fake frame N"``."""

    @classmethod
    def captured(
        cls,
        path: str | Path,
        *,
        after_click: Mapping[str, Screen] | None = None,
        sites: Mapping[str, Screen] | None = None,
        origins: tuple[str, ...] = (),
        after_select: Mapping[str, Screen] | None = None,
    ) -> FakeSurface:
        """A fake showing the screen saved as JSON at ``path`` (``screen_to_dict``)."""
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls(
            screen_from_dict(data),
            after_click=after_click,
            sites=sites,
            origins=origins,
            after_select=after_select,
        )

    # ---- what it shows ----------------------------------------------------------------

    @property
    def url(self) -> str:
        """The current screen's address."""
        return self.screen.url

    @property
    def pages(self) -> int:
        """One page while open, none once closed."""
        return 0 if self._closed else 1

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    @property
    def blocked(self) -> list[str]:
        """The addresses :meth:`goto` refused (outside ``origins``)."""
        return self._blocked

    async def snapshot(self, mask: Masker | None = None) -> Screen:
        """The current screen, with typed values shown and ``mask`` applied."""
        self._check_open()
        if self.unreadable:
            raise SurfaceError(
                "the page could not be read: it went away", code="SNAPSHOT_FAILED", url=self.url
            )
        return mask_screen(self.screen, mask) if mask is not None else self.screen

    async def settle(self, timeout_ms: int = 10_000) -> None:
        """A fake page is always settled."""

    async def wait_for_change(self, timeout_ms: int) -> bool:
        """Nothing changes on a fake page by itself."""
        return False

    async def screenshot(self) -> bytes:
        """A fake page has no pixels."""
        raise SurfaceError("a fake surface takes no screenshots", code="SCREENSHOT_FAILED")

    async def close(self) -> None:
        """Close the fake page, and every live view on it. Idempotent."""
        self._closed = True
        for view in self.views:
            await view.close()

    async def live(self, options: LiveOptions | None = None) -> FakeLiveView:
        """A person's live view of the fake page (see :class:`FakeLiveView`)."""
        self._check_open()
        view = FakeLiveView(self)
        self.views.append(view)
        return view

    # ---- acting -----------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise SurfaceError("the browser session has no open page", code="NO_PAGE")

    def _element(self, ref: str) -> Element:
        self._check_open()
        found = self.screen.element(ref)
        if found is None:
            raise SurfaceError(f"element {ref} is no longer on the page", code="STALE_REF", ref=ref)
        return found

    def _update(self, ref: str, **changes: Any) -> None:
        self.screen = replace(
            self.screen,
            elements=tuple(
                replace(e, **changes) if e.ref == ref else e for e in self.screen.elements
            ),
        )

    async def goto(self, url: str) -> ActionEffect:
        """Show the screen ``sites`` holds for ``url``."""
        self._check_open()
        if not origin_allowed(url, self.origins):
            self._blocked.append(url)
            raise BlockedOrigin(f"blocked by origins: {url}", url=url, origins=list(self.origins))
        if url not in self.sites:
            raise SurfaceError(
                f"could not load {url}: no such page",
                code="NAVIGATION_FAILED",
                url=url,
                reason="no such page",
            )
        self.visited.append(url)
        self.screen = self.sites[url]
        self._values.clear()
        return ActionEffect(navigated=True)

    async def click(self, ref: str) -> ActionEffect:
        """Click: go to the next screen, tick a box, pick a radio, tab or option; else
        nothing changes."""
        el = self._element(ref)
        self.clicked.append(ref)
        if el.disabled:
            return ActionEffect()
        if ref in self.confirms:
            if not self._confirm:
                return ActionEffect(dialog=True, declined=(self.confirms[ref],))
            self.confirmed.append(self.confirms[ref])
        if ref in self.after_click:
            before, self.screen = self.screen, self.after_click[ref]
            self._values.clear()
            if _values_only(before, self.screen):
                return ActionEffect(values_changed=True)
            return ActionEffect(dom_changed=True)
        if el.role in _TICKS:
            self._update(ref, checked=not el.checked)
            return ActionEffect(state_changed=True)
        if el.role in _PICKS and el.selected is False:
            for other in self.screen.elements:
                if other.role == el.role and other.group == el.group and other.selected:
                    self._update(other.ref, selected=False)
            self._update(ref, selected=True)
            return ActionEffect(state_changed=True)
        if el.role == "radio" and not el.checked:
            for other in self.screen.elements:
                if other.role == "radio" and other.group == el.group and other.checked:
                    self._update(other.ref, checked=False)
            self._update(ref, checked=True)
            return ActionEffect(state_changed=True)
        return ActionEffect()

    async def fill(self, ref: str, text: str) -> ActionEffect:
        """The field holds ``text``."""
        self._element(ref)
        self._values[ref] = text
        self._update(ref, value=text)
        return ActionEffect(dom_changed=True)

    async def select_option(self, ref: str, label: str, *, add: bool = False) -> ActionEffect:
        """The select shows ``label`` (``add`` is taken as a single choice)."""
        el = self._element(ref)
        if label not in el.options:
            raise SurfaceError(
                f"{ref} has no option {label!r}",
                code="OPTION_NOT_FOUND",
                ref=ref,
                option=label,
                options=list(el.options),
            )
        if ref in self.after_select:
            self.screen = self.after_select[ref]
            self._values.clear()
            return ActionEffect(navigated=True)
        self._values[ref] = label
        self._update(ref, value=label)
        return ActionEffect(state_changed=True)

    async def selection(self, ref: str) -> Selection:
        """The option the select shows (a fake select takes one)."""
        el = self._element(ref)
        if not el.options:
            raise SurfaceError(f"element {ref} is not a select", code="NOT_A_SELECT", ref=ref)
        shown = self._values.get(ref, el.value)
        return Selection(False, tuple(i for i, o in enumerate(el.options) if o == shown))

    async def set_checked(self, ref: str, checked: bool) -> ActionEffect:
        """Tick or untick the element."""
        el = self._element(ref)
        if el.checked == checked:
            return ActionEffect()
        self._update(ref, checked=checked)
        return ActionEffect(state_changed=True)

    async def hover(self, ref: str) -> ActionEffect:
        """Hovering a fake element changes nothing."""
        self._element(ref)
        return ActionEffect()

    async def wheel(self, ref: str, dy: float) -> ActionEffect:
        """A fake page's lists show every row: turning the wheel changes nothing."""
        self._element(ref)
        return ActionEffect()

    async def focus(self, ref: str) -> ActionEffect:
        """The element has focus."""
        self._element(ref)
        self.screen = replace(
            self.screen,
            elements=tuple(replace(e, focused=e.ref == ref) for e in self.screen.elements),
        )
        return ActionEffect(focus_changed=True)

    async def type_keys(self, ref: str, text: str) -> ActionEffect:
        """The element takes focus and holds the keys typed, as a field keeps a fill."""
        await self.focus(ref)
        return await self.fill(ref, text)

    async def press(self, key: str) -> ActionEffect:
        """Record the key; a fake page does not answer keys."""
        self._check_open()
        self.pressed.append(key)
        return ActionEffect()

    def answer_confirms(self, yes: bool) -> None:
        self._confirm = yes

    async def read_value(self, ref: str) -> str:
        """What the field holds, unmasked."""
        el = self._element(ref)
        if el.role in _TICKS or el.role == "radio":
            return str(bool(el.checked)).lower()
        return self._values.get(ref, el.value)

    async def answered(self, quiet_ms: int, timeout_ms: int) -> None:
        """Nothing here talks to a server over a socket: settled at once."""
        return

    async def read_values(self, refs: Sequence[str]) -> list[str | None]:
        """What the fields hold, unmasked; None for one not on the screen."""
        found: list[str | None] = []
        for ref in refs:
            try:
                found.append(await self.read_value(ref))
            except SurfaceError:
                found.append(None)
        return found


def _values_only(before: Screen, after: Screen) -> bool:
    """Whether ``after`` differs from ``before`` only in what its fields hold (as a
    script setting a field's value changes no node of the page)."""
    if after.lines != before.lines or len(after.elements) != len(before.elements):
        return False
    pairs = list(zip(before.elements, after.elements, strict=True))
    return after != before and all(replace(a, value=b.value) == b for a, b in pairs)


class FakeLiveView:
    """A live view of a :class:`FakeSurface`, no browser.

    Frames are ``b"fake frame N"`` (or the surface's ``picture``), one when the view
    opens and one after each change a person's input makes. A pointer pressed and
    released over the same element's box clicks it as :meth:`FakeSurface.click` does
    and gives it focus; printable keys, ``Backspace`` and :meth:`text` change the
    focused field; ``Enter`` is recorded as a press. Everything sent is kept in
    ``received`` for tests.
    """

    def __init__(self, surface: FakeSurface) -> None:
        self.surface = surface
        self.received: list[PointerInput | KeyInput | str] = []
        self.answers: list[tuple[bool, str]] = []
        self._dialogs: list[LiveDialog] = []
        self.painted = 0
        self._pending = True
        self._fresh = asyncio.Event()
        self._fresh.set()
        self._pressed: str | None = None
        self._closed = False
        self._got = asyncio.Event()

    @property
    def closed(self) -> bool:
        """Whether the view or its surface is closed."""
        return self._closed or self.surface.closed

    @property
    def size(self) -> tuple[int, int]:
        """The fake page's viewport."""
        return self.surface.viewport

    @property
    def url(self) -> str:
        """The fake page's address."""
        return self.surface.url

    def paint(self) -> None:
        """Make a new frame (the page changed)."""
        self._pending = True
        self._fresh.set()

    def show_dialog(self, dialog: LiveDialog) -> None:
        """Have the fake page open ``dialog`` (it comes next in the frames)."""
        self._dialogs.append(dialog)
        self._fresh.set()

    async def frames(self) -> AsyncIterator[LiveFrame | LiveDialog]:
        """A frame now, then one per change, and each dialog :meth:`show_dialog` opens,
        until the view closes."""
        while not self.closed:
            if self._dialogs:
                yield self._dialogs.pop(0)
                continue
            if self._pending:
                self._pending = False
                self.painted += 1
                picture = self.surface.picture or f"fake frame {self.painted}".encode()
                yield LiveFrame(picture, *self.size)
                continue
            self._fresh.clear()
            await self._fresh.wait()

    def _check(self) -> None:
        if self.closed:
            raise SurfaceError("the live view is closed", code="LIVE_CLOSED")

    def _under(self, x: float, y: float) -> Element | None:
        point = Box(x, y, 0, 0)
        hits = [
            e
            for e in self.surface.screen.elements
            if e.box.width > 0 and e.box.height > 0 and e.box.contains(point)
        ]
        return min(hits, key=lambda e: e.box.width * e.box.height) if hits else None

    def _focused(self) -> Element | None:
        return next((e for e in self.surface.screen.elements if e.focused), None)

    async def pointer(self, event: PointerInput) -> None:
        """Press and release over one element to click it."""
        self._check()
        self.received.append(event)
        self._got.set()
        if event.action not in ("down", "up") or event.button != "left":
            return
        hit = self._under(event.x, event.y)
        if event.action == "down":
            self._pressed = hit.ref if hit is not None else None
            return
        pressed, self._pressed = self._pressed, None
        if hit is None or hit.ref != pressed:
            return
        await self.surface.focus(hit.ref)
        await self.surface.click(hit.ref)
        self.paint()

    def _type(self, change: str | None) -> None:
        field = self._focused()
        if field is None:
            return
        held = self.surface._values.get(field.ref, field.value)
        value = held[:-1] if change is None else held + change
        self.surface._values[field.ref] = value
        self.surface._update(field.ref, value=value)
        self.paint()

    async def key(self, event: KeyInput) -> None:
        """A printable key types its character; Backspace takes one off; Enter is
        recorded as a press."""
        self._check()
        self.received.append(event)
        self._got.set()
        if event.action != "down":
            return
        if event.key == "Backspace":
            self._type(None)
        elif event.key == "Enter":
            self.surface.pressed.append("Enter")
        elif len(event.key) == 1 and not event.modifiers.any_command:
            self._type(event.key)

    async def text(self, text: str) -> None:
        """The focused field gets ``text`` at its end."""
        self._check()
        check_text(text)
        self.received.append(text)
        self._got.set()
        self._type(text)

    async def answer(self, accept: bool, text: str = "") -> None:
        """Record the answer to the dialog shown (kept in ``answers``)."""
        self._check()
        self.answers.append((accept, text))
        self._got.set()

    async def until_received(self, count: int) -> list[PointerInput | KeyInput | str]:
        """Everything received, once at least ``count`` inputs came (for tests whose
        input comes from elsewhere, a socket or a page)."""
        await self.until(lambda: len(self.received) >= count)
        return list(self.received)

    async def until(self, done: Callable[[], bool]) -> None:
        """Until ``done()`` holds, looked at again as each input or answer comes."""
        while not done():
            self._got.clear()
            await self._got.wait()

    async def close(self) -> None:
        """Stop the frames (idempotent)."""
        self._closed = True
        self._fresh.set()

    async def __aenter__(self) -> FakeLiveView:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


def _is_a_surface(fake: FakeSurface) -> Surface:
    """Nothing calls this: it has the type checker hold the fake to the protocol."""
    return fake


def _is_live(fake: FakeSurface, view: FakeLiveView) -> tuple[LiveSurface, LiveView]:
    """Nothing calls this: it has the type checker hold the fakes to the protocols."""
    return fake, view
