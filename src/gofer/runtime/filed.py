"""Reading a file a task holds as if it were a screen: a CSV as a table, a PDF's text
layer (pypdf) or a text file as lines, so a ``read`` with ``from`` finds its value or
its list the way it does on a page and gives the same shapes."""

from __future__ import annotations

import csv
import io
import logging
import re

from pypdf import PdfReader
from pypdf.errors import PdfReadError

from gofer.runtime.types import TaskFile
from gofer.surfaces.screen import Box, Record, RecordGroup, Screen, TextLine

__all__ = ["UnreadableFile", "file_screen"]

_LINE_HEIGHT = 20
_WIDTH = 1280
_CHAR_WIDTH = 7
_RUN = re.compile(r"\S+(?: \S+)*")
"""A run of words one space apart: two spaces or more part runs on a PDF's line."""

# pypdf says what it skipped in a damaged PDF through logging: not the run's business
logging.getLogger("pypdf").setLevel(logging.ERROR)


class UnreadableFile(ValueError):
    """The file holds nothing a ``read`` can take text from; the message says why."""


def _kind(file: TaskFile) -> str:
    name = file.filename.lower()
    if (
        file.media_type == "application/pdf"
        or name.endswith(".pdf")
        or file.data.startswith(b"%PDF-")
    ):
        return "pdf"
    if file.media_type in ("text/csv", "application/csv") or name.endswith(".csv"):
        return "csv"
    return "text"


def _text(data: bytes) -> str:
    for encoding in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def _lines(texts: list[str], start: int = 0) -> list[TextLine]:
    return [
        TextLine(text, Box(0, (start + i) * _LINE_HEIGHT, _WIDTH, _LINE_HEIGHT))
        for i, text in enumerate(texts)
    ]


def _csv_screen(file: TaskFile) -> Screen:
    text = _text(file.data)
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], ",;\t|")
    except csv.Error:
        dialect = csv.excel
    rows = [[cell.strip() for cell in row] for row in csv.reader(io.StringIO(text), dialect) if row]
    if not rows:
        raise UnreadableFile(f"the file {file.filename!r} has no rows")
    headers, body = rows[0], rows[1:]
    lines = _lines(["  ".join(c for c in row if c) for row in rows])
    records = tuple(
        Record(
            lines[i + 1].box,
            tuple(c for c in row if c),
            {h: c for h, c in zip(headers, row, strict=False) if h and c},
        )
        for i, row in enumerate(body)
    )
    group = RecordGroup(
        Box(0, _LINE_HEIGHT, _WIDTH, _LINE_HEIGHT * max(1, len(body))),
        records,
        headers=tuple(headers),
        name=file.name,
    )
    return Screen(file.filename, file.name, tuple(lines), (), (group,) if records else ())


def _pdf_text(file: TaskFile) -> str:
    try:
        reader = PdfReader(io.BytesIO(file.data))
        pages = [page.extract_text(extraction_mode="layout") or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError) as exc:
        raise UnreadableFile(f"the file {file.filename!r} is not a PDF that can be read") from exc
    return "\n".join(pages)


def _laid_out(text: str) -> list[TextLine]:
    """A PDF's text laid out as on its page: the runs of one line that a wide gap keeps
    apart (a label and its value, a table's cells) become lines side by side."""
    lines: list[TextLine] = []
    row = 0
    for raw in text.splitlines():
        if not raw.strip():
            continue
        for run in _RUN.finditer(raw):
            words = " ".join(run.group().split())
            box = Box(
                run.start() * _CHAR_WIDTH,
                row * _LINE_HEIGHT,
                len(words) * _CHAR_WIDTH,
                _LINE_HEIGHT,
            )
            lines.append(TextLine(words, box))
        row += 1
    return lines


def file_screen(file: TaskFile) -> Screen:
    """The file as a screen: a CSV's rows as one table (its first row the headers), a
    PDF's or a text file's non-blank lines in order."""
    kind = _kind(file)
    if kind == "csv":
        return _csv_screen(file)
    if kind == "pdf":
        lines = _laid_out(_pdf_text(file))
    else:
        texts = [" ".join(line.split()) for line in _text(file.data).splitlines()]
        lines = _lines([t for t in texts if t])
    if not lines:
        what = "no text layer" if kind == "pdf" else "no text"
        raise UnreadableFile(f"the file {file.filename!r} has {what} to read")
    return Screen(file.filename, file.name, tuple(lines), ())
