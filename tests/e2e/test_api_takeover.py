"""Take over end to end: a real ``gofer serve`` whose task, in its own Chromium, meets
a shop's login wall (a real server with real sessions) and stops as needs_human; a
person in a second headless Chromium signs in to the task page, takes over the
task's browser, clicks the username field where the streamed picture shows it,
types their name and password through the live view and submits; "I've done it"
hands the task back and it finishes. The shop's own record judges it: one sign-in,
by that person, and the order and its tracking asked for in their session after it.

The password is a canary: it reaches the shop and no log line of the server, no page
the person was sent. Another owner gets 404 from the live view's page and socket.

What the person did counts. At a desktop: "I've done it" pressed before signing in
says at once that the task is still blocked and why, and the live view stays open;
the person then signs in and also does the flow's next two steps themselves, and the
task ends done with the package tracked once (the shop's record). The task's page
names every step with one numbering, from 1, uses no API names, reads the pause as a
pause and lists what the person did (the password as a name only). On a phone
(390x844, touch): the picture fills the width, zooms (two fingers, or its buttons to
2x) and pans with a finger; the page's origin shows above it, "I've done it" is on
screen without scrolling, and a sign-in by taps at 2x works, typed in the text box
(shown for the username, hidden for the password). axe-core checks each page.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, expect
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from . import test_api_pages, test_api_serve
from .sites.account import (
    ORDER_LINK_BOX,
    PASSWORD_BOX,
    SIGN_IN_BOX,
    TRACK_BOX,
    USERNAME_BOX,
    USERNAME_COLOUR,
    AccountSite,
    serve_account,
)
from .takeover import (
    PIXEL,
    at_paused_task,
    click_in_picture,
    middle,
    open_live_view,
    start_live_view,
)
from .test_api_pages import WAIT_MS, api_cancel, api_start, axe_check, sign_in
from .test_api_serve import Serving

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

serving = test_api_serve.serving
person = test_api_pages.person

USER = "asha.r"
PASSWORD = "Wq4-canary-live-pw-7310"
"""The person's shop password, typed through the live view only."""


async def bob_is_refused(serving: Serving, chromium: Browser, task_id: str) -> None:
    """Another owner, signed in, gets 404 from the live view's page and socket."""
    context = await chromium.new_context()
    try:
        page = await context.new_page()
        await sign_in(page, serving, serving.bob, "/tasks")
        answer = await page.goto(f"{serving.url}/tasks/{task_id}/live")
        assert answer is not None and answer.status == 404
        assert "No such task" in await page.locator("main").inner_text()
    finally:
        await context.close()
    socket = serving.url.replace("http://", "ws://") + f"/tasks/{task_id}/live/socket"
    with pytest.raises(InvalidStatus) as refused:
        async with connect(socket, additional_headers={"Authorization": f"Bearer {serving.bob}"}):
            pass
    assert refused.value.response.status_code == 404


async def test_a_person_gets_past_a_login_wall_in_the_live_view_and_hands_the_task_back(
    serving: Serving,
    person: BrowserContext,
    chromium: Browser,
    served: Callable[[str | bytes], None],
    canary: Callable[[str], str],
) -> None:
    canary(PASSWORD)
    async with serve_account({USER: PASSWORD}) as shop:
        flow: dict[str, Any] = {
            "steps": [
                {"browse": shop.url("/orders")},
                {"click": "View order 1042"},
                {"click": "Track package"},
                {"verify": {"shows": "Out for delivery"}},
            ]
        }
        task_id = await api_start(serving, {"flow": flow, "title": "Track my kettle"})
        page, bodies = await at_paused_task(person, serving, task_id, served)
        assert "a login wall" in await page.locator("#needs").inner_text()
        assert shop.seen("/orders") == [None] and shop.sign_ins == []

        await bob_is_refused(serving, chromium, task_id)

        # Take over: the task's own page, live.
        await open_live_view(page, serving.url, task_id)
        await axe_check(page, "the live view's page")
        await start_live_view(page)
        colour = await page.evaluate(PIXEL, list(middle(USERNAME_BOX)))
        assert all(abs(c - w) < 48 for c, w in zip(colour, USERNAME_COLOUR, strict=True)), (
            f"the picture shows the wall's username field where it is: {colour}"
        )
        await axe_check(page, "the live view, taken over")

        await click_in_picture(page, middle(USERNAME_BOX))
        await page.keyboard.type(USER)
        await click_in_picture(page, middle(PASSWORD_BOX))
        await page.keyboard.type(PASSWORD)
        await page.keyboard.press("Enter")
        async with asyncio.timeout(30):
            await shop.signed_in.wait()
        assert shop.sign_ins == [{"username": USER, "ok": True}]
        assert events_after_sign_in(shop) == []

        # "I've done it": the task runs the step that met the wall again, and the rest.
        await page.get_by_role("button", name="I've done it").click()
        await page.wait_for_url(f"{serving.url}/tasks/{task_id}")
        await expect(page.locator("#status-line")).to_have_text("Done", timeout=WAIT_MS)
        await api_cancel(serving, task_id)

        assert shop.sign_ins == [{"username": USER, "ok": True}]
        assert shop.seen("/orders/1042") == [USER]
        assert shop.seen("/orders/1042/track") == [USER]
        assert shop.seen("/orders")[0] is None and shop.seen("/orders")[-1] == USER
    assert bodies and all(PASSWORD not in text for text in bodies)
    assert not [line for line in serving.logs if PASSWORD in line]


def events_after_sign_in(shop: Any) -> list[str]:
    """What the task asked the shop for besides its orders list (nothing while the
    person has its browser)."""
    return [path for path, _user in shop.served if path != "/orders"]


# ------------------------------------------------------------------ what the person did counts

PERSON = "meera.k"
PERSON_PASSWORD = "Hb7-canary-handback-pw-2291"
PICTURE = "The task's browser page as it is now"
API_WORDS = re.compile(r"\b[a-z]+_[a-z]+(?:_[a-z]+)*\b|\b[A-Z]{3,}_[A-Z_]+\b")
"""What an API name looks like (continue_task, needs_human, STILL_BLOCKED)."""


def orders_flow(shop: AccountSite) -> dict[str, Any]:
    return {
        "steps": [
            {"browse": shop.url("/orders")},
            {"click": "View order 1042"},
            {"click": "Track package"},
            {"verify": {"shows": "Out for delivery"}},
        ]
    }


async def a_frame_of(page: Page, shop: AccountSite, path: str) -> None:
    """Wait until the shop serves ``path`` to the signed-in person and the picture has
    painted after it."""
    async with asyncio.timeout(30):
        await shop.until_served(path, PERSON)
    await page.wait_for_timeout(400)  # the screencast's next frame


async def test_a_person_who_also_does_the_next_step_leaves_a_task_done_with_it_pressed_once(
    serving: Serving,
    person: BrowserContext,
    served: Callable[[str | bytes], None],
    canary: Callable[[str], str],
) -> None:
    canary(PERSON_PASSWORD)
    async with serve_account({PERSON: PERSON_PASSWORD}) as shop:
        task_id = await api_start(serving, {"flow": orders_flow(shop), "title": "Track it"})
        page, bodies = await at_paused_task(person, serving, task_id, served)

        # One numbering, from 1, and no API names, on the page of a paused task.
        body = await page.locator("main").inner_text()
        assert "a login wall is in the way at step 2" in body
        assert "Current step (2 of 4)" in body
        assert re.search(r"Step 1: load .*/orders", body)
        assert not re.search(r"[Ss]tep 0\b", body), body
        assert not API_WORDS.findall(body), API_WORDS.findall(body)
        assert "Paused" in await page.locator(".log").inner_text()
        assert "hidden for privacy" in await page.locator(".shot").inner_text()
        # Take over comes before "I've done it", on screen and in Tab order.
        take_over = page.get_by_role("link", name="Take over its browser")
        done = page.get_by_role("button", name="I've done it")
        over_box, done_box = await take_over.bounding_box(), await done.bounding_box()
        assert over_box and done_box and over_box["y"] < done_box["y"]
        order = await page.evaluate(
            """() => Array.from(document.querySelectorAll('a, button'))
                 .map(e => e.textContent.trim())"""
        )
        assert order.index("Take over its browser") < order.index("I've done it")
        assert "Mark done" in order

        await take_over.click()
        await page.wait_for_url(f"{serving.url}/tasks/{task_id}/live")
        await start_live_view(page)
        await expect(page.locator("[data-live-origin]")).to_have_text(shop.origin)

        # "I've done it" with the wall still there: still blocked, at once, in words.
        started = time.monotonic()
        await page.get_by_role("button", name="I've done it").click()
        said = page.locator("[data-hand-back-said]")
        await expect(said).to_have_text(
            "It is still blocked: the sign-in form is still showing.", timeout=3_000
        )
        assert time.monotonic() - started < 1.0
        assert page.url == f"{serving.url}/tasks/{task_id}/live"
        await expect(page.get_by_role("img", name=PICTURE)).to_be_visible()
        await axe_check(page, "the live view saying it is still blocked")

        # The person signs in, then does the next two steps of the flow themselves.
        await click_in_picture(page, middle(USERNAME_BOX))
        await page.keyboard.type(PERSON)
        await click_in_picture(page, middle(PASSWORD_BOX))
        await page.keyboard.type(PERSON_PASSWORD)
        await page.keyboard.press("Enter")
        async with asyncio.timeout(30):
            await shop.signed_in.wait()
        await a_frame_of(page, shop, "/orders")
        await click_in_picture(page, middle(ORDER_LINK_BOX))
        await a_frame_of(page, shop, "/orders/1042")
        await click_in_picture(page, middle(TRACK_BOX))
        await a_frame_of(page, shop, "/orders/1042/track")

        await page.get_by_role("button", name="I've done it").click()
        await page.wait_for_url(f"{serving.url}/tasks/{task_id}")
        await expect(page.locator("#status-line")).to_have_text("Done", timeout=WAIT_MS)
        body = await page.locator("main").inner_text()
        steps = await page.locator(".steps").inner_text()
        assert re.search(r"Step 2: press “View order 1042” — done by you", steps), steps
        assert re.search(r"Step 3: press “Track package” — done by you", steps), steps
        assert re.search(r"Step 4: check that .* — done", steps), steps
        did = await page.locator(".did").inner_text()
        assert "Before step 2: type your password" in did, did
        assert "Step 2: press “View order 1042”" in did, "one number for one step, everywhere"
        assert "Step 3: press “Track package”" in did, did
        assert not API_WORDS.findall(body), API_WORDS.findall(body)
        assert "Mark done" not in await page.locator(".manage").inner_text()
        await axe_check(page, "a task its person finished")
        await api_cancel(serving, task_id)

        assert shop.sign_ins == [{"username": PERSON, "ok": True}]
        assert shop.seen("/orders/1042/track") == [PERSON], shop.served
        assert shop.seen("/orders/1042") == [PERSON]
    assert bodies and all(PERSON_PASSWORD not in text for text in bodies)
    assert not [line for line in serving.logs if PERSON_PASSWORD in line]


# ------------------------------------------------------------------ on a phone


@pytest_asyncio.fixture(loop_scope="session")
async def phone(chromium: Browser) -> AsyncIterator[BrowserContext]:
    context = await chromium.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    try:
        yield context
    finally:
        await context.close()


async def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger dragged across the screen (the DevTools protocol's touch events)."""
    cdp = await page.context.new_cdp_session(page)
    try:
        await cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]},
        )
        for i in range(1, 9):
            x = start[0] + (end[0] - start[0]) * i / 8
            y = start[1] + (end[1] - start[1]) * i / 8
            await cdp.send(
                "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
            )
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        await cdp.detach()


async def pinch(page: Page, at: tuple[float, float], start: float, end: float) -> None:
    """Two fingers on either side of ``at``, spread from ``start`` to ``end`` apart."""
    cdp = await page.context.new_cdp_session(page)

    def fingers(apart: float) -> list[dict[str, float]]:
        return [
            {"x": at[0] - apart / 2, "y": at[1], "id": 1},
            {"x": at[0] + apart / 2, "y": at[1], "id": 2},
        ]

    try:
        await cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": fingers(start)}
        )
        for i in range(1, 9):
            await cdp.send(
                "Input.dispatchTouchEvent",
                {"type": "touchMove", "touchPoints": fingers(start + (end - start) * i / 8)},
            )
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        await cdp.detach()


async def tap_in_picture(page: Page, box: tuple[int, int, int, int]) -> None:
    """Tap the picture where it shows the middle of ``box`` of the task's page."""
    fx, fy = middle(box)
    shown = await page.get_by_role("img", name=PICTURE).bounding_box()
    assert shown is not None
    x, y = shown["x"] + fx * shown["width"], shown["y"] + fy * shown["height"]
    assert 0 <= x <= 390 and 0 <= y <= 844, f"the point to tap is off the screen: {x}, {y}"
    await page.touchscreen.tap(x, y)


async def test_the_live_view_on_a_phone_zooms_and_a_sign_in_by_taps_works(
    serving: Serving,
    phone: BrowserContext,
) -> None:
    async with serve_account({PERSON: PERSON_PASSWORD}) as shop:
        task_id = await api_start(serving, {"flow": orders_flow(shop), "title": "On the go"})
        page, _bodies = await at_paused_task(phone, serving, task_id)
        await axe_check(page, "a task needing a person, at phone width")
        await open_live_view(page, serving.url, task_id)
        await start_live_view(page)

        width = await page.evaluate("document.documentElement.clientWidth")
        picture = page.get_by_role("img", name=PICTURE)
        shown = await picture.bounding_box()
        assert shown is not None and shown["width"] >= width, (shown, width)
        assert await page.evaluate("document.documentElement.scrollWidth") <= 390
        await expect(page.locator("[data-live-origin]")).to_have_text(shop.origin)
        help_text = await page.locator(".gofer-live-help").inner_text()
        assert "tap" in help_text and "Shift+Escape" not in help_text, help_text
        done = await page.get_by_role("button", name="I've done it").bounding_box()
        assert done is not None and done["y"] + done["height"] <= 844, done
        await axe_check(page, "the live view at phone width")

        # Two fingers spread zoom in; the buttons step back to 1x and on to 2x; a finger
        # then pans to the form's side.
        screen = page.locator("[data-live-screen]")
        await screen.evaluate("el => el.scrollIntoView({block: 'start'})")
        box = await screen.bounding_box()
        assert box is not None
        middle_y = box["y"] + 100
        await pinch(page, (195, middle_y), 40, 140)
        level = await page.locator("[data-live-zoom-level]").inner_text()
        assert int(level.rstrip("%")) > 150, level
        for _ in range(3):
            await page.get_by_role("button", name="Zoom out").tap()
        await expect(page.locator("[data-live-zoom-level]")).to_have_text("100%")
        await page.get_by_role("button", name="Zoom in").tap()
        await expect(page.locator("[data-live-zoom-level]")).to_have_text("200%")
        zoomed = await picture.bounding_box()
        assert zoomed is not None and zoomed["width"] >= 2 * width - 2
        await screen.evaluate("el => el.scrollIntoView({block: 'start'})")
        box = await screen.bounding_box()
        assert box is not None
        assert await screen.evaluate("el => el.scrollLeft") > 0
        await drag(page, (60, box["y"] + 60), (360, box["y"] + 60))
        assert await screen.evaluate("el => el.scrollLeft") == 0

        # The sign-in, by taps at 2x: the username shows as typed, the password does not.
        typing = page.locator("[data-live-type] input")
        await tap_in_picture(page, USERNAME_BOX)
        await expect(page.locator("[data-live-type] label")).to_have_text("Type into “Username”")
        assert await typing.get_attribute("type") == "text"
        await typing.fill(PERSON)
        await page.get_by_role("button", name="Type it").tap()
        await tap_in_picture(page, PASSWORD_BOX)
        await expect(page.locator("[data-live-type] label")).to_contain_text("Password")
        assert await typing.get_attribute("type") == "password"
        await typing.fill(PERSON_PASSWORD)
        await page.get_by_role("button", name="Type it").tap()
        await tap_in_picture(page, SIGN_IN_BOX)
        async with asyncio.timeout(30):
            await shop.signed_in.wait()
        assert shop.sign_ins == [{"username": PERSON, "ok": True}]
        await a_frame_of(page, shop, "/orders")

        await page.get_by_role("button", name="I've done it").tap()
        await page.wait_for_url(f"{serving.url}/tasks/{task_id}")
        await expect(page.locator("#status-line")).to_have_text("Done", timeout=WAIT_MS)
        await axe_check(page, "a finished task at phone width")
        await api_cancel(serving, task_id)
        assert shop.seen("/orders/1042/track") == [PERSON]
