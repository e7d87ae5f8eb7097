"""The Surface interface: what the runtime needs from a browser or a desktop."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol, runtime_checkable

from gofer.surfaces.screen import Screen

Masker = Callable[[str], str]
"""Replaces secret values in a text (``facts.mask``); applied to every screen value."""

SurfaceKind = Literal["browser", "desktop"]


@dataclass(frozen=True, slots=True)
class ActionEffect:
    """What an action changed: used to detect a click that did nothing."""

    navigated: bool = False
    dom_changed: bool = False
    focus_changed: bool = False
    new_page: bool = False
    dialog: bool = False
    state_changed: bool = False
    """The element acted on changed state with no DOM change (a ticked box, a chosen option)."""
    values_changed: bool = False
    """A field holds another value with no DOM change: a "Today" shortcut filled the date
    beside it, a spinner's arrow stepped its number, "same as billing" copied an address."""
    declined: tuple[str, ...] = ()
    """The questions (a JavaScript ``confirm`` or ``prompt``) the action raised and the
    surface answered no to: what the page would have done next did not happen."""
    value: str | None = field(default=None, repr=False)
    """What the field acted on holds once the page settled, unmasked, read in the same
    round trip as the settle (None: not read, e.g. the page navigated)."""

    @property
    def changed(self) -> bool:
        """Whether the action changed anything at all."""
        return (
            self.navigated
            or self.dom_changed
            or self.focus_changed
            or self.new_page
            or self.dialog
            or self.state_changed
            or self.values_changed
        )


@dataclass(frozen=True, slots=True)
class Selection:
    """Which options of a native select are chosen (their indexes), and whether it
    takes several."""

    multiple: bool
    selected: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class FilePayload:
    """One file as a page gets it or gives it: its file name, media type and bytes."""

    name: str = field(repr=False)
    media_type: str
    data: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class FilesPut:
    """What putting files into a page did: the action's effect, and the names of the
    files the file field holds once the page settled (None: the field is gone from the
    page, as a drop zone that read the files and cleared itself)."""

    effect: ActionEffect
    held: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class Downloaded:
    """What a download did: the click's effect on the page, and the file kept."""

    effect: ActionEffect
    file: FilePayload


@runtime_checkable
class Transfers(Protocol):
    """A surface that takes files and gives them (the browser): the runtime asks
    ``isinstance(surface, Transfers)`` before an upload, a download or a PDF."""

    async def put_files(
        self, ref: str, files: tuple[FilePayload, ...], *, press: bool = True
    ) -> FilesPut:
        """Put ``files`` into the file field ``ref`` is, or the one its click opens the
        file chooser of (a styled button, a "Browse" link, a drop zone); with ``press``
        false, ``ref`` is never clicked (a checkbox or a field beside the file field),
        and only the file field that belongs to it takes them."""
        ...

    async def download(self, ref: str, *, max_bytes: int, wait_ms: int) -> Downloaded:
        """Click ``ref`` and keep what the browser downloads (a file the page starts
        after the click, within ``wait_ms``, too; a PDF or other document that opens in
        its place or in a new tab); ``FILE_TOO_LARGE`` past ``max_bytes``."""
        ...

    async def page_pdf(self) -> FilePayload:
        """The current page printed as a PDF."""
        ...


@runtime_checkable
class Surface(Protocol):
    """One surface a flow acts on: all the runtime sees of it.

    Implementations: the browser (:class:`~gofer.surfaces.BrowserSurface`, Playwright)
    and :class:`~gofer.surfaces.testing.FakeSurface` (captured screens, for tests).
    Actions take element refs from the latest :meth:`snapshot`, return what they
    changed once the page settled, and raise :class:`~gofer.errors.SurfaceError`
    (never an error of the library underneath).
    """

    kind: SurfaceKind

    @property
    def url(self) -> str:
        """The current page's address."""
        ...

    @property
    def pages(self) -> int:
        """How many pages (tabs) are open."""
        ...

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        ...

    @property
    def blocked(self) -> list[str]:
        """Every address the task's origins blocked, in order."""
        ...

    async def snapshot(self, mask: Masker | None = None) -> Screen:
        """Read the screen as it is now (every string through ``mask`` when given one:
        for a screen that is shown; the runtime grounds on the unmasked one)."""
        ...

    async def settle(self, timeout_ms: int = 10_000) -> None:
        """Wait until the page is quiet: navigation done, requests done, DOM still."""
        ...

    async def wait_for_change(self, timeout_ms: int) -> bool:
        """Whether the page changed (since the latest snapshot) within ``timeout_ms``."""
        ...

    async def goto(self, url: str) -> ActionEffect:
        """Load ``url`` (:class:`~gofer.errors.BlockedOrigin` outside the origins)."""
        ...

    async def click(self, ref: str) -> ActionEffect:
        """Click the element."""
        ...

    async def fill(self, ref: str, text: str) -> ActionEffect:
        """Replace the field's content with ``text``."""
        ...

    async def select_option(self, ref: str, label: str, *, add: bool = False) -> ActionEffect:
        """Choose the option ``label`` of a native select (``add``: keep the others)."""
        ...

    async def selection(self, ref: str) -> Selection:
        """Which options of a native select are chosen."""
        ...

    async def set_checked(self, ref: str, checked: bool) -> ActionEffect:
        """Tick or untick a checkbox, radio or switch."""
        ...

    async def hover(self, ref: str) -> ActionEffect:
        """Move the pointer over the element."""
        ...

    async def focus(self, ref: str) -> ActionEffect:
        """Give the element keyboard focus."""
        ...

    async def wheel(self, ref: str, dy: float) -> ActionEffect:
        """Turn the mouse wheel ``dy`` pixels down over the element (a list that scrolls
        inside its own box)."""
        ...

    async def press(self, key: str) -> ActionEffect:
        """Press a key on the focused element."""
        ...

    async def type_keys(self, ref: str, text: str) -> ActionEffect:
        """Focus the element and type ``text`` key by key, as a person would: for
        controls that take keys rather than a value (a date's segments, a spinner
        drawn without an input)."""
        ...

    def answer_confirms(self, yes: bool) -> None:
        """How the page's ``confirm`` and ``prompt`` questions are answered from now on:
        no (the default) or yes, until told otherwise."""
        ...

    async def read_value(self, ref: str) -> str:
        """The field's current value, unmasked."""
        ...

    async def read_values(self, refs: Sequence[str]) -> list[str | None]:
        """The fields' current values, unmasked, read at once; None for one gone from
        the page (or that could not be read)."""
        ...

    async def answered(self, quiet_ms: int, timeout_ms: int) -> None:
        """Wait until the page has answered its last action over the sockets it talks to
        its server on (none for ``quiet_ms``), then settle; at most ``timeout_ms``."""
        ...

    async def screenshot(self) -> bytes:
        """A PNG of what is showing."""
        ...

    async def close(self) -> None:
        """Release the surface (for an attached browser, only disconnect)."""
        ...
