"""A tiny local site: pages by path, and a record of everything the pages sent."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from gofer.demo import DemoServer

Handler = Callable[["Site", dict[str, Any]], str | None]
"""What a post does: the path to go on to, or ``None`` to show the same page again."""


@dataclass
class Submission:
    """One form post, ``fetch``, or GET with a query string the site received."""

    path: str
    data: dict[str, Any]


@dataclass
class Site:
    """Pages by path (functions of the site, so a page can show what was sent).

    A form ``POST`` is recorded, handed to the path's handler, and answered with a
    redirect to the page the handler names (or the same page). A ``POST`` with a
    JSON body is an API call: recorded, handed to the handler, answered ``{"ok": true}``.
    A ``GET`` of a path given with :meth:`json` is answered with JSON.
    """

    pages: dict[str, Callable[[Site], str]] = field(default_factory=dict)
    handlers: dict[str, Handler] = field(default_factory=dict)
    submissions: list[Submission] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    origin: str = ""
    slow: dict[str, float] = field(default_factory=dict)  # path -> seconds a post takes
    apis: dict[str, Callable[[Site], Any]] = field(default_factory=dict)
    """JSON answered to a GET by path (``slow`` delays these too)."""

    def page(self, path: str, html: str | Callable[[Site], str]) -> None:
        """Serve ``html`` (or what the function makes of the site) at ``path``."""
        self.pages[path] = html if callable(html) else (lambda _site, h=html: h)

    def on_post(self, path: str, handler: Handler) -> None:
        """Handle form posts to ``path``."""
        self.handlers[path] = handler

    def json(self, path: str, answer: Callable[[Site], Any]) -> None:
        """Answer a GET of ``path`` with what ``answer`` makes of the site, as JSON."""
        self.apis[path] = answer

    def sent(self, path: str) -> list[dict[str, Any]]:
        """The data of every submission to ``path``, oldest first."""
        return [s.data for s in self.submissions if s.path == path]

    def url(self, path: str) -> str:
        """The full address of ``path`` on this site."""
        return self.origin + path

    async def endpoint(self, request: Request) -> Response:
        path = request.url.path
        if request.method == "POST":
            if path in self.slow:
                await asyncio.sleep(self.slow[path])  # the server's own work, as on a real one
            if request.headers.get("content-type", "").startswith("application/json"):
                data = json.loads(await request.body() or b"{}")
                self.submissions.append(Submission(path, data))
                api = self.handlers.get(path)
                if api is not None:
                    api(self, data)
                return JSONResponse({"ok": True})
            # Forms post url-encoded (the pages never upload files).
            form = parse_qs((await request.body()).decode(), keep_blank_values=True)
            data = {k: (vs[0] if len(vs) == 1 else vs) for k, vs in form.items()}
            self.submissions.append(Submission(path, data))
            handler = self.handlers.get(path)
            target = handler(self, data) if handler is not None else None
            return RedirectResponse(target or path, status_code=303)
        if path in self.apis:
            if path in self.slow:
                await asyncio.sleep(self.slow[path])
            return JSONResponse(self.apis[path](self), headers={"Cache-Control": "no-store"})
        if request.query_params:
            # A form sent with GET (a search) is a submission too.
            self.state["query"] = dict(request.query_params)
            self.submissions.append(Submission(path, dict(request.query_params)))
        make = self.pages.get(path)
        if make is None:
            return Response("not found", status_code=404)
        return HTMLResponse(make(self), headers={"Cache-Control": "no-store"})

    def app(self) -> Starlette:
        """The site as an ASGI app."""
        return Starlette(routes=[Route("/{path:path}", self.endpoint, methods=["GET", "POST"])])


def document(title: str, body: str, css: str = "", script: str = "") -> str:
    """A whole HTML document."""
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta name='viewport' content='width=device-width'><title>{title}</title>"
        f"<style>body{{font-family:sans-serif;margin:0}}{css}</style></head>"
        f"<body>{body}<script>{script}</script></body></html>"
    )


@contextlib.asynccontextmanager
async def serve(site: Site) -> AsyncIterator[Site]:
    """Serve ``site`` on a free local port for the duration of the block."""
    async with DemoServer(app=site.app()) as server:
        site.origin = server.url.rstrip("/")
        yield site
