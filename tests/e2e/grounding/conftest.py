"""A small site of pages in the styles of real ones, for the grounder's end-to-end tests.

Library pages load the widget corpus's vendored files from ``/vendor``. Forms post
to ``/record/{name}``, which keeps what it received; some pages answer a post the way
their server would (the form again with its errors, a record updated), so a test can
judge a flow by the server's own state.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

import pytest_asyncio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gofer.demo import DemoServer

from ..widgets.conftest import VENDOR
from .pages import PAGES, answer_post, page

__all__ = ["Site"]


@dataclass
class Site:
    """The site: ``url(name)`` is a page's address; ``posted[name]`` what its forms sent."""

    server: DemoServer | None = None
    posted: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    state: dict[str, str] = field(default_factory=dict)

    def url(self, name: str) -> str:
        assert self.server is not None and name in PAGES, name
        return self.server.url.rstrip("/") + "/g/" + name

    async def page(self, request: Request) -> Response:
        html = page(self, request.path_params["name"])
        if html is None:
            return Response("not found", status_code=404)
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def record(self, request: Request) -> Response:
        name = request.path_params["name"]
        form = dict(parse_qsl((await request.body()).decode(), keep_blank_values=True))
        self.posted.setdefault(name, []).append(form)
        return HTMLResponse(answer_post(self, name, form), headers={"Cache-Control": "no-store"})


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def site() -> AsyncIterator[Site]:
    """One site for the session."""
    held = Site()
    app = Starlette(
        routes=[
            Mount("/vendor", app=StaticFiles(directory=VENDOR)),
            Route("/g/{name}", held.page),
            Route("/record/{name}", held.record, methods=["POST"]),
        ]
    )
    async with DemoServer(app=app) as server:
        held.server = server
        yield held
