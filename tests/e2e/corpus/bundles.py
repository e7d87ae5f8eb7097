"""Real component libraries bundled from npm (tools/corpus/widgets.sh, popups.sh), one
demo form per bundle, served by one Starlette app per session. The forms post what they
hold to ``/record``; a task is judged by the values the server received
(:attr:`Library.posted`), never by a step inside its flow."""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import pytest
from starlette.applications import Starlette
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gofer.demo import DemoServer
from gofer.runtime import RunStatus

from ..conftest import Opener

ROOT = Path(__file__).resolve().parents[3]
ACTION_TIMEOUT_MS = 5_000
"""How long an action waits for its control on a local demo form (a control that never
shows fails sooner than the 10 s a real site gets: the suite runs many such forms)."""


@dataclass(frozen=True)
class Page:
    """A bundle's page: its title and the language it is written in."""

    title: str
    lang: str = "en"


@dataclass
class Library:
    """The corpus server: ``url(name)`` is a bundle's form, ``posted`` what forms sent."""

    dist: Path
    pages: dict[str, Page]
    saved: tuple[str, str]
    server: DemoServer | None = None
    posted: list[dict[str, str]] = field(default_factory=list)

    def url(self, name: str, query: str = "") -> str:
        assert self.server is not None and name in self.pages, name
        return self.server.url.rstrip("/") + "/form/" + name + (f"?{query}" if query else "")

    def since(self, mark: int) -> list[dict[str, str]]:
        return self.posted[mark:]

    async def page(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in self.pages:
            return Response("not found", status_code=404)
        page = self.pages[name]
        css = (
            f'<link rel="stylesheet" href="/dist/{name}.css">'
            if (self.dist / f"{name}.css").exists()
            else ""
        )
        return HTMLResponse(
            f'<!doctype html><html lang="{page.lang}"><head><meta charset="utf-8">'
            f"<title>{page.title}</title>{css}</head>"
            f'<body><div id="app"></div><script src="/dist/{name}.js"></script></body></html>',
            headers={"Cache-Control": "no-store"},
        )

    async def upload(self, request: Request) -> Response:
        """A multipart form's files: each field as ``name:sha256`` of every file it sent,
        joined by commas, the digest taken of the bytes the server received."""
        sent: dict[str, list[str]] = {}
        async with request.form() as form:
            for key, value in form.multi_items():
                if isinstance(value, UploadFile) and value.filename:
                    digest = hashlib.sha256(await value.read()).hexdigest()
                    sent.setdefault(key, []).append(f"{value.filename}:{digest}")
        self.posted.append({key: ",".join(files) for key, files in sent.items()})
        heading, note = self.saved
        return HTMLResponse(f"<!doctype html><title>Saved</title><h1>{heading}</h1><p>{note}</p>")

    async def record(self, request: Request) -> Response:
        body = (await request.body()).decode()
        self.posted.append(dict(parse_qsl(body, keep_blank_values=True)))
        heading, note = self.saved
        return HTMLResponse(f"<!doctype html><title>Saved</title><h1>{heading}</h1><p>{note}</p>")


@asynccontextmanager
async def serving(
    bundle: str, pages: dict[str, Page], saved: tuple[str, str]
) -> AsyncIterator[Library]:
    """One server for ``.corpus/<bundle>/dist`` whose ``/record`` answers with the
    ``saved`` heading and note; fails (never skips) when a bundle is missing, naming the
    script that makes it."""
    dist = ROOT / ".corpus" / bundle / "dist"
    missing = [name for name in pages if not (dist / f"{name}.js").exists()]
    if missing:
        pytest.fail(
            f"the {bundle} bundles {missing} are missing from {dist}: run ./dev setup "
            f"(tools/corpus/{bundle}.sh installs them from npm and bundles them with esbuild)"
        )
    site = Library(dist, pages, saved)
    app = Starlette(
        routes=[
            Mount("/dist", app=StaticFiles(directory=dist)),
            Route("/form/{name}", site.page),
            Route("/record", site.record, methods=["POST"]),
            Route("/upload", site.upload, methods=["POST"]),
        ]
    )
    async with DemoServer(app=app) as server:
        site.server = server
        yield site


@dataclass(frozen=True)
class Task:
    """A flow a user would write on a bundle's form, and what the server must have
    received. ``want`` None: the task cannot be done on that page, so the right outcome
    is a failed run and nothing posted."""

    library: str
    steps: list[dict[str, Any]]
    want: dict[str, str] | None
    query: str = ""
    allow_destructive: bool = False  # the person approved the form's submit up front


async def judge(task: Task, run_open: Opener, library: Library) -> None:
    """Runs the task's flow and judges it by what the server received: a run that
    says it is done must have posted exactly the values asked for."""
    mark = len(library.posted)
    flow = [{"browse": library.url(task.library, task.query)}, *task.steps]
    async with run_open(
        flow, allow_destructive=task.allow_destructive, action_timeout_ms=ACTION_TIMEOUT_MS
    ) as done:
        status = done.result.status
        failure = done.result.failure or (status.value, done.result.gate, done.result.reason)
    posted = library.since(mark)
    if task.want is None:
        assert status is not RunStatus.COMPLETED, f"done, though the page cannot: {posted}"
        assert posted == [], posted
        return
    if status is RunStatus.COMPLETED:
        assert len(posted) == 1, posted
        got = {key: posted[0].get(key) for key in task.want}
        assert got == task.want, f"done with the wrong values: {posted[0]}"
    assert status is RunStatus.COMPLETED, failure
