"""Take over end to end: a real ``gofer serve`` whose task, in its own Chromium, meets
a shop's login wall (a real server with real sessions) and stops as needs_human; a
person in a second headless Chromium signs in to the task page, takes over the
task's browser, clicks the username field where the streamed picture shows it,
types their name and password through the live view and submits; "I've done it"
hands the task back and it finishes. The shop's own record judges it: one sign-in,
by that person, and the order and its tracking asked for in their session after it.

The password is a canary: it reaches the shop and no log line of the server, no page
the person was sent. Another owner gets 404 from the live view's page and socket.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Page, expect
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from . import test_api_pages, test_api_serve
from .sites.account import PASSWORD_BOX, USERNAME_BOX, USERNAME_COLOUR, serve_account
from .test_api_pages import WAIT_MS, api_cancel, api_start, axe_check, seen_by, sign_in
from .test_api_serve import Serving

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

serving = test_api_serve.serving
person = test_api_pages.person

USER = "asha.r"
PASSWORD = "Wq4-canary-live-pw-7310"
"""The person's shop password, typed through the live view only."""
VIEWPORT = (1280, 800)
"""The task's browser's viewport (gofer's default)."""

PIXEL = """([fx, fy]) => {
  const img = document.querySelector('[data-live-image]');
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  return Array.from(g.getImageData(Math.round(fx * img.naturalWidth),
                                   Math.round(fy * img.naturalHeight), 1, 1).data.slice(0, 3));
}"""


def middle(box: tuple[int, int, int, int]) -> tuple[float, float]:
    """The middle of a box on the task's page, as fractions of its viewport."""
    x, y, width, height = box
    return (x + width / 2) / VIEWPORT[0], (y + height / 2) / VIEWPORT[1]


async def click_in_picture(page: Page, where: tuple[float, float]) -> None:
    """Click the live picture at a point of the task's page, as the person sees it."""
    shown = await page.get_by_role(
        "img", name="The task's browser page as it is now"
    ).bounding_box()
    assert shown is not None and shown["width"] > 100
    await page.mouse.click(
        shown["x"] + where[0] * shown["width"], shown["y"] + where[1] * shown["height"]
    )


async def a_frame_is_shown(page: Page) -> None:
    await page.wait_for_function(
        "() => { const i = document.querySelector('[data-live-image]');"
        " return !!i && i.complete && i.naturalWidth > 0; }",
        timeout=30_000,
    )


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
        page = await person.new_page()
        bodies: list[str] = []
        seen_by(page, served, bodies)
        await sign_in(page, serving, serving.alice, f"/tasks/{task_id}")
        await expect(page.locator("#status-line")).to_have_text(
            "Needs you: a step only a person can do", timeout=WAIT_MS
        )
        assert "a login wall" in await page.locator("#needs").inner_text()
        assert shop.seen("/orders") == [None] and shop.sign_ins == []

        await bob_is_refused(serving, chromium, task_id)

        # Take over: the task's own page, live.
        await page.get_by_role("link", name="Take over its browser").click()
        await page.wait_for_url(f"{serving.url}/tasks/{task_id}/live")
        await axe_check(page, "the live view's page")
        await page.get_by_role("button", name="Take over", exact=True).click()
        await a_frame_is_shown(page)
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
