"""The live view's page and script in a real headless Chromium, against a real server
whose task pages are fakes: a click on the picture lands where the person clicked,
keys and the text field type into the page, Shift+Escape leaves the picture, a tap
clicks and a finger's drag scrolls, and "Stop taking over" closes the socket."""

from __future__ import annotations

import asyncio
import struct
import zlib
from collections.abc import Callable

import pytest
from playwright.async_api import Browser, Dialog, expect

from gofer.api import GoferServer, MemoryTokenStore
from gofer.surfaces import (
    Box,
    Element,
    KeyInput,
    LiveDialog,
    PointerInput,
    Screen,
)
from gofer.surfaces.testing import FakeLiveView, FakeSurface
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import fail

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

FLOW = [{"browse": "https://shop.example.com/orders"}, {"click": "View order 1042"}]
USERNAME = Element(
    ref="e1", role="textbox", name="Username", editable=True, box=Box(100, 160, 320, 40)
)
SIGN_IN = Element(ref="e2", role="button", name="Sign in", box=Box(100, 310, 120, 40))


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A plain PNG of one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def _moving(event: object) -> bool:
    return isinstance(event, PointerInput) and event.action == "move"


async def received(view: FakeLiveView, count: int) -> list[object]:
    """The input the fake page got but the pointer's moves (the mouse hovers on its
    way to a click), once it got ``count`` such events."""
    async with asyncio.timeout(10):
        while True:
            got = [e for e in view.received if not _moving(e)]
            if len(got) >= count:
                return got
            await view.until_received(len(view.received) + 1)


async def test_the_live_page_sends_what_the_person_does(
    chromium: Browser,
    served: Callable[[str | bytes], None],
) -> None:
    tokens = MemoryTokenStore()
    alice = (await tokens.create("alice")).token
    runner = ScriptedRunner.of(fail("1", "no such link", screen_text="Sign in to continue"))
    async with Tasks(runner) as tasks, GoferServer(tasks, tokens, observe=served) as srv:
        alices = tasks.for_owner("alice")
        view = await alices.start_task({"flow": FLOW})
        assert (await alices.await_task({"id": view.id})).status.state == "needs_human"
        face = FakeSurface(
            Screen("https://shop.example.com/orders", "Sign in", (), (USERNAME, SIGN_IN))
        )
        face.picture = png(1280, 800, (250, 250, 250))
        runner.faces[view.id] = face
        context = await chromium.new_context(
            viewport={"width": 1000, "height": 900}, has_touch=True
        )
        try:
            page = await context.new_page()
            await page.goto(f"{srv.url}/tasks/{view.id}/live")
            await page.get_by_label("Access token").fill(alice)
            await page.get_by_role("button", name="Sign in").click()
            await page.wait_for_url(f"{srv.url}/tasks/{view.id}/live")
            await page.get_by_role("button", name="Take over", exact=True).click()
            picture = page.get_by_role("img", name="The task's browser page as it is now")
            await page.wait_for_function(
                "() => document.querySelector('[data-live-image]').naturalWidth > 0"
            )
            await expect(page.get_by_role("status").last).to_contain_text(
                "You have the task's browser"
            )
            box = await picture.bounding_box()
            assert box is not None and 0 < box["width"] < 1280, "scaled to fit the page"
            live = face.views[-1]

            def at(x: float, y: float) -> tuple[float, float]:
                return box["x"] + x / 1280 * box["width"], box["y"] + y / 800 * box["height"]

            await page.mouse.click(*at(USERNAME.box.cx, USERNAME.box.cy))
            got = await received(live, 2)
            down, up = got[0], got[1]
            assert isinstance(down, PointerInput) and isinstance(up, PointerInput)
            assert (down.action, up.action, down.button) == ("down", "up", "left")
            assert abs(down.x - USERNAME.box.cx) < 3 and abs(down.y - USERNAME.box.cy) < 3
            field = face.screen.element("e1")
            assert field is not None and field.focused

            await page.keyboard.type("ab")
            await page.keyboard.press("Backspace")
            typed = await received(live, 8)
            keys = [(k.action, k.key) for k in typed[2:] if isinstance(k, KeyInput)]
            assert keys == [
                ("down", "a"),
                ("up", "a"),
                ("down", "b"),
                ("up", "b"),
                ("down", "Backspace"),
                ("up", "Backspace"),
            ]
            # the text box names the field the click focused, and shows what is typed
            text_box = page.get_by_label("Type into “Username”")
            await text_box.fill("cd")
            assert await text_box.get_attribute("type") == "text"
            await page.get_by_role("button", name="Type it").click()
            await received(live, 9)
            field = face.screen.element("e1")
            assert field is not None and field.value == "acd"
            assert await text_box.input_value() == ""

            await page.get_by_role("application", name="The task's browser page").focus()
            await page.keyboard.press("Shift+Escape")
            stop = page.get_by_role("button", name="Stop taking over")
            await expect(stop).to_be_focused()
            sent = await received(live, 11)
            assert [(k.action, k.key) for k in sent[9:] if isinstance(k, KeyInput)] == [
                ("down", "Shift"),
                ("up", "Shift"),
            ], "the way out is not sent to the page, and Shift is let up as focus leaves"

            await page.touchscreen.tap(*at(SIGN_IN.box.cx, SIGN_IN.box.cy))
            tapped = await received(live, 13)
            assert [
                (p.action, p.button)
                for p in tapped[11:13]  # type: ignore[union-attr]
            ] == [("down", "left"), ("up", "left")]
            x, y = at(600, 600)
            await picture.evaluate(
                """async (img, [x, y]) => {
              const fire = (type, cy) => img.dispatchEvent(new PointerEvent(type, {
                pointerType: 'touch', pointerId: 7, clientX: x, clientY: cy, bubbles: true}));
              fire('pointerdown', y);
              // a new frame arrives as the finger moves: the picture is still loading it
              const copy = document.createElement('canvas');
              copy.width = img.naturalWidth;
              copy.height = img.naturalHeight;
              copy.getContext('2d').drawImage(img, 0, 0);
              img.src = URL.createObjectURL(await new Promise((r) => copy.toBlob(r)));
              await new Promise((r) => setTimeout(r, 0));
              fire('pointermove', y - 60); fire('pointerup', y - 60);
            }""",
                [x, y],
            )
            scrolled = await received(live, 14)
            wheel = scrolled[13]
            assert isinstance(wheel, PointerInput) and wheel.action == "wheel"
            assert wheel.dy == pytest.approx(60 * 1280 / box["width"], rel=0.05)
            assert len(scrolled) == 14, "a drag clicks nothing"

            # the task's page asks something: the person answers in a dialog of their own
            asked: list[str] = []

            async def reply(dialog: Dialog) -> None:
                asked.append(dialog.message)
                await dialog.accept()

            page.once("dialog", reply)
            live.show_dialog(LiveDialog("confirm", "Pay 100 rupees?"))
            async with asyncio.timeout(10):
                await live.until(lambda: bool(live.answers))
            assert live.answers == [(True, "")]
            assert asked == ["The task's page says: Pay 100 rupees?"]

            await stop.click()
            await expect(page.get_by_role("button", name="Take over", exact=True)).to_be_visible()
            await expect(page.get_by_role("status").last).to_contain_text("You stopped taking over")
        finally:
            await context.close()
