"""Reading a browser session's screen: each frame's snapshot (the page helper's reading of
it), subframes' boxes moved by where their iframes sit, put together as one screen."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from playwright.async_api import ElementHandle, Frame, Page

from gofer.errors import SurfaceError
from gofer.surfaces import scripts as js
from gofer.surfaces.base import Masker
from gofer.surfaces.failures import PlaywrightError, surface_error
from gofer.surfaces.guarded import Guarded
from gofer.surfaces.reading import FrameReading, build_screen, page_script
from gofer.surfaces.screen import Screen
from gofer.surfaces.settling import NEW_DOCUMENT_MS, _document_gone

__all__ = ["SNAPSHOT_ELEMENTS", "SNAPSHOT_LINES", "Snapshots"]

SNAPSHOT_ELEMENTS = 3_000
"""The most elements a snapshot reads of one frame (the first, in document order)."""
SNAPSHOT_LINES = 5_000
"""The most text lines a snapshot reads of one frame."""


class Snapshots(Guarded):
    """The part of :class:`~gofer.surfaces.browser.BrowserSurface` that reads the screen."""

    _frames: dict[str, Frame]

    async def _read_frame(self, frame: Frame, path: str) -> dict[str, Any] | None:
        prefix = f"f{path}:" if path else ""
        if (
            not path
            and not frame.child_frames
            and (settled := self._settled_reading(frame.page)) is not None
        ):
            return settled
        for _ in range(2):
            text = await self._bounded(
                frame.page,
                frame.evaluate(js.SNAPSHOT, {**self._snapshot_args, "prefix": prefix}),
            )
            raw: dict[str, Any] = json.loads(text)
            if not raw.get("missing"):
                return raw
            await self._bounded(frame.page, frame.evaluate(page_script()))
        return None

    def _frame_paths(self, page: Page) -> dict[str, Frame]:
        paths: dict[str, Frame] = {"": page.main_frame}

        def visit(frame: Frame, path: str) -> None:
            for i, child in enumerate(frame.child_frames, start=1):
                if child.is_detached():
                    continue
                child_path = f"{path}.{i}" if path else str(i)
                paths[child_path] = child
                visit(child, child_path)

        visit(page.main_frame, "")
        return paths

    async def _subframe(self, frame: Frame, path: str) -> FrameReading | None:
        """A subframe's reading, its boxes moved by where its iframe sits in the page (the
        iframes' handles released after: a page read often would otherwise keep them all)."""
        handles: list[ElementHandle] = []
        try:
            element = await frame.frame_element()
            handles.append(element)
            where = await element.evaluate(js.FRAME_BOX)
            if where is None:
                return None
            dx, dy = where
            parent = frame.parent_frame
            outer = parent.parent_frame if parent is not None else None
            while parent is not None and outer is not None:
                handles.append(await parent.frame_element())
                parent_box = await handles[-1].evaluate(js.FRAME_BOX)
                if parent_box is None:
                    return None
                dx, dy = dx + parent_box[0], dy + parent_box[1]
                parent, outer = outer, outer.parent_frame
            raw = await self._read_frame(frame, path)
            if raw is None:
                return None
            covered: list[bool] = []
            elements = raw.get("elements") or []
            if "." not in path and elements:
                points = [
                    [e["box"][0] + e["box"][2] / 2 + dx, e["box"][1] + e["box"][3] / 2 + dy]
                    for e in elements
                ]
                covered = await self._bounded(
                    frame.page, frame.page.main_frame.evaluate(js.COVERED, [element, points])
                )
            return FrameReading(raw=raw, path=path, dx=dx, dy=dy, covered=covered)
        except PlaywrightError:
            return None  # the frame went away while it was read
        finally:
            for handle in handles:
                with contextlib.suppress(PlaywrightError):  # gone with its frame
                    await handle.dispose()

    async def snapshot(self, mask: Masker | None = None) -> Screen:
        """The screen as it is now: text lines, elements and records of every frame.

        A document that goes away while it is read (a navigation committing) is read
        again once its successor is in; ``SNAPSHOT_FAILED`` when no page can be read.
        """
        for attempt in range(3):
            page = self.page
            navigations = self._navigations
            paths = self._frame_paths(page)
            reads = [self._subframe(frame, path) for path, frame in paths.items() if path]
            try:
                main, *subs = await asyncio.gather(self._read_frame(page.main_frame, ""), *reads)
            except PlaywrightError as err:
                gone = page.is_closed() or self._navigations != navigations or _document_gone(err)
                if attempt == 2 or not gone:
                    raise surface_error(
                        err, "the page could not be read", code="SNAPSHOT_FAILED", url=page.url
                    ) from err
                await self._next_document(page, navigations, NEW_DOCUMENT_MS)
                with contextlib.suppress(PlaywrightError, SurfaceError):
                    await self.page.wait_for_load_state("domcontentloaded")
                continue
            if not isinstance(main, dict):
                break
            self._frames = paths
            self._title = str(main.get("title") or "")
            mut = main.get("mut")
            self._seen = (page, navigations, mut) if isinstance(mut, int) else None
            readings = [FrameReading(raw=main)]
            readings += [s for s in subs if isinstance(s, FrameReading)]
            return build_screen(readings, mask)
        raise SurfaceError("the page could not be read", code="SNAPSHOT_FAILED", url=self.page.url)
