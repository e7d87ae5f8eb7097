"""The steps that move files: ``upload``, ``download`` and ``save_pdf``.

An upload grounds its ``into`` words like a click (a file field is a button to the
screen; so are a styled "Browse" button and a drop zone) and puts in only files the
run holds by name: given to the task, or kept by an earlier step, never a path. It is
done only when the page shows it took them: the file field holds their names, or the
page lists them. A download presses its control and keeps what the browser fetched.
"""

from __future__ import annotations

from dataclasses import replace

from gofer.decide import Query, Want, found_well, ground, label_of
from gofer.flow import Download, SavePdf, Upload, file_names
from gofer.runtime.context import StepContext
from gofer.runtime.signals import StepFailed, StepFinished
from gofer.runtime.types import TaskFile
from gofer.surfaces import ActionEffect, Surface
from gofer.surfaces.base import FilePayload, Transfers

__all__ = ["download", "save_pdf", "upload"]


_OPENERS = frozenset({"button", "link", "clickable", "menuitem", "img", "region", "group"})
"""Roles whose click may open the file chooser (a styled button, a link, a drop zone)."""


def _transfers(browser: Surface, what: str) -> Transfers:
    if not isinstance(browser, Transfers):
        raise StepFailed(f"{what} needs a browser; this surface takes no files")
    return browser


def _given(run: StepContext, names: list[str]) -> tuple[TaskFile, ...]:
    files = []
    for name in names:
        file = run.files.get(name)
        if file is None:
            raise StepFailed(
                f"the task holds no file named '{name}': give it with the task's files, or "
                "keep it with an earlier download"
            )
        files.append(file)
    return tuple(files)


async def upload(run: StepContext, path: str, step: Upload) -> StepFinished:
    """An ``upload`` step: the named files into the file control the words name, done
    once the page shows it took them."""
    files = _given(run, file_names(step.files))
    into = run.sub(step.into)
    within = run.sub(step.within) if step.within else None
    query = Query(into, Want.CLICK, within, kind="upload")
    el, screen, grounding = await run.find(path, query)
    if el.input_type != "file":
        # A file field the words name well beats another control that only mentions
        # them (Trac's "File" field beside its "File" menu).
        others = frozenset(e.ref for e in screen.elements if e.input_type != "file")
        fields = ground(replace(query, exclude=others), screen)
        if fields.element is not None and found_well(fields):
            el, grounding = fields.element, fields
    browser = await run.browser()
    taker = _transfers(browser, "uploading")
    payloads = tuple(FilePayload(f.filename, f.media_type, f.data) for f in files)
    shown = ", ".join(run.mask(f.filename) for f in files)
    held: list[tuple[str, ...] | None] = []

    # A control that opens nothing (a checkbox, a text field) is never pressed for an
    # upload: only the file field that belongs to it takes the files.
    press = el.input_type == "file" or el.role in _OPENERS

    async def put() -> ActionEffect:
        done = await taker.put_files(el.ref, payloads, press=press)
        held.append(done.held)
        return done.effect

    await run.act(path, f"put {shown} into '{label_of(el)}'", put)
    wanted = [f.filename for f in files]
    names = held[0] if held else None
    if names is not None and all(name in names for name in wanted):
        return StepFinished(element=el, confidence=grounding.confidence)
    text = (await run.screen()).text
    if all(name in text for name in wanted):
        return StepFinished(element=el, confidence=grounding.confidence)
    holds = "holds no file" if not names else "holds other files"
    raise StepFailed(
        f"put {shown} into '{label_of(el)}', but the page shows no sign of taking it: the "
        f"file field {holds} and the page does not list the file's name",
        el,
    )


async def download(run: StepContext, path: str, step: Download) -> StepFinished:
    """A ``download`` step: press the control the words name and keep what the browser
    downloads under the step's ``as``."""
    words = run.sub(step.target)
    within = run.sub(step.within) if step.within else None
    el, screen, grounding = await run.find(path, Query(words, Want.CLICK, within, kind="download"))
    await run.guard(path, el, screen, words)
    browser = await run.browser()
    taker = _transfers(browser, "downloading")
    got: list[FilePayload] = []

    async def fetch() -> ActionEffect:
        limit, wait_ms = run.file_limits.bytes, run.settings.download_wait_ms
        done = await taker.download(el.ref, max_bytes=limit, wait_ms=wait_ms)
        got.append(done.file)
        return done.effect

    await run.act(path, f"download '{label_of(el)}'", fetch)
    file = got[0]
    run.keep(path, step.as_, file.name, file.media_type, file.data)
    return StepFinished(element=el, confidence=grounding.confidence)


async def save_pdf(run: StepContext, path: str, step: SavePdf) -> StepFinished:
    """A ``save_pdf`` step: the page as a PDF, kept under the step's name."""
    browser = await run.browser()
    taker = _transfers(browser, "saving the page as a PDF")
    printed = await taker.page_pdf()
    if len(printed.data) > run.file_limits.bytes:
        raise StepFailed(
            f"the page as a PDF is {len(printed.data)} bytes, more than the "
            f"{run.file_limits.bytes} a task may keep"
        )
    run.keep(path, step.as_, printed.name, printed.media_type, printed.data)
    return StepFinished()
