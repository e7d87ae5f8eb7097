"""A person's live view of the browser surface on real Chromium: the screencast's frames,
and their mouse and keys reaching the page (CDP input), following the surface to a
page a click opened."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import pytest

from gofer.errors import SurfaceError
from gofer.surfaces import (
    BrowserEngine,
    BrowserSurface,
    KeyInput,
    LiveDialog,
    LiveFrame,
    LiveView,
    Modifiers,
    PointerInput,
    Screen,
)

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]

FORM = """<!doctype html><title>Sign in</title>
<form action="/signed" method="get" style="margin:40px">
  <label for="user">Username</label> <input id="user" name="user">
  <label for="note">Note</label> <input id="note" name="note">
  <button>Sign in</button>
</form>
<a href="/other" target="_blank" style="display:block;margin:40px">Help (new tab)</a>
<div style="height:3000px"></div>"""
OTHER = """<!doctype html><title>Help</title><input id="q" aria-label="Question" autofocus>"""
SIGNED = """<!doctype html><title>Signed</title><p>Signed in</p>"""


@asynccontextmanager
async def on_site(
    engine: BrowserEngine, make_site: Any, pages: Mapping[str, str]
) -> AsyncIterator[tuple[Any, BrowserSurface]]:
    """A local site serving ``pages`` and a browser surface on its home page, closed
    when the block ends."""
    site = make_site()
    for path, body in pages.items():
        site.add(path, body)
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/"))
        yield site, surface
    finally:
        await surface.close()


def box_of(screen: Screen, name: str) -> tuple[float, float]:
    for el in screen.elements:
        if el.name == name:
            return el.box.cx, el.box.cy
    raise AssertionError(f"no {name!r} on {[e.name for e in screen.elements]}")


async def click(view: LiveView, x: float, y: float) -> None:
    await view.pointer(PointerInput("down", x, y))
    await view.pointer(PointerInput("up", x, y))


async def type_keys(view: LiveView, text: str) -> None:
    for char in text:
        await view.key(KeyInput("down", char))
        await view.key(KeyInput("up", char))


async def next_frame(frames: AsyncIterator[LiveFrame]) -> LiveFrame:
    async with asyncio.timeout(15):
        return await anext(frames)


async def value(surface: BrowserSurface, selector: str) -> Any:
    return await surface.page.eval_on_selector(selector, "el => el.value")


async def test_frames_and_input_reach_the_page(engine: BrowserEngine, make_site: Any) -> None:
    async with on_site(engine, make_site, {"/": FORM, "/signed": SIGNED}) as (_site, surface):
        screen = await surface.snapshot()
        async with await surface.live() as view:
            frames = view.frames()
            first = await next_frame(frames)
            assert first.data[:2] == b"\xff\xd8", "a JPEG"
            assert (first.width, first.height) == view.size == (1280, 800)

            await click(view, *box_of(screen, "Username"))
            assert await surface.page.evaluate("document.activeElement.id") == "user"
            await type_keys(view, "asha")
            await view.text(" raina")
            await view.key(KeyInput("down", "Backspace"))
            await view.key(KeyInput("up", "Backspace"))
            assert await value(surface, "#user") == "asha rain"
            # Ctrl+A selects; the next character replaces the selection
            await view.key(KeyInput("down", "a", "KeyA", Modifiers(ctrl=True)))
            await view.key(KeyInput("up", "a", "KeyA", Modifiers(ctrl=True)))
            await type_keys(view, "z")
            assert await value(surface, "#user") == "z"

            await view.pointer(PointerInput("wheel", 300, 300, dy=400))
            async with asyncio.timeout(10):
                while await surface.page.evaluate("scrollY") == 0:
                    await next_frame(frames)  # each repaint of the scroll
            await surface.page.evaluate("scrollTo(0, 0)")

            async with surface.page.expect_navigation():
                await view.key(KeyInput("down", "Enter"))
                await view.key(KeyInput("up", "Enter"))
            assert "/signed?user=z" in surface.url
            after = await next_frame(frames)
            assert after.data[:2] == b"\xff\xd8"


async def test_the_view_follows_a_page_that_opens_and_ends_with_the_surface(
    engine: BrowserEngine, make_site: Any
) -> None:
    async with on_site(engine, make_site, {"/": FORM, "/other": OTHER}) as (_site, surface):
        screen = await surface.snapshot()
        view = await surface.live()
        frames = view.frames()
        await next_frame(frames)
        await click(view, *box_of(screen, "Help (new tab)"))
        async with asyncio.timeout(10):
            while surface.pages < 2:
                await next_frame(frames)
        await surface.settle()
        await next_frame(frames)
        await type_keys(view, "why")
        assert await value(surface, "#q") == "why", "the keys went to the new page"
    async with asyncio.timeout(10):
        rest = [frame async for frame in frames]
    assert len(rest) <= 1
    assert view.closed
    with pytest.raises(SurfaceError) as err:
        await view.text("late")
    assert err.value.code == "LIVE_CLOSED"


async def test_frames_go_on_across_a_navigation_to_another_site(
    engine: BrowserEngine, make_site: Any
) -> None:
    async with (
        on_site(engine, make_site, {"/": FORM, "/other": OTHER}) as (site, surface),
        await surface.live() as view,
    ):
        frames = view.frames()
        await next_frame(frames)
        # localhost and 127.0.0.1 are different sites: another renderer process
        elsewhere = site.url("/other").replace("127.0.0.1", "localhost")
        await surface.goto(elsewhere)
        assert surface.url.startswith("http://localhost")
        await next_frame(frames)
        await type_keys(view, "ok")
        assert await value(surface, "#q") == "ok"


PAY = """<!doctype html><title>Pay</title>
<button id="pay" style="position:absolute;left:40px;top:40px;width:200px;height:60px"
 onclick="document.getElementById('out').textContent =
   confirm('Pay 100 rupees?') ? 'paid' : 'kept'">Pay</button>
<button id="name" style="position:absolute;left:40px;top:140px;width:200px;height:60px"
 onclick="document.getElementById('out').textContent = prompt('Your name?', 'Asha')">Name</button>
<p id="out" style="position:absolute;top:240px">nothing yet</p>"""


async def press_and_get_dialog(
    view: LiveView, frames: AsyncIterator[Any], x: float, y: float
) -> tuple[Any, asyncio.Task[None]]:
    """Click at (x, y) (its release waits on the dialog it opens) and the dialog."""
    await view.pointer(PointerInput("down", x, y))
    release = asyncio.create_task(view.pointer(PointerInput("up", x, y)))
    async with asyncio.timeout(15):
        while True:
            item = await anext(frames)
            if isinstance(item, LiveDialog):
                return item, release


async def test_the_pages_dialogs_are_the_persons_to_answer_while_the_view_is_open(
    engine: BrowserEngine, make_site: Any
) -> None:
    async with on_site(engine, make_site, {"/": PAY}) as (_site, surface):
        out = surface.page.locator("#out")
        async with await surface.live() as view:
            frames = view.frames()
            dialog, release = await press_and_get_dialog(view, frames, 140, 70)
            assert (dialog.kind, dialog.message) == ("confirm", "Pay 100 rupees?")
            await view.answer(True)
            await release
            assert await out.inner_text() == "paid"

            dialog, release = await press_and_get_dialog(view, frames, 140, 170)
            assert (dialog.kind, dialog.message, dialog.default) == ("prompt", "Your name?", "Asha")
            await view.answer(True, "Ravi")
            await release
            assert await out.inner_text() == "Ravi"

            # one left open when the view closes is cancelled
            dialog, release = await press_and_get_dialog(view, frames, 140, 70)
        await release
        assert await out.inner_text() == "kept"
        # with no one in the view, the surface dismisses confirms itself again
        await surface.page.click("#pay")
        assert await out.inner_text() == "kept"


async def test_a_second_dialog_waits_for_the_first_to_be_answered(
    engine: BrowserEngine, make_site: Any
) -> None:
    site = make_site()
    site.add("/", PAY)
    site.add("/other", "<p>another tab</p>")
    surface = await engine.new_session()
    try:
        await surface.goto(site.url("/other"))
        other = surface.page
        await surface.context.new_page()  # the surface moves to the newest tab
        await surface.goto(site.url("/"))
        out = surface.page.locator("#out")
        async with await surface.live() as view:
            frames = view.frames()
            first, release = await press_and_get_dialog(view, frames, 140, 70)
            assert first.message == "Pay 100 rupees?"
            async with other.expect_event("dialog"):
                await other.evaluate("setTimeout(() => alert('from the other tab'), 0)")
            await view.answer(True)
            async with asyncio.timeout(15):  # the first is answered, not the second
                await release
            assert await out.inner_text() == "paid"
            async with asyncio.timeout(15):
                second = await anext(frames)
                while not isinstance(second, LiveDialog):
                    second = await anext(frames)
            assert (second.kind, second.message) == ("alert", "from the other tab")
            await view.answer(True)
            assert await other.evaluate("document.body.innerText") == "another tab"
    finally:
        await surface.close()
