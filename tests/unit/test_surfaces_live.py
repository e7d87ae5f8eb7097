"""The live view's pure parts: a person's input as the DevTools protocol's events, the
options' bounds, and the fake live view the package ships."""

from __future__ import annotations

import asyncio

import pytest

from gofer.errors import SurfaceError
from gofer.surfaces import (
    Box,
    Element,
    KeyInput,
    LiveOptions,
    LiveSurface,
    LiveView,
    Modifiers,
    PointerInput,
    Screen,
)
from gofer.surfaces.live import MAX_TEXT_CHARS
from gofer.surfaces.screencast import key_event, mouse_event
from gofer.surfaces.testing import FakeSurface

BUTTON = Element(ref="b", role="button", name="Go", box=Box(0, 0, 100, 40))
FIELD = Element(ref="f", role="textbox", name="Code", editable=True, box=Box(0, 100, 100, 40))


def test_a_click_is_a_press_and_a_release_with_the_left_button() -> None:
    down = mouse_event(PointerInput("down", 10.5, 20, clicks=2))
    assert down == {
        "type": "mousePressed",
        "x": 10.5,
        "y": 20,
        "button": "left",
        "buttons": 1,
        "clickCount": 2,
        "modifiers": 0,
    }
    up = mouse_event(PointerInput("up", 10.5, 20, modifiers=Modifiers(shift=True)))
    assert up["type"] == "mouseReleased" and up["buttons"] == 0 and up["modifiers"] == 8
    move = mouse_event(PointerInput("move", 1, 2, button="none"))
    assert move["type"] == "mouseMoved" and move["buttons"] == 0 and "clickCount" not in move
    wheel = mouse_event(PointerInput("wheel", 1, 2, dy=120))
    assert wheel["type"] == "mouseWheel" and wheel["deltaY"] == 120 and "button" not in wheel
    assert mouse_event(PointerInput("down", 0, 0, clicks=9))["clickCount"] == 3


def test_a_printable_key_types_its_character_and_a_named_key_does_not() -> None:
    a = key_event(KeyInput("down", "a", "KeyA"))
    assert a == {
        "type": "keyDown",
        "key": "a",
        "code": "KeyA",
        "windowsVirtualKeyCode": 65,
        "modifiers": 0,
        "text": "a",
        "unmodifiedText": "a",
    }
    assert key_event(KeyInput("up", "a"))["type"] == "keyUp"
    enter = key_event(KeyInput("down", "Enter"))
    assert enter["text"] == "\r" and enter["windowsVirtualKeyCode"] == 13
    assert enter["code"] == "Enter"
    tab = key_event(KeyInput("down", "Tab"))
    assert tab["type"] == "rawKeyDown" and "text" not in tab
    select_all = key_event(KeyInput("down", "a", "KeyA", Modifiers(ctrl=True)))
    assert select_all["type"] == "rawKeyDown" and select_all["modifiers"] == 2
    assert key_event(KeyInput("down", "é"))["text"] == "é"


def test_options_are_bounded() -> None:
    with pytest.raises(ValueError):
        LiveOptions(quality=0)
    with pytest.raises(ValueError):
        LiveOptions(max_width=4)
    with pytest.raises(ValueError):
        LiveOptions(max_fps=0)
    assert LiveOptions().max_fps == 12


async def test_the_fake_live_view_clicks_types_and_paints() -> None:
    after = Screen("https://a.example.com/next", "Next", (), ())
    surface = FakeSurface(
        Screen("https://a.example.com/", "", (), (BUTTON, FIELD)), after_click={"b": after}
    )
    assert isinstance(surface, LiveSurface)
    view = await surface.live()
    assert isinstance(view, LiveView)
    frames = view.frames()
    assert (await anext(frames)).data == b"fake frame 1"
    await view.pointer(PointerInput("down", FIELD.box.cx, FIELD.box.cy))
    await view.pointer(PointerInput("up", FIELD.box.cx, FIELD.box.cy))
    await view.text("12")
    for key in ("3", "4", "Backspace"):
        await view.key(KeyInput("down", key))
        await view.key(KeyInput("up", key))
    assert await surface.read_value("f") == "123"
    assert (await anext(frames)).data == b"fake frame 2", "changes in a row paint once"
    # a press on one element released on another clicks nothing
    await view.pointer(PointerInput("down", FIELD.box.cx, FIELD.box.cy))
    await view.pointer(PointerInput("up", BUTTON.box.cx, BUTTON.box.cy))
    assert surface.url == "https://a.example.com/"
    await view.pointer(PointerInput("down", BUTTON.box.cx, BUTTON.box.cy))
    await view.pointer(PointerInput("up", BUTTON.box.cx, BUTTON.box.cy))
    assert surface.url == "https://a.example.com/next"
    with pytest.raises(SurfaceError) as err:
        await view.text("x" * (MAX_TEXT_CHARS + 1))
    assert err.value.code == "LIVE_TEXT_TOO_LONG" and "xxx" not in err.value.message
    await surface.close()
    async with asyncio.timeout(5):
        rest = [f async for f in frames]
    assert len(rest) <= 1 and view.closed
    with pytest.raises(SurfaceError) as err:
        await view.key(KeyInput("down", "a"))
    assert err.value.code == "LIVE_CLOSED"
