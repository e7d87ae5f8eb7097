"""Files in and out of a browser session: files put into a page's file fields, what a
click makes the browser download, and the page printed as a PDF.

A file goes in the way a person's would: straight into a file input the step names
(visible or hidden behind its styling), else through the system's file chooser that
clicking the named control opens (a styled button, a "Browse" link, a drop zone),
caught with Playwright's ``filechooser`` event; only a control that opens none has the
one file input beside it filled. A download is caught by the ``download`` event of
any page of the session (a new tab's too), or, for a document the browser shows in
place of a page or in a new tab (a PDF, a text file), by that page's own response; a
browser with a PDF viewer hands that response the viewer, so the document is read
again from inside its page. A tab the click opened is closed once its file is kept.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import mimetypes
import re
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from playwright.async_api import BrowserContext, Download, Frame, Locator, Page, Response
from playwright.async_api import TimeoutError as PlaywrightTimeout

from gofer.errors import SurfaceError
from gofer.surfaces import scripts as js
from gofer.surfaces.base import ActionEffect, Downloaded, FilePayload, FilesPut
from gofer.surfaces.failures import PlaywrightError, playwright_errors
from gofer.surfaces.guarded import Guarded

__all__ = ["CHOOSER_MS", "FileTransfers"]

CHOOSER_MS = 3_000
"""How long a click on an upload control is given to open the file chooser."""

NEAR_FILE_REF = "file"
"""The ref under which :data:`FILE_FIELD` leaves the file input that belongs to a control."""

FILE_FIELD = """(el) => {
  const isFile = (n) => n instanceof HTMLInputElement && n.type === "file";
  if (isFile(el)) return { own: true, near: false, multiple: el.multiple };
  let input = null;
  if (el instanceof HTMLLabelElement && isFile(el.control)) input = el.control;
  if (!input) {
    const inner = el.querySelectorAll("input[type=file]");
    if (inner.length === 1) input = inner[0];
  }
  for (let p = el.parentElement, i = 0; !input && p && i < 4; p = p.parentElement, i++) {
    const found = p.querySelectorAll("input[type=file]");
    if (found.length === 1) input = found[0];
    if (found.length > 1) break;
  }
  if (input) window.__gofer.refs.set("file", new WeakRef(input));
  return { own: false, near: !!input, multiple: !!(input && input.multiple) };
}"""
"""Whether the element is a file input, else which one belongs to it: its label's, the
one inside it, or the only one in the nearest few blocks around it."""

HELD = "(el) => el.isConnected ? Array.from(el.files || []).map((f) => f.name) : null"

_DOCUMENT_TYPES = ("text/html", "application/xhtml+xml")
_CONTENT_TYPE = "() => location.protocol.startsWith('http') ? document.contentType : 'text/html'"

_FETCH = """async ([url, max]) => {
  const r = await fetch(url, { credentials: "include" });
  const head = { ok: r.ok, status: r.status, type: r.headers.get("content-type") || "",
    disposition: r.headers.get("content-disposition") || "" };
  const declared = Number(r.headers.get("content-length"));
  if (declared > max) return { size: declared };
  const parts = [];
  let size = 0;
  if (r.body) {
    const reader = r.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) { await reader.cancel(); return { size }; }
      parts.push(value);
    }
  }
  let text = "";
  for (const part of parts)
    for (let i = 0; i < part.length; i += 0x8000)
      text += String.fromCharCode.apply(null, part.subarray(i, i + 0x8000));
  return { ...head, data: btoa(text) };
}"""
"""The document at an address, read again from inside its page (``size`` alone when it
is larger than the limit)."""


def _payloads(files: tuple[FilePayload, ...]) -> list[Any]:
    return [{"name": f.name, "mimeType": f.media_type, "buffer": f.data} for f in files]


def _media_type(name: str, fallback: str = "application/octet-stream") -> str:
    guessed, _ = mimetypes.guess_type(name)
    return guessed or fallback


def _too_large(size: int, max_bytes: int) -> SurfaceError:
    return SurfaceError(
        f"the download is {size} bytes, more than the {max_bytes} a task may keep",
        code="FILE_TOO_LARGE",
        size=size,
        limit=max_bytes,
    )


_DISPOSITION = re.compile(r"filename\*?=(?:UTF-8'')?\"?([^\";]+)\"?", re.IGNORECASE)


def _media_of(headers: dict[str, str]) -> str:
    return headers.get("content-type", "").split(";")[0].strip().lower()


def _wrapped(file: FilePayload) -> bool:
    """Whether a PDF the page's response gave is a viewer's page around it, not the file."""
    return file.media_type == "application/pdf" and file.data.find(b"%PDF-", 0, 1024) < 0


def _response_name(headers: dict[str, str], url: str, media_type: str) -> str:
    found = _DISPOSITION.search(headers.get("content-disposition", ""))
    name = unquote(found.group(1)) if found else ""
    if not name:
        name = unquote(Path(urlsplit(url).path).name)
    if not name:
        name = "download" + (mimetypes.guess_extension(media_type) or "")
    return name


class _Catch:
    """What a click that downloads may bring, watched from its making until :meth:`stop`:
    the browser's download (of any page of the session, a new tab's too), a document
    that is not a web page shown in a page's place, or a new tab holding one."""

    def __init__(self, context: BrowserContext, wait_ms: int) -> None:
        loop = asyncio.get_running_loop()
        self.context = context
        self.wait_ms = wait_ms
        self.downloaded: asyncio.Future[Download] = loop.create_future()
        self.shown: asyncio.Future[Response] = loop.create_future()
        self.opened: asyncio.Future[Page] = loop.create_future()
        self.fresh: list[Page] = []
        """The tabs opened since."""
        self._watched: list[Page] = []
        self._looks: set[asyncio.Task[None]] = set()
        for page in context.pages:
            self._watch(page)
        context.on("page", self._on_page)

    def stop(self) -> None:
        self.context.remove_listener("page", self._on_page)
        for page in self._watched:
            page.remove_listener("download", self._on_download)
            page.remove_listener("response", self._on_response)
        for future in (self.downloaded, self.shown, self.opened):
            future.cancel()
        for task in self._looks:
            task.cancel()

    def _on_download(self, download: Download) -> None:
        if not self.downloaded.done():
            self.downloaded.set_result(download)

    def _on_response(self, response: Response) -> None:
        request = response.request
        if self.shown.done() or not request.is_navigation_request():
            return
        if request.frame.parent_frame is not None:
            return
        if response.headers.get("content-disposition", "").lower().startswith("attachment"):
            return  # the browser downloads it: the download event brings it
        kind = _media_of(response.headers)
        if kind and kind not in _DOCUMENT_TYPES and response.ok:
            self.shown.set_result(response)

    async def _look(self, page: Page) -> None:
        # a new tab whose first response came before it was seen (a remote
        # browser's PDF viewer): its document says what it holds
        with contextlib.suppress(PlaywrightError, TimeoutError):
            async with asyncio.timeout(self.wait_ms / 1000):
                await page.wait_for_load_state("load", timeout=self.wait_ms)
                kind = await page.evaluate(_CONTENT_TYPE)
            if str(kind).lower() not in _DOCUMENT_TYPES and not self.opened.done():
                self.opened.set_result(page)

    def _watch(self, page: Page) -> None:
        self._watched.append(page)
        page.on("download", self._on_download)
        page.on("response", self._on_response)

    def _on_page(self, page: Page) -> None:
        self.fresh.append(page)
        self._watch(page)
        task = asyncio.get_running_loop().create_task(self._look(page))
        self._looks.add(task)
        task.add_done_callback(self._looks.discard)


class FileTransfers(Guarded):
    """The part of :class:`~gofer.surfaces.browser.BrowserSurface` that moves files
    (see :class:`~gofer.surfaces.base.Transfers`)."""

    _frames: dict[str, Frame]

    async def _on(  # the session's own (BrowserSurface._on)
        self, ref: str, verb: str, act: Any, probe: str | None = None
    ) -> ActionEffect:
        raise NotImplementedError

    async def click(self, ref: str) -> ActionEffect:  # the session's own
        raise NotImplementedError

    def _frame_locator(self, ref: str, inner: str) -> Locator:
        path = ref[1:].split(":", 1)[0] if ref.startswith("f") and ":" in ref else ""
        frame = self._frames.get(path)
        owner = frame if frame is not None else self.page.main_frame
        return owner.locator(f"{js.REF_SELECTOR}={inner}")

    async def put_files(
        self, ref: str, files: tuple[FilePayload, ...], *, press: bool = True
    ) -> FilesPut:
        """Put ``files`` into the file input ``ref`` is, else into the file chooser its
        click opens, else into the one file input that belongs to it
        (``NO_FILE_CHOOSER`` when there is none; ``NOT_MULTIPLE`` for several files
        into a field that takes one)."""
        page = self.page
        payloads = _payloads(files)
        holder: list[Locator | Any] = []

        def check_multiple(multiple: bool) -> None:
            if len(files) > 1 and not multiple:
                raise SurfaceError(
                    f"the file field takes one file, and {len(files)} were to go in",
                    code="NOT_MULTIPLE",
                    ref=ref,
                )

        async def act(el: Locator, found: Any) -> None:
            if found["own"]:
                check_multiple(bool(found["multiple"]))
                await el.set_input_files(payloads, timeout=self.timeout_ms)
                holder.append(el)
                return
            try:
                if not press:
                    raise PlaywrightTimeout("not to be pressed")
                async with page.expect_file_chooser(timeout=CHOOSER_MS) as info:
                    await el.click(timeout=self.timeout_ms)
                chooser = await info.value
            except PlaywrightTimeout:
                if not found["near"]:
                    raise SurfaceError(
                        "clicking it opened no file chooser, and no file field belongs to it",
                        code="NO_FILE_CHOOSER",
                        ref=ref,
                    ) from None
                check_multiple(bool(found["multiple"]))
                near = self._frame_locator(ref, NEAR_FILE_REF)
                await near.set_input_files(payloads, timeout=self.timeout_ms)
                holder.append(near)
                return
            check_multiple(chooser.is_multiple())
            await chooser.set_files(payloads, timeout=self.timeout_ms)
            holder.append(chooser.element)

        effect = await self._on(ref, "put files into", act, FILE_FIELD)
        held: tuple[str, ...] | None = None
        if holder:
            try:
                names = await self._bounded(page, holder[0].evaluate(HELD))
            except PlaywrightError:
                names = None  # gone with what read it
            held = None if names is None else tuple(str(n) for n in names)
        return FilesPut(effect, held)

    async def download(self, ref: str, *, max_bytes: int, wait_ms: int) -> Downloaded:
        """Click ``ref`` and keep the file the browser downloads (see the protocol)."""
        start = self.page
        catch = _Catch(self.context, wait_ms)
        try:
            effect = await self.click(ref)
            kept, holder, where = await self._shown_file(catch, max_bytes, wait_ms)
            if kept is not None:
                if holder is not None and holder in catch.fresh:
                    await self._close_tab(holder)
                elif holder is start and start.url == where:
                    await self._back(start)
                return Downloaded(effect, kept)
            if not catch.downloaded.done():
                raise SurfaceError(
                    f"clicking it started no download within {wait_ms // 1000} s",
                    code="NO_DOWNLOAD",
                    ref=ref,
                )
            caught = catch.downloaded.result()
            file = await self._from_download(caught, max_bytes)
            # a new tab whose document the browser downloaded holds nothing: a person's
            # browser closes it (its page may be announced as late as the file is read)
            for tab in catch.fresh:
                if tab.url in ("", "about:blank", caught.url):
                    await self._close_tab(tab)
            return Downloaded(effect, file)
        finally:
            catch.stop()

    async def _shown_file(
        self, catch: _Catch, max_bytes: int, wait_ms: int
    ) -> tuple[FilePayload | None, Page | None, str]:
        """The file a document shown in a page brought (the page, and the address it was
        read from), until the browser's download comes or ``wait_ms`` runs out; None
        when none did."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait_ms / 1000
        kept: FilePayload | None = None
        holder: Page | None = None
        where = ""
        handled: set[asyncio.Future[Any]] = set()
        shown, opened = catch.shown, catch.opened
        while kept is None and not catch.downloaded.done():
            ready = [f for f in (shown, opened) if f.done() and f not in handled]
            if not ready:
                left = deadline - loop.time()
                pending = {f for f in (catch.downloaded, shown, opened) if not f.done()}
                if left <= 0 or not pending:
                    break
                await asyncio.wait(pending, timeout=left, return_when=asyncio.FIRST_COMPLETED)
                continue
            handled.add(ready[0])
            if ready[0] is shown:
                response = shown.result()
                holder, where = response.frame.page, response.url
                try:
                    kept = await self._from_response(response, max_bytes)
                except SurfaceError as err:
                    if err.code == "FILE_TOO_LARGE":
                        raise
                    # the browser took the document as a download (a PDF in a
                    # headless browser): its download event brings the file
                    continue
                if _wrapped(kept):
                    kept = await self._refetch(holder, response.url, max_bytes)
            else:
                holder = opened.result()
                where = holder.url
                kept = await self._refetch(holder, where, max_bytes)
        return kept, holder, where

    async def _back(self, page: Page) -> None:
        """Back from a document a browser's viewer showed in the page's place, to the
        page that offered it (where a browser without a viewer stays)."""
        with playwright_errors("could not go back from the document", code="ACTION_FAILED"):
            await self._bounded(page, page.go_back(wait_until="commit", timeout=self.timeout_ms))

    async def _close_tab(self, page: Page) -> None:
        """Close a tab the download opened, once its file is kept: the task goes on in
        the page that opened it."""
        with contextlib.suppress(PlaywrightError):  # gone already: closed as it came
            await page.close()

    async def _refetch(self, page: Page, url: str, max_bytes: int) -> FilePayload:
        """The document at ``url`` as its server sends it, fetched again from inside
        ``page`` (its cookies, the session's guard): a browser's PDF viewer hands the
        page's own response a viewer, not the file."""
        with playwright_errors("could not read the opened document", code="DOWNLOAD_FAILED"):
            await page.wait_for_url(
                lambda at: at == url, wait_until="load", timeout=self.timeout_ms
            )
            got = await self._bounded(page, page.evaluate(_FETCH, [url, max_bytes]))
        if "size" in got and "data" not in got:
            raise _too_large(int(got["size"]), max_bytes)
        if not got["ok"]:
            raise SurfaceError(
                f"the opened document could not be read again (HTTP {got['status']})",
                code="DOWNLOAD_FAILED",
            )
        headers = {"content-type": got["type"], "content-disposition": got["disposition"]}
        media_type = _media_of(headers)
        name = _response_name(headers, url, media_type)
        return FilePayload(name, media_type or _media_type(name), base64.b64decode(got["data"]))

    async def _from_download(self, download: Download, max_bytes: int) -> FilePayload:
        with playwright_errors("the download did not finish", code="DOWNLOAD_FAILED"):
            failure = await download.failure()
            if failure is not None:
                raise SurfaceError(f"the download failed: {failure}", code="DOWNLOAD_FAILED")
            with tempfile.TemporaryDirectory(prefix="gofer-download-") as folder:
                try:
                    path = Path(await download.path())
                except PlaywrightError:  # a remote browser keeps its file: it is copied here
                    path = Path(folder) / "file"
                    await download.save_as(path)
                try:
                    size = path.stat().st_size
                    if size > max_bytes:
                        raise _too_large(size, max_bytes)
                    data = path.read_bytes()
                finally:
                    await download.delete()
        name = download.suggested_filename or "download"
        return FilePayload(name, _media_type(name), data)

    async def _from_response(self, response: Response, max_bytes: int) -> FilePayload:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            raise _too_large(int(declared), max_bytes)
        with playwright_errors("could not read the opened document", code="DOWNLOAD_FAILED"):
            data = await response.body()
        if len(data) > max_bytes:
            raise _too_large(len(data), max_bytes)
        media_type = _media_of(response.headers)
        name = _response_name(response.headers, response.url, media_type)
        return FilePayload(name, media_type or _media_type(name), data)

    async def page_pdf(self) -> FilePayload:
        """The current page printed as a PDF (``PDF_UNAVAILABLE`` in a headed browser,
        which cannot print to a file)."""
        page = self.page
        with playwright_errors(
            "could not print the page as a PDF (a headed browser cannot)",
            code="PDF_UNAVAILABLE",
        ):
            data = await self._bounded(page, page.pdf(print_background=True))
        title = re.sub(r"[^\w\- ]+", "", self._title or "").strip()[:80] or "page"
        return FilePayload(f"{title}.pdf", "application/pdf", data)
