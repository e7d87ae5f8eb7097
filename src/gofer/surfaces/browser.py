"""The browser surface: one Playwright browser context driven on behalf of one task."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import (
    Browser,
    BrowserContext,
    CDPSession,
    Dialog,
    ElementHandle,
    Frame,
    Locator,
    Page,
    Request,
    Route,
)

from gofer.errors import SurfaceError, SurfaceTimeout
from gofer.surfaces import scripts as js
from gofer.surfaces.addresses import blocked_address, resolve, top_level_refusal
from gofer.surfaces.base import ActionEffect, Selection, SurfaceKind
from gofer.surfaces.failures import PlaywrightError, playwright_errors, surface_error
from gofer.surfaces.gate import Gate, Refusal
from gofer.surfaces.guarded import KEPT
from gofer.surfaces.judge import Judge
from gofer.surfaces.live import LiveOptions
from gofer.surfaces.origins import origin_allowed
from gofer.surfaces.picture import viewport_png
from gofer.surfaces.reading import page_script
from gofer.surfaces.screencast import Screencast
from gofer.surfaces.settling import (
    GRACE_MS,
    QUIET_MS,
    TYPE_DELAY_MS,
    _State,
)
from gofer.surfaces.snapshots import SNAPSHOT_ELEMENTS, SNAPSHOT_LINES, Snapshots
from gofer.surfaces.traffic import RequestTracker
from gofer.surfaces.transfer import FileTransfers

__all__ = ["BrowserPage", "BrowserSurface"]

BrowserPage = Page
"""The type of a browser surface's page, for a person (or a test) who acts on it
directly; the runtime never does."""


def _stale(ref: str) -> SurfaceError:
    return SurfaceError(f"element {ref} is no longer on the page", code="STALE_REF", ref=ref)


KEPT_DIALOGS = 20
"""How many dialog texts a session keeps (the latest)."""


class BrowserSurface(FileTransfers, Snapshots):
    """A browser session: its own context (own cookies), pages, and the screen on them.

    Made by :meth:`gofer.surfaces.BrowserEngine.new_session`. Actions take element
    refs from the latest :meth:`snapshot` and return an :class:`ActionEffect`
    measured after the page settled. A page that a click opens becomes the current
    page; when it closes the surface goes back to the one before.

    Settling after an action waits for the load event, for requests in flight, for
    the DOM to stay still ``quiet_ms`` after its last change (twice that after
    requests were waited for), for page timers the action set that fall due within
    ``TIMERS_MS`` (a busy label swapped back after a delay) and for animations that
    end within a second. An action that changed nothing in the DOM by the time it
    returned is given ``grace_ms`` for a late change to start; if none starts, the
    page counts as settled. Either wait ends once a frame has rendered with the DOM
    still when the action left no work for later (no timer, frame callback, message,
    request or element that loads was scheduled since it began).

    A busy page's own background is not waited for and is no action's effect: its
    polling and other requests that start while the page is idle
    (:class:`~gofer.surfaces.traffic.RequestTracker`), timers that run on the page's
    own schedule, and text or attribute changes of nodes that keep changing by
    themselves (a clock, a counter, an animation loop); see ``js/page_init.js``.
    """

    kind: SurfaceKind = "browser"

    def __init__(
        self,
        context: BrowserContext,
        origins: tuple[str, ...],
        timeout_ms: int,
        *,
        attached_browser: Browser | None = None,
        on_close: Callable[[BrowserSurface], None] | None = None,
        quiet_ms: int = QUIET_MS,
        type_delay_ms: int = TYPE_DELAY_MS,
        allow_private: bool = False,
        gate: Gate | Judge | None = None,
    ) -> None:
        self.context = context
        self.origins = origins
        self.allow_private = allow_private
        """Whether loopback, private and metadata addresses may be loaded (the operator's)."""
        self._gate = gate
        if gate is not None:
            gate.on_refused = self._refused
        self.timeout_ms = timeout_ms
        self.quiet_ms = quiet_ms
        """How long the DOM must stay still after its last change to count as settled."""
        self.grace_ms = min(GRACE_MS, quiet_ms)
        self.type_delay_ms = type_delay_ms
        """Milliseconds between keys typed into a combobox or autocomplete field."""
        self.blocked: list[str] = []
        """The latest addresses refused (origins, private addresses), navigations and
        subresources, in order; the last :data:`KEPT` of them."""
        self.dialog_messages: deque[str] = deque(maxlen=KEPT_DIALOGS)
        """Texts of the latest JavaScript dialogs (alerts are accepted, confirms and
        prompts dismissed unless :meth:`answer_confirms` said yes)."""
        self._attached = attached_browser
        self._on_close = on_close
        self._pages: list[Page] = []
        self._loaded: set[Page] = set()
        self._trackers: dict[Page, RequestTracker] = {}
        self._shooters: dict[Page, CDPSession] = {}
        self._frames: dict[str, Frame] = {}
        self._navigations = 0
        # What the latest snapshot saw: (page, navigations, main-frame mutations), so
        # that wait_for_change also counts a change that came after it but before the wait.
        self._seen: tuple[Page, int, int] | None = None
        self._pages_opened = 0
        self._dialogs = 0
        self._declined: list[str] = []
        self._confirm = False
        self._blocked_navigations = 0
        self._navigation_blocked: SurfaceError | None = None
        self._nav_requests: deque[tuple[int, str, int]] = deque(maxlen=KEPT)
        self._refusals: deque[tuple[int, Refusal]] = deque(maxlen=KEPT)
        self._nav_count = 0
        self._refusal_count = 0
        self._wakers: set[asyncio.Future[bool]] = set()
        self._title = ""
        self._closed = False
        self._dialog_taker: Callable[[Dialog], None] | None = None
        self._leaving: set[asyncio.Task[None]] = set()
        self._prefetched = None
        self._change_on_settle = None
        self._begun = 0
        self._snapshot_args = {"maxElements": SNAPSHOT_ELEMENTS, "maxLines": SNAPSHOT_LINES}

    # ---- life cycle -------------------------------------------------------------------

    async def start(self) -> None:
        """Install the page helper and the origin guard, and open the first page."""
        self.context.set_default_timeout(self.timeout_ms)
        await self.context.add_init_script(script=page_script())
        if self.origins:
            await self.context.route("**/*", self._route)
        self.context.on("page", self._adopt)
        await self.context.new_page()

    async def close(self) -> None:
        """Close this session's context; for an attached browser, then only disconnect."""
        if self._closed:
            return
        self._closed = True
        for waker in self._wakers:
            if not waker.done():
                waker.set_result(False)
        try:
            with contextlib.suppress(PlaywrightError):
                await self.context.close()
        finally:
            if self._gate is not None:
                self._gate.shutdown()
        if self._gate is not None:
            await self._gate.close()
        if self._attached is not None:
            with contextlib.suppress(PlaywrightError):
                await self._attached.close()
        if self._on_close is not None:
            self._on_close(self)

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    @property
    def url(self) -> str:
        """The current page's address."""
        return self.page.url

    @property
    def title(self) -> str:
        """The current page's title as of the last settle or snapshot."""
        return self._title

    @property
    def pages(self) -> int:
        """How many pages (tabs) of this session are open."""
        return sum(1 for p in self._pages if not p.is_closed())

    # ---- events -----------------------------------------------------------------------

    def _adopt(self, page: Page) -> None:
        if self._empty_tab(page):
            return
        self._pages.append(page)
        self._pages_opened += 1
        self._trackers[page] = RequestTracker(page)

        def navigated(frame: Frame) -> None:
            if frame == page.main_frame:
                self._navigations += 1
                self._loaded.discard(page)
                self._check_landing(page, frame.url)
                self._wake()

        def loaded(_: Page) -> None:
            self._loaded.add(page)

        def closed(_: Page) -> None:
            if page in self._pages:
                self._pages.remove(page)
            self._trackers.pop(page, None)
            self._shooters.pop(page, None)
            self._loaded.discard(page)
            self._wake()

        def requested(request: Request) -> None:
            if request.is_navigation_request():
                if request.frame == page.main_frame:
                    self._navigation_requested(request.url)
                self._wake()

        page.on("request", requested)
        page.on("framenavigated", navigated)
        page.on("load", loaded)
        page.on("close", closed)
        page.on("dialog", self._dialog)
        self._wake()

    def take_dialogs(self, handler: Callable[[Dialog], None] | None) -> None:
        """Hand the page's JavaScript dialogs to ``handler`` (a person's live view, which
        answers them), or back to the surface with None."""
        self._dialog_taker = handler

    async def _dialog(self, dialog: Dialog) -> None:
        self._dialogs += 1
        self.dialog_messages.append(dialog.message)
        if self._dialog_taker is not None:
            self._dialog_taker(dialog)
            return
        with contextlib.suppress(PlaywrightError):
            if dialog.type in ("alert", "beforeunload") or self._confirm:
                await dialog.accept()
            else:
                self._declined.append(dialog.message)
                await dialog.dismiss()

    async def _route(self, route: Route) -> None:
        request = route.request
        if origin_allowed(request.url, self.origins):
            await route.fallback()
            return
        self._note_blocked(request.url)
        with contextlib.suppress(PlaywrightError):
            if request.is_navigation_request() and request.frame.parent_frame is None:
                self._block_navigation(self._blocked_error(request.url))
        await route.abort("blockedbyclient")

    # ---- navigation and settling ------------------------------------------------------

    async def goto(self, url: str) -> ActionEffect:
        """Load ``url`` in the current page and settle.

        :class:`BlockedAddress` before anything loads for an address that is not http(s)
        or (unless the operator allows them) resolves to a private one;
        :class:`BlockedOrigin` outside the origins, also when a redirect leads there.
        """
        why = top_level_refusal(url)
        if why is not None:
            self._note_blocked(url)
            raise blocked_address(url, why)
        if not origin_allowed(url, self.origins):
            self._note_blocked(url)
            raise self._blocked_error(url)
        if not self.allow_private:
            parts = urlsplit(url.strip())
            port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
            resolved = await resolve(parts.hostname or "", port, allow_private=False)
            if resolved.refusal is not None:
                self._note_blocked(url)
                raise blocked_address(url, resolved.refusal)
        page = self.page
        blocked = self._blocked_navigations

        async def load() -> None:
            try:
                await page.goto(url, wait_until="domcontentloaded", timeout=self.timeout_ms)
            except PlaywrightError as err:
                if self._blocked_navigations > blocked and self._navigation_blocked is not None:
                    raise self._navigation_blocked from err
                raise surface_error(
                    err, f"could not load {url}", code="NAVIGATION_FAILED", url=url
                ) from err

        # a blank page (a session's first) has nothing to measure before it is left
        return await self._act(
            load, None, before=self._blank() if page.url == "about:blank" else None
        )

    # ---- the screen -------------------------------------------------------------------

    async def screenshot(
        self, *, hide_fields: bool = True, hide_text: Callable[[str], str] | None = None
    ) -> bytes:
        """A PNG of the current page's viewport.

        With ``hide_fields`` (the default) every text field, in the page and in its
        frames, is painted over, so that a value typed from a secret never reaches
        an image; with ``hide_text`` (a mask of secrets), every text it changes too.
        """
        page = self.page
        with playwright_errors("could not take a screenshot", code="SCREENSHOT_FAILED"):
            try:
                async with asyncio.timeout(self.timeout_ms / 1000):
                    # one DevTools session a page for all its pictures, gone with the page
                    session = self._shooters.get(page)
                    if session is None:
                        session = await self.context.new_cdp_session(page)
                        self._shooters[page] = session
                    try:
                        return await viewport_png(
                            session, page, hide_fields=hide_fields, hide_text=hide_text
                        )
                    except PlaywrightError:
                        self._shooters.pop(page, None)  # the next picture gets a fresh one
                        with contextlib.suppress(PlaywrightError):  # gone with its page
                            await session.detach()
                        raise
            except TimeoutError as err:
                raise SurfaceError(
                    "could not take a screenshot: the page did not answer in time",
                    code="SCREENSHOT_FAILED",
                ) from err

    async def live(self, options: LiveOptions | None = None) -> Screencast:
        """A person's live view of the current page: Chromium's screencast, and their
        mouse and keys sent to the page (see :mod:`gofer.surfaces.screencast`)."""
        self._prefetched = None
        if self._closed:
            raise SurfaceError("the browser session is closed", code="LIVE_CLOSED")
        view = Screencast(self, options or LiveOptions())
        await view.start()
        return view

    # ---- acting -------------------------------------------------------------------------

    async def element(self, ref: str) -> ElementHandle:
        """The live element behind ``ref`` from the latest snapshot (``STALE_REF`` if gone)."""
        frame = self._frame_of(ref)
        if frame is None or frame.is_detached():
            raise _stale(ref)
        with playwright_errors(
            f"element {ref} is no longer on the page", code="STALE_REF", show_reason=False, ref=ref
        ):
            handle = await self._bounded(frame.page, frame.evaluate_handle(js.RESOLVE, ref))
        element = handle.as_element()
        if element is None:
            await handle.dispose()
            raise _stale(ref)
        return element

    def _frame_of(self, ref: str) -> Frame | None:
        path = ref[1:].split(":", 1)[0] if ref.startswith("f") and ":" in ref else ""
        return self._frames.get(path)

    async def _act(
        self,
        action: Callable[[], Awaitable[None]],
        target: str | None = None,
        target_frame: Frame | None = None,
        before: _State | None = None,
    ) -> ActionEffect:
        page = self.page
        on_main = target is None or target_frame == page.main_frame
        if before is None:
            before = await self._state(target, target_frame, begin=True)
        blocked = self._blocked_navigations
        declined = len(self._declined)
        tracker = self._trackers.get(page)
        if tracker is not None:
            tracker.begin()
        try:
            await action()
        except (PlaywrightError, SurfaceError) as err:
            self._change_on_settle = None
            if isinstance(err, SurfaceTimeout) and not page.is_closed():
                await self._bounded(page, page.evaluate("0"), 0)  # is the page still there?
            if not (page.is_closed() and self.pages > 0):
                if isinstance(err, PlaywrightError):
                    raise surface_error(err, "the action failed", code="ACTION_FAILED") from err
                raise
            # The action closed its own page (window.close): the surface is back on
            # the page before, which is what the action changed.
            await self._settle(self.timeout_ms, None, None)
            return ActionEffect(new_page=True)
        main = await self._settle(self.timeout_ms, before, target if on_main else None)
        if before.begun is not None:
            before = self._begun_state(before, main)
        if self._blocked_navigations > blocked and self._navigation_blocked is not None:
            raise self._navigation_blocked
        value = main.get("value") if main is not None else None
        if self.page is not page or self._navigations != before.navigations:
            target, target_frame, value = None, None, None
        after = await self._state(target, target_frame, main)
        if (
            after.page is page
            and after.opens > before.opens
            and self._pages_opened == before.pages_opened
            and await self._new_page_opened(before.pages_opened)
        ):
            await self._settle(self.timeout_ms, None, None)
            after = await self._state(None, None)
        navigated = after.navigations != before.navigations
        same_frames = after.mutations.keys() == before.mutations.keys()
        return ActionEffect(
            navigated=navigated,
            dom_changed=not same_frames or after.mutations != before.mutations,
            focus_changed=after.page is before.page
            and after.focus != before.focus
            and not after.focus_on_target,
            new_page=after.pages_opened != before.pages_opened or after.page is not before.page,
            dialog=after.dialogs != before.dialogs or (after.modal and not before.modal),
            state_changed=before.target_state is not None
            and after.target_state is not None
            and after.target_state != before.target_state,
            values_changed=any(after.values.get(f, v) != v for f, v in before.values.items()),
            declined=tuple(self._declined[declined:]),
            value=value if isinstance(value, str) else None,
        )

    async def _on(
        self,
        ref: str,
        verb: str,
        act: Callable[[Locator, Any], Awaitable[None]],
        probe: str | None = None,
    ) -> ActionEffect:
        """Act on ``ref``; ``probe``, a JS function of the element, is read beforehand,
        with the counters, and handed to ``act`` with the element's locator.

        The locator finds the element in Playwright's own world (the ``gofer-ref``
        selector engine): no handle from the page's world to carry over for each check.
        On a page without frames an action with no probe but the click's begins as
        Playwright first finds its element, in that same call (:func:`js.begun_ref`).
        """
        frame = self._frame_of(ref)
        if frame is None or frame.is_detached():
            raise _stale(ref)
        page = self.page
        if probe in (None, js.PROXY) and frame is page.main_frame and not frame.child_frames:
            self._prefetched = None
            self._change_on_settle = None
            self._begun += 1
            state = replace(self._blank(), found=True, begun=self._begun)
            element = frame.locator(js.begun_ref(self._begun, ref, click=probe is not None))
        else:
            state = await self._state(ref, frame, begin=True, probe=probe)
            if not state.found:
                raise _stale(ref)
            element = frame.locator(f"{js.REF_SELECTOR}={ref}")

        async def run() -> None:
            with playwright_errors(
                f"could not {verb} {ref}",
                code="ACTION_FAILED",
                timeout_code="ACTION_TIMEOUT",
                ref=ref,
                action=verb,
            ):
                try:
                    await self._bounded(page, act(element, state.probed))
                except PlaywrightError as err:
                    if state.begun is not None and js.GONE in err.message:
                        raise _stale(ref) from err
                    raise

        return await self._act(run, ref, frame, state)

    async def _probe(self, frame: Frame | None, ref: str, probe: str | None) -> Any:
        if probe is None or frame is None:
            return None
        with playwright_errors(
            f"element {ref} is no longer on the page", code="STALE_REF", show_reason=False, ref=ref
        ):
            return await self._bounded(frame.page, frame.evaluate(probe, ref))

    async def click(self, ref: str) -> ActionEffect:
        """Click the element (waits for it to be visible, stable and not covered); a hidden
        or covered radio or checkbox where a person does: its label or the box over it."""
        frame = self._frame_of(ref)
        proxy = frame.locator(f"{js.REF_SELECTOR}={js.PROXY_REF}") if frame else None
        return await self._on(
            ref,
            "click",
            lambda el, p: (proxy if p and proxy else el).click(timeout=self.timeout_ms),
            js.PROXY,
        )

    async def fill(self, ref: str, text: str) -> ActionEffect:
        """Replace the field's content with ``text``.

        A plain input or textarea is filled at once and then gets a ``change``
        event; a combobox or autocomplete field is cleared and typed key by key
        (``type_delay_ms`` apart) so that its suggestions react as to a
        person, or with no delay filled with all but the last character, which is
        then typed as a key; a contenteditable element is filled like an input.
        """

        self._check_here()

        frame = self._frame_of(ref)

        async def act(el: Locator, kind: Any) -> None:
            if kind["combo"]:
                # With no delay between keys, all but the last go in at once: the field
                # still sees input, and the last key's keydown, keypress and keyup.
                head = "" if self.type_delay_ms else text[:-1]
                await el.fill(head, timeout=self.timeout_ms)
                await el.press_sequentially(
                    text[len(head) :], delay=self.type_delay_ms, timeout=self.timeout_ms
                )
            else:
                await el.fill(text, timeout=self.timeout_ms)
                if kind["native"] and frame is not None and frame is not self.page.main_frame:
                    await frame.evaluate(js.CHANGE_OF_REF, ref)
                elif kind["native"]:
                    self._change_on_settle = ref  # sent in the settle's own round trip

        return await self._on(ref, "fill", act, js.FIELD_KIND)

    async def select_option(self, ref: str, label: str, *, add: bool = False) -> ActionEffect:
        """Choose the option of a native select whose visible text is ``label``; with
        ``add``, a multiple select keeps the options already chosen."""

        async def act(el: Locator, found: Any) -> None:
            if found["index"] < 0:
                raise SurfaceError(
                    f"{ref} has no option {label!r}",
                    code="OPTION_NOT_FOUND",
                    ref=ref,
                    option=label,
                    options=found["options"],
                )
            wanted = [int(found["index"])]
            if add:
                wanted = [*(int(i) for i in found["selected"] if int(i) not in wanted), *wanted]
            await el.select_option(index=wanted, timeout=self.timeout_ms)

        return await self._on(ref, "select an option of", act, js.find_option(label))

    async def selection(self, ref: str) -> Selection:
        """Which options of a native select are chosen, and whether it takes several."""
        found = await self._read(ref, js.SELECTION_OF_REF)
        if found is None:
            raise SurfaceError(f"element {ref} is not a select", code="NOT_A_SELECT", ref=ref)
        return Selection(bool(found["multiple"]), tuple(int(i) for i in found["selected"]))

    async def set_checked(self, ref: str, checked: bool) -> ActionEffect:
        """Tick or untick a checkbox, radio or switch."""
        return await self._on(
            ref, "check", lambda el, _: el.set_checked(checked, timeout=self.timeout_ms)
        )

    async def hover(self, ref: str) -> ActionEffect:
        """Move the pointer over the element."""
        return await self._on(ref, "hover over", lambda el, _: el.hover(timeout=self.timeout_ms))

    async def wheel(self, ref: str, dy: float) -> ActionEffect:
        """Turn the mouse wheel ``dy`` pixels down with the pointer over the element: what
        scrolls a list inside its own box, a virtual one that draws only rows in sight too."""
        page = self.page

        async def act(el: Locator, _: Any) -> None:
            await el.hover(timeout=self.timeout_ms)
            await page.mouse.wheel(0, dy)

        return await self._on(ref, "scroll over", act)

    async def focus(self, ref: str) -> ActionEffect:
        """Give the element keyboard focus; one that cannot take it (a slider drawn by a
        div whose track holds the tab stop) passes it to the first control inside."""

        async def act(el: Locator, _: Any) -> None:
            await el.evaluate(js.FOCUS, timeout=self.timeout_ms)

        return await self._on(ref, "focus", act)

    async def press(self, key: str) -> ActionEffect:
        """Press a key (``Enter``, ``Escape``, ``ArrowDown``...) on the focused element."""
        page = self.page

        async def act() -> None:
            with playwright_errors(
                f"could not press {key}", code="ACTION_FAILED", action="press", key=key
            ):
                await page.keyboard.press(key)

        return await self._act(act, None)

    async def type_keys(self, ref: str, text: str) -> ActionEffect:
        """Focus the element and type ``text`` key by key (``type_delay_ms`` apart)."""
        self._check_here()

        async def act(el: Locator, _: Any) -> None:
            await el.focus()
            await el.press_sequentially(text, delay=self.type_delay_ms, timeout=self.timeout_ms)

        return await self._on(ref, "type into", act)

    async def scroll_into_view(self, ref: str) -> None:
        """Scroll until the element is in view."""
        self._prefetched = None
        frame = self._frame_of(ref)
        if frame is None or frame.is_detached():
            raise _stale(ref)
        with playwright_errors(
            f"could not scroll to {ref}", code="ACTION_FAILED", ref=ref, action="scroll"
        ):
            if not await self._bounded(frame.page, frame.evaluate(js.RESOLVES, ref)):
                raise _stale(ref)
            element = frame.locator(f"{js.REF_SELECTOR}={ref}")
            await self._bounded(
                frame.page, element.scroll_into_view_if_needed(timeout=self.timeout_ms)
            )

    def answer_confirms(self, yes: bool) -> None:
        self._confirm = yes

    async def read_value(self, ref: str) -> str:
        """The field's current value, unmasked ("true"/"false" for a checkbox or radio)."""
        value = await self._read(ref, js.READ_VALUE_OF_REF)
        if value is None:
            raise _stale(ref)
        return str(value)

    async def answered(self, quiet_ms: int, timeout_ms: int) -> None:
        """Wait until the page's sockets have been quiet for ``quiet_ms`` (an app whose
        server runs a click answers over one), then settle; at most ``timeout_ms``."""
        page = self.page
        start = time.monotonic()
        try:
            await self._bounded(page, page.evaluate(js.SOCKETS_QUIET, [quiet_ms, timeout_ms]))
        except (PlaywrightError, SurfaceError):
            return  # a page gone or not answering has nothing more to say
        left = timeout_ms - int((time.monotonic() - start) * 1000)
        if left > 0:
            await self.settle(left)

    async def read_values(self, refs: Sequence[str]) -> list[str | None]:
        """The fields' current values, unmasked: one call into each frame that holds
        some; None for one gone from the page (or whose frame could not be read)."""
        by_frame: dict[Frame, list[int]] = {}
        for i, ref in enumerate(refs):
            frame = self._frame_of(ref)
            if frame is not None and not frame.is_detached():
                by_frame.setdefault(frame, []).append(i)
        found: list[str | None] = [None] * len(refs)

        async def read(frame: Frame, at: list[int]) -> None:
            try:
                values = await self._bounded(
                    frame.page, frame.evaluate(js.READ_VALUES_OF_REFS, [refs[i] for i in at])
                )
            except (PlaywrightError, SurfaceError):
                return  # gone with its document, or a page that stopped answering
            for i, value in zip(at, values, strict=True):
                found[i] = None if value is None else str(value)

        await asyncio.gather(*(read(frame, at) for frame, at in by_frame.items()))
        return found

    async def _read(self, ref: str, script: str) -> Any:
        """``script``, a JS function of a ref, run on the live element (``STALE_REF`` if gone)."""
        frame = self._frame_of(ref)
        if frame is None or frame.is_detached():
            raise _stale(ref)
        return await self._probe(frame, ref, script)
