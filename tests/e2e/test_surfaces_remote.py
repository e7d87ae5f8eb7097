"""The operator's remote browser (``--browser-endpoint``): every session in a context of
its own in a Chromium elsewhere, over one DevTools connection, its requests judged
here, and the connection made again after the remote went away. The "fleet" is a
second local Chromium with a DevTools port."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from gofer.demo import DemoServer
from gofer.errors import BlockedAddress, SurfaceError
from gofer.surfaces import BrowserEngine, BrowserOptions, BrowserPolicy, KeyInput, PointerInput

from .conftest import Pages
from .fleet import Fleet

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]

FORM = """<label for="name">Name</label> <input id="name" style="margin:40px">
<button onclick="document.cookie = 'who=' + document.getElementById('name').value">Keep</button>"""

OPEN_SOCKET = """url => new Promise(done => {
  const s = new WebSocket(url);
  s.onopen = () => done('open');
  s.onclose = e => done(e.code);
})"""


@pytest_asyncio.fixture(loop_scope="session")
async def fleet() -> AsyncIterator[Fleet]:
    fleet = Fleet()
    await fleet.start()
    try:
        yield fleet
    finally:
        await fleet.kill()


def on(fleet: Fleet, *, allow_private: bool = True) -> BrowserEngine:
    return BrowserEngine(policy=BrowserPolicy(allow_private=allow_private, remote=fleet.endpoint))


async def test_each_session_gets_its_own_context_in_the_remote_over_one_connection(
    fleet: Fleet, pages: Pages
) -> None:
    home = pages.add("/remote/form", FORM)
    async with on(fleet) as engine:
        first = await engine.new_session()
        second = await engine.new_session()
        await first.goto(home)
        await second.goto(home)
        hosted = [t["url"] for t in await fleet.targets()]
        assert hosted.count(home) == 2, hosted
        assert "about:blank" in hosted, "the remote's own page is left alone"
        assert engine.launched is None, "no local Chromium was launched"
        assert engine.remote is not None and engine.remote.connections == 1

        # the live view and the screenshot work on the remote page
        screen = await first.snapshot()
        field = next(e for e in screen.elements if e.name == "Name")
        async with await first.live() as view:
            frames = view.frames()
            async with asyncio.timeout(15):
                frame = await anext(frames)
            assert frame.data[:2] == b"\xff\xd8", "a JPEG frame"
            await view.pointer(PointerInput("down", field.box.cx, field.box.cy))
            await view.pointer(PointerInput("up", field.box.cx, field.box.cy))
            for key in "asha":
                await view.key(KeyInput("down", key))
                await view.key(KeyInput("up", key))
        assert await first.page.eval_on_selector("#name", "el => el.value") == "asha"
        assert (await first.screenshot())[:4] == b"\x89PNG"

        # cookies stay in their own context
        await first.page.click("text=Keep")
        assert await first.page.evaluate("document.cookie") == "who=asha"
        await second.goto(home)
        assert await second.page.evaluate("document.cookie") == ""

        await first.close()
        hosted = [t["url"] for t in await fleet.targets()]
        assert hosted.count(home) == 1, "the closed session's page is gone from the remote"
        await second.close()
    assert [t["url"] for t in await fleet.targets()] == ["about:blank"]
    assert fleet.proc is not None and fleet.proc.returncode is None, "the remote runs on"


async def test_two_processes_on_one_remote_keep_to_their_own_contexts(
    fleet: Fleet, pages: Pages
) -> None:
    home = pages.add("/remote/shared", FORM)
    async with on(fleet) as one:
        mine = await one.new_session()
        await mine.goto(home)
        async with on(fleet) as other:
            theirs = await other.new_session()
            await theirs.goto(home)
            await theirs.page.fill("#name", "kiran")
            await theirs.page.click("text=Keep")
        # the other process went, and took only its own context with it
        assert [t["url"] for t in await fleet.targets()].count(home) == 1
        assert mine.pages == 1
        assert await mine.page.evaluate("[innerWidth, innerHeight, document.cookie]") == [
            1280,
            800,
            "",
        ]
        await mine.close()


async def test_private_addresses_are_refused_before_the_remote_sends_them(
    fleet: Fleet, pages: Pages
) -> None:
    pixel = pages.add("/remote/pixel", "")
    socket = pages.origin.replace("http://", "ws://") + "/remote/socket"
    async with on(fleet, allow_private=False) as engine:
        surface = await engine.new_session()
        with pytest.raises(BlockedAddress):
            await surface.goto(pixel)
        await surface.page.set_content(f'<img src="{pixel}" alt="pixel">')
        closed = await surface.page.evaluate(OPEN_SOCKET, socket)
        assert closed == 1008
        assert pixel in surface.blocked and socket in surface.blocked
        await surface.close()
    assert "/remote/pixel" not in pages.hits and "/remote/socket" not in pages.hits


async def test_a_websocket_outside_the_origins_is_refused(fleet: Fleet, pages: Pages) -> None:
    home = pages.add("/remote/origins", "<h1>Confined</h1>")
    elsewhere = pages.origin.replace("http://127.0.0.1", "ws://localhost") + "/remote/socket"
    async with on(fleet) as engine:
        surface = await engine.new_session(BrowserOptions(origins=(pages.origin,)))
        await surface.goto(home)
        closed = await surface.page.evaluate(OPEN_SOCKET, elsewhere)
        assert closed == 1008
        assert elsewhere in surface.blocked
        await surface.close()


async def test_a_remote_that_went_away_is_connected_again_for_the_next_session(
    fleet: Fleet, pages: Pages
) -> None:
    home = pages.add("/remote/again", "<h1>Again</h1>")
    async with on(fleet) as engine:
        held = await engine.new_session()
        await held.goto(home)
        lost = asyncio.Event()
        held.context.browser.on("disconnected", lambda _: lost.set())  # type: ignore[union-attr]
        await fleet.kill()
        async with asyncio.timeout(10):
            await lost.wait()
        assert held.pages == 0, "its pages went with the remote, as in a crashed Chromium"
        with pytest.raises(SurfaceError):
            await held.goto(home)

        with pytest.raises(SurfaceError) as down:
            await engine.new_session()
        assert down.value.code == "BROWSER_ATTACH_FAILED"
        assert "tries" in down.value.message

        await fleet.start()  # the same port again
        again = await engine.new_session()
        await again.goto(home)
        assert "Again" in (await again.snapshot()).text
        assert [t["url"] for t in await fleet.targets()].count(home) == 1
        assert engine.remote is not None and engine.remote.connections == 2
        await held.close()
        await again.close()


async def test_a_redirect_hop_outside_the_origins_is_refused_before_the_remote_sends_it(
    fleet: Fleet,
) -> None:
    landed: list[str] = []

    async def landing(request: Request) -> Response:
        landed.append(request.url.path)
        return HTMLResponse("<h1>Elsewhere</h1>")

    async with DemoServer(app=Starlette(routes=[Route("/landing", landing)])) as other:
        target = other.url + "landing"

        async def hop(request: Request) -> Response:
            return RedirectResponse(target, status_code=302)

        async with DemoServer(app=Starlette(routes=[Route("/hop", hop)])) as site:
            origin = site.url.rstrip("/")
            async with on(fleet) as engine:
                surface = await engine.new_session(BrowserOptions(origins=(origin,)))
                with pytest.raises(SurfaceError):
                    await surface.goto(site.url + "hop")
                assert target in surface.blocked
                await surface.close()
    assert landed == [], "the disallowed origin got the redirected request"
