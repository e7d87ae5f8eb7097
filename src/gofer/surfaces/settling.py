"""Settling a browser session's page: waiting, after an action, until it is quiet.

:class:`Settling` is the part of :class:`~gofer.surfaces.browser.BrowserSurface` that
reads the page's counters before and after an action and waits, event-driven, for
loads, requests in flight, DOM changes, due timers and animations to end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from playwright.async_api import BrowserContext, Frame, Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from gofer.errors import SurfaceError
from gofer.surfaces import scripts as js
from gofer.surfaces.failures import PlaywrightError, playwright_errors, surface_error
from gofer.surfaces.traffic import RequestTracker

__all__ = ["GRACE_MS", "NEW_DOCUMENT_MS", "QUIET_MS", "TIMERS_MS", "TYPE_DELAY_MS", "Settling"]

QUIET_MS = 30
"""How long the DOM must stay still, after its last change, for a page to count as settled
(one rendered frame when the action left no work for later; see ``js/page_init.js``)."""
GRACE_MS = 25
"""How long an action that changed nothing yet is given for a late change to start (one
rendered frame when it left no work for later)."""
TIMERS_MS = 500
"""Page timers falling due within this long of a settle's start are waited for."""
TYPE_DELAY_MS = 0
"""Milliseconds between keys typed into a combobox or autocomplete field."""
NEW_DOCUMENT_MS = 1_000
"""How long a document that went away mid-read is given to be replaced by the next one."""
_GONE = (
    "execution context was destroyed",
    "frame was detached",
    "frame has been detached",
    "navigating frame was detached",
)


@dataclass(frozen=True, slots=True)
class _State:
    page: Page
    navigations: int
    pages_opened: int
    dialogs: int
    mutations: dict[Frame, int]
    focus: int
    focus_on_target: bool
    modal: bool
    opens: int
    target_state: str | None
    values: dict[Frame, int]
    found: bool = False
    """Whether the target's element was there (read with ``probe``)."""
    probed: Any = None
    """What the probe answered for the target's element."""
    begun: int | None = None
    """The number of an action the page helper begins as Playwright finds its target
    (:func:`~gofer.surfaces.scripts.begun_ref`): the page's counters before it come with
    the settle after it, and stand empty here until then."""


@dataclass(frozen=True, slots=True)
class _Prefetched:
    """The main frame's snapshot read in the same round trip as a settle's end."""

    page: Page
    navigations: int
    text: str
    at: float
    """When it was read (``time.monotonic``)."""


def _document_gone(err: PlaywrightError) -> bool:
    """Whether ``err`` says the document read went away: a navigation in progress."""
    return any(gone in err.message.lower() for gone in _GONE)


SCRIPT_MARGIN_S = 2.0
"""How much longer than its own wait a page script is given to answer before the page
counts as unresponsive."""

T = TypeVar("T")


class Settling:
    """Waiting for a session's page to settle, and the counters that tell what changed.

    Every call into the page has a deadline (:meth:`_bounded`): a page that never
    answers (a script that never ends, dialog after dialog) is closed, a fresh one takes
    its place, and the call fails with ``PAGE_UNRESPONSIVE``.
    """

    context: BrowserContext
    timeout_ms: int
    quiet_ms: int
    grace_ms: int
    _pages: list[Page]
    _loaded: set[Page]
    _trackers: dict[Page, RequestTracker]
    _navigations: int
    _pages_opened: int
    _dialogs: int
    _seen: tuple[Page, int, int] | None
    _wakers: set[asyncio.Future[bool]]
    _title: str
    _closed: bool
    _prefetched: _Prefetched | None
    _snapshot_args: dict[str, Any]
    _change_on_settle: str | None
    """The ref of a field just filled whose ``change`` event the settle after sends."""

    @property
    def page(self) -> Page:
        """The page the surface acts on now."""
        self._pages = [p for p in self._pages if not p.is_closed()]
        if not self._pages:
            raise SurfaceError("the browser session has no open page", code="NO_PAGE")
        return self._pages[-1]

    async def settle(self, timeout_ms: int = 10_000) -> None:
        """Wait for loading, requests in flight, DOM mutations and animations to end.

        The DOM counts as still once ``quiet_ms`` passed since its last change, so a
        page that is already quiet settles at once. Each wait is event-driven and the
        whole is bounded by ``timeout_ms``; a page that never goes quiet is given up
        on silently at the deadline.
        """
        await self._settle(timeout_ms, None, None)

    async def _settle(
        self, timeout_ms: int, before: _State | None, target: str | None
    ) -> dict[str, Any] | None:
        """Settle after the action ``before`` was taken ahead of (None: no action).

        Returns the main frame's counters as of the settle's end, measured in the same
        round trip as the last quiet wait, or None when they could not be had. The
        pages are idle from then on (see :class:`RequestTracker`).
        """
        try:
            return await self._settle_rounds(timeout_ms, before, target)
        finally:
            for tracker in self._trackers.values():
                tracker.end()

    async def _settle_rounds(
        self, timeout_ms: int, before: _State | None, target: str | None
    ) -> dict[str, Any] | None:
        deadline = time.monotonic() + timeout_ms / 1000
        self._prefetched = None
        change, self._change_on_settle = self._change_on_settle, None

        def left_ms() -> int:
            return max(0, int((deadline - time.monotonic()) * 1000))

        while left_ms() > 0:
            page = self.page
            navigations = self._navigations
            same_document = False
            mut_before: int | dict[str, int] | None = None
            if before is not None and page is before.page and navigations == before.navigations:
                same_document = True
                mut_before = before.mutations.get(page.main_frame)
                if before.begun is not None:
                    mut_before = {"n": before.begun}
            tracker = self._trackers.get(page)
            try:
                pending = tracker is not None and tracker.pending() > 0
                if change is not None and (
                    not same_document or page not in self._loaded or pending
                ):
                    # sent at once, as the fill ended: the settle waits for something first
                    await self._bounded(page, page.evaluate(js.CHANGE_OF_REF, change))
                    change = None
                result = await self._settle_call(
                    page, tracker, mut_before, target if same_document else None, change, left_ms
                )
                change = None
            except PlaywrightError as err:
                if not (
                    page.is_closed() or self._navigations != navigations or _document_gone(err)
                ):
                    raise surface_error(
                        err, "the page could not settle", code="SETTLE_FAILED"
                    ) from err
                # The document went away under the read: a navigation committed before
                # its event came; the next round settles the new document.
                await self._next_document(page, navigations, min(left_ms(), NEW_DOCUMENT_MS))
                continue
            if (
                page is self.page
                and self._navigations == navigations
                and (tracker is None or tracker.pending() == 0)
            ):
                if result is not None and result.get("leaving"):
                    # The page began to leave for another document (a form a timer
                    # submitted): wait for its request or its commit, then settle that.
                    await self._departure(page, navigations, min(left_ms(), NEW_DOCUMENT_MS))
                    continue
                if result is None:
                    with contextlib.suppress(PlaywrightError):
                        self._title = await self._bounded(page, page.title())
                    return None
                self._title = str(result.get("title") or "")
                snapshot = result.get("snapshot")
                if isinstance(snapshot, str):
                    self._prefetched = _Prefetched(page, navigations, snapshot, time.monotonic())
                counters: dict[str, Any] | None = result.get("counters")
                return counters
        with contextlib.suppress(PlaywrightError, SurfaceError):
            self._title = await self._bounded(self.page, self.page.title())
        return None

    async def _settle_call(
        self,
        page: Page,
        tracker: RequestTracker | None,
        mut_before: int | dict[str, int] | None,
        target: str | None,
        change: str | None,
        left_ms: Callable[[], int],
    ) -> dict[str, Any] | None:
        """One settle round's waits: the load, requests in flight, then the page's own
        settle (a page without frames read as it settles), which first sends the field
        ``change``'s event."""
        if page not in self._loaded:  # known loaded pages skip the driver's waiter
            with contextlib.suppress(PlaywrightTimeout):
                await page.wait_for_load_state("load", timeout=max(1, left_ms()))
        waited = tracker is not None and tracker.pending() > 0
        if tracker is not None and waited:
            await tracker.idle(left_ms() / 1000)
        quiet = self.quiet_ms * 2 if waited else self.quiet_ms
        # a page without frames is read as it settles: the screen comes with it
        read = None if page.main_frame.child_frames else self._snapshot_args
        args = [
            quiet,
            self.grace_ms,
            mut_before,
            max(1, left_ms()),
            target,
            TIMERS_MS,
            read,
            change,
        ]
        result: dict[str, Any] | None = await self._bounded(
            page, page.evaluate(js.SETTLE, args), left_ms()
        )
        return result

    def _settled_reading(self, page: Page) -> dict[str, Any] | None:
        """The main frame's reading taken as the latest settle ended, if nothing has
        happened since: no event of the pages, no other call, and no longer ago than
        the stillness a settle asks of the DOM."""
        got, self._prefetched = self._prefetched, None
        if (
            got is None
            or got.page is not page
            or got.navigations != self._navigations
            or time.monotonic() - got.at > self.quiet_ms / 1000
        ):
            return None
        raw: dict[str, Any] = json.loads(got.text)
        return None if raw.get("missing") else raw

    async def wait_for_change(self, timeout_ms: int) -> bool:
        """Resolve True when the DOM mutates, a page navigates or opens; False on timeout.

        A change since the latest :meth:`snapshot` counts too, so nothing that happens
        between reading the screen and starting to wait is missed.
        """
        page = self.page
        self._prefetched = None
        since: int | None = None
        if self._seen is not None and self._seen[0] is page:
            if self._seen[1] != self._navigations:
                return True
            since = self._seen[2]
        loop = asyncio.get_running_loop()
        waker: asyncio.Future[bool] = loop.create_future()
        self._wakers.add(waker)
        watchers: list[asyncio.Future[Any]] = [waker]
        for frame in page.frames:
            if not frame.is_detached():
                mark = since if frame is page.main_frame else None
                watchers.append(
                    asyncio.ensure_future(frame.evaluate(js.CHANGED, [timeout_ms, mark]))
                )
        try:
            done, _ = await asyncio.wait(
                watchers, timeout=timeout_ms / 1000, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            self._wakers.discard(waker)
            for w in watchers:
                w.cancel()
            await asyncio.gather(*watchers, return_exceptions=True)
        for task in done:
            if task.cancelled():
                continue
            if task.exception() is not None:
                return True  # the frame's document went away: a navigation
            if task.result():
                return True
        return False

    async def _new_page_opened(self, opened: int) -> bool:
        """Wait, up to the timeout, until a page beyond the first ``opened`` opens."""
        return await self._until(lambda: self._pages_opened != opened, self.timeout_ms)

    async def _next_document(self, page: Page, navigations: int, timeout_ms: int) -> bool:
        """Wait, up to ``timeout_ms``, until ``page`` commits a document after the
        ``navigations``-th or closes; whether it did."""
        return await self._until(
            lambda: page.is_closed() or self._navigations != navigations, timeout_ms
        )

    async def _departure(self, page: Page, navigations: int, timeout_ms: int) -> bool:
        """Wait, up to ``timeout_ms``, until a navigation ``page`` began shows: its request
        is seen (and then waited for), a document after the ``navigations``-th commits or
        the page closes; whether it did."""
        tracker = self._trackers.get(page)
        return await self._until(
            lambda: (
                page.is_closed()
                or self._navigations != navigations
                or (tracker is not None and tracker.pending() > 0)
            ),
            timeout_ms,
        )

    async def _until(self, done: Callable[[], bool], timeout_ms: int) -> bool:
        """Wait, up to ``timeout_ms``, until ``done()`` holds, checked on every page event."""
        deadline = time.monotonic() + timeout_ms / 1000
        loop = asyncio.get_running_loop()
        while not done() and not self._closed:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            waker: asyncio.Future[bool] = loop.create_future()
            self._wakers.add(waker)
            try:
                await asyncio.wait_for(waker, timeout=left)
            except TimeoutError:
                break
            finally:
                self._wakers.discard(waker)
        return done()

    async def _state(
        self,
        target: str | None,
        target_frame: Frame | None,
        main: dict[str, Any] | None = None,
        *,
        begin: bool = False,
        probe: str | None = None,
    ) -> _State:
        """The counters of every frame, read at once; ``main``: the main frame's, if read.

        ``target`` is the ref of the element acted on, in ``target_frame``; ``begin``
        tells the page an action is about to be taken (it is acting until it settles)
        and has the target's frame also say whether the element is there and what
        ``probe``, a JS function of the element, answers for it.
        """
        page = self.page
        if begin:
            self._prefetched = None
            self._change_on_settle = None
        acting = js.counters_acting(probe) if begin and target is not None else None

        async def read(frame: Frame) -> dict[str, Any] | None:
            if frame == page.main_frame and main is not None:
                return main
            on_target = frame == target_frame
            script = acting if on_target and acting is not None else js.COUNTERS
            try:
                found: dict[str, Any] | None = await self._bounded(
                    page, frame.evaluate(script, [target if on_target else None, begin])
                )
            except PlaywrightError:
                return None
            return found

        frames = [f for f in page.frames if not f.is_detached()]
        # a ref of a page the surface left (one a click opened is on top now) is still
        # acted on where it is
        elsewhere = [
            f for f in (target_frame,) if f is not None and f not in frames and acting is not None
        ]
        read_all = await asyncio.gather(*(read(f) for f in [*frames, *elsewhere]))
        found, probed = False, None
        if elsewhere and read_all[-1] is not None:
            found, probed = bool(read_all[-1].get("found")), read_all[-1].get("probed")
        mutations: dict[Frame, int] = {}
        values: dict[Frame, int] = {}
        focus, on_target, modal, opens = 0, False, False, 0
        target_state: str | None = None
        for frame, counters in zip(frames, read_all, strict=False):
            if counters is None:
                continue
            if frame == target_frame and counters.get("found"):
                found, probed = True, counters.get("probed")
            mutations[frame] = int(counters["mut"])
            values[frame] = int(counters.get("vals") or 0)
            opens += int(counters.get("opens") or 0)
            if target is not None and frame == target_frame and counters.get("state"):
                target_state = str(counters["state"])
            if frame == page.main_frame:
                focus = int(counters["focus"])
                on_target = bool(counters["onTarget"])
                modal = bool(counters["modal"])
        return _State(
            page,
            self._navigations,
            self._pages_opened,
            self._dialogs,
            mutations,
            focus,
            on_target,
            modal,
            opens,
            target_state,
            values,
            found,
            probed,
        )

    def _blank(self) -> _State:
        """The counters of a page with no document of its own to count (about:blank)."""
        return _State(
            self.page,
            self._navigations,
            self._pages_opened,
            self._dialogs,
            {},
            0,
            False,
            False,
            0,
            None,
            {},
        )

    def _begun_state(self, before: _State, main: dict[str, Any] | None) -> _State:
        """``before`` of an action the page helper began, with the main frame's counters
        it took then (carried by the settle's ``main``); as it stands when they did not
        come (a navigation took the document that had them)."""
        got = main.get("before") if main is not None else None
        if not isinstance(got, dict):
            return before
        frame = before.page.main_frame
        state = got.get("state")
        return replace(
            before,
            mutations={frame: int(got["mut"])},
            focus=int(got["focus"]),
            focus_on_target=bool(got["onTarget"]),
            modal=bool(got["modal"]),
            opens=int(got.get("opens") or 0),
            target_state=str(state) if state else None,
            values={frame: int(got.get("vals") or 0)},
        )

    async def _bounded(self, page: Page, call: Awaitable[T], within_ms: int | None = None) -> T:
        """``call`` into ``page``, given ``within_ms`` (the session's timeout by default)
        and :data:`SCRIPT_MARGIN_S`; a page that does not answer by then is replaced by a
        fresh one, and ``PAGE_UNRESPONSIVE`` raised."""
        limit = (self.timeout_ms if within_ms is None else within_ms) / 1000 + SCRIPT_MARGIN_S
        scope = asyncio.timeout(limit)
        try:
            async with scope:
                return await call
        except TimeoutError:
            if not scope.expired():
                raise
        url = page.url
        await self._fresh_page(page)
        raise SurfaceError(
            f"the page did not answer within {round(limit)} s (a script that never ends, or "
            "one dialog after another): it was closed and a fresh page opened",
            code="PAGE_UNRESPONSIVE",
            url=url,
        )

    async def _fresh_page(self, hung: Page) -> None:
        """Put a new page in place of ``hung``, a page that stopped answering."""
        if hung in self._pages:
            self._pages.remove(hung)
        with contextlib.suppress(PlaywrightError, TimeoutError):
            async with asyncio.timeout(self.timeout_ms / 1000):
                await hung.close(run_before_unload=False)
        self._wake()
        if not self._closed and not any(not p.is_closed() for p in self._pages):
            with playwright_errors("could not open a fresh page", code="SESSION_FAILED"):
                await self.context.new_page()

    def _wake(self) -> None:
        self._prefetched = None
        for waker in list(self._wakers):
            if not waker.done():
                waker.set_result(True)
