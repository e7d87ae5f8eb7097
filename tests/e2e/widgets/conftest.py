"""The widget corpus: pages built from real widget libraries, served over real HTTP.

The libraries' distribution files are vendored under ``vendor/`` (with their
licences); the pages are in :mod:`.pages`. A page posts its form to ``/record``,
which keeps what it received, so a test can judge a flow by the server's record
as well as by the fields' own values.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl

import pytest_asyncio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gofer.demo import DemoServer

from .pages import PAGES

VENDOR = Path(__file__).parent / "vendor"


@dataclass
class WidgetSite:
    """The corpus site: ``url(name)`` is a page's address, ``posted`` what forms sent."""

    server: DemoServer | None = None
    posted: list[dict[str, str]] = field(default_factory=list)

    def url(self, name: str) -> str:
        assert self.server is not None and name in PAGES, name
        return self.server.url.rstrip("/") + "/w/" + name

    async def page(self, request: Request) -> Response:
        html = PAGES.get(request.path_params["name"])
        if html is None:
            return Response("not found", status_code=404)
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def record(self, request: Request) -> Response:
        body = (await request.body()).decode()
        self.posted.append(dict(parse_qsl(body, keep_blank_values=True)))
        return HTMLResponse(
            "<!doctype html><title>Saved</title><h1>Saved</h1>"
            "<p>Thank you, your details were saved.</p>"
        )


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def widgets() -> AsyncIterator[WidgetSite]:
    """One corpus site for the session."""
    site = WidgetSite()
    app = Starlette(
        routes=[
            Mount("/vendor", app=StaticFiles(directory=VENDOR)),
            Route("/w/{name}", site.page),
            Route("/record", site.record, methods=["POST"]),
        ]
    )
    async with DemoServer(app=app) as server:
        site.server = server
        yield site
