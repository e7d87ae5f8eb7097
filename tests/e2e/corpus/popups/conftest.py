"""Real libraries that interrupt a step: Ant Design's Select with an option far down its
scrolled list, and tippy.js popovers that open when a field gets focus, installed from npm
and bundled with esbuild by tools/corpus/popups.sh. The forms post what they hold to
``/record``; tasks are judged by the values the server received (:attr:`Library.posted`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
import pytest_asyncio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from gofer.demo import DemoServer

ROOT = Path(__file__).resolve().parents[4]
DIST = ROOT / ".corpus" / "popups" / "dist"

# each demo page: its bundle and its title
LIBRARIES = {"antd": "Shipping", "tippy": "Create your account"}


@dataclass
class Library:
    """The corpus server: ``url(name)`` is a library's form, ``posted`` what forms sent."""

    server: DemoServer | None = None
    posted: list[dict[str, str]] = field(default_factory=list)

    def url(self, name: str, query: str = "") -> str:
        assert self.server is not None and name in LIBRARIES, name
        return self.server.url.rstrip("/") + "/form/" + name + (f"?{query}" if query else "")

    def since(self, mark: int) -> list[dict[str, str]]:
        return self.posted[mark:]

    async def page(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in LIBRARIES:
            return Response("not found", status_code=404)
        css = (
            f'<link rel="stylesheet" href="/dist/{name}.css">'
            if (DIST / f"{name}.css").exists()
            else ""
        )
        return HTMLResponse(
            f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
            f"<title>{LIBRARIES[name]}</title>{css}</head>"
            f'<body><div id="app"></div><script src="/dist/{name}.js"></script></body></html>',
            headers={"Cache-Control": "no-store"},
        )

    async def record(self, request: Request) -> Response:
        body = (await request.body()).decode()
        self.posted.append(dict(parse_qsl(body, keep_blank_values=True)))
        return HTMLResponse(
            "<!doctype html><title>Saved</title><h1>Saved</h1>"
            "<p>Thank you, your details were saved.</p>"
        )


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def library() -> AsyncIterator[Library]:
    """One server for the session, serving every demo form."""
    missing = [name for name in LIBRARIES if not (DIST / f"{name}.js").exists()]
    if missing:
        pytest.fail(
            f"the popup bundles {missing} are missing from {DIST}: run ./dev setup "
            "(tools/corpus/popups.sh installs them from npm and bundles them with esbuild)"
        )
    site = Library()
    app = Starlette(
        routes=[
            Mount("/dist", app=StaticFiles(directory=DIST)),
            Route("/form/{name}", site.page),
            Route("/record", site.record, methods=["POST"]),
        ]
    )
    async with DemoServer(app=app) as server:
        site.server = server
        yield site
