"""A person's take-over kept in a saved flow, end to end: a real ``gofer serve``'s task
meets a shop's login wall (a real server with real sessions); a person in headless
Chromium takes over its browser through the task's pages, signs in (the username, the
password, the "Sign in" button: steps the flow does not have) and also opens the order
(the flow's next step), then hands it back and the task ends done. The task page says
what they did and that saving adds it, naming what it will ask for; the person saves
it from that page. The saved flow's next run, for another shop user with their own
facts, signs in and tracks the package with no person: the shop's own records judge
it (that user's sign-in, their order and tracking asked for in their session). The
typed password is a canary: in no page and no saved flow.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.async_api import BrowserContext, expect

from . import test_api_pages, test_api_serve
from .sites.account import (
    ORDER_LINK_BOX,
    PASSWORD_BOX,
    SIGN_IN_BOX,
    USERNAME_BOX,
    serve_account,
)
from .takeover import at_paused_task, click_in_picture, middle, open_live_view, start_live_view
from .test_api_pages import WAIT_MS, api_cancel, api_start
from .test_api_serve import Serving
from .test_api_takeover import a_frame_of, orders_flow

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

serving = test_api_serve.serving
person = test_api_pages.person

PERSON = "meera.k"
PASSWORD = "Hb7-canary-kept-pw-5318"
LATER = "tomas.v"
LATER_PASSWORD = "Zr2-canary-kept-pw-8846"


async def test_a_take_over_saved_as_a_flow_is_done_by_the_next_run_with_no_person(
    serving: Serving,
    person: BrowserContext,
    served: Callable[[str | bytes], None],
    canary: Callable[[str], str],
) -> None:
    canary(PASSWORD)
    canary(LATER_PASSWORD)
    async with serve_account({PERSON: PASSWORD, LATER: LATER_PASSWORD}) as shop:
        task_id = await api_start(
            serving,
            {
                "flow": orders_flow(shop),
                "title": "Track my kettle",
                "facts": {"username": PERSON, "password": PASSWORD},
                "secret_facts": ["password"],
            },
        )
        page, bodies = await at_paused_task(person, serving, task_id, served)
        await open_live_view(page, serving.url, task_id)
        await start_live_view(page)

        await click_in_picture(page, middle(USERNAME_BOX))
        await page.keyboard.type(PERSON)
        await click_in_picture(page, middle(PASSWORD_BOX))
        await page.keyboard.type(PASSWORD)
        await click_in_picture(page, middle(SIGN_IN_BOX))
        async with asyncio.timeout(30):
            await shop.signed_in.wait()
        await a_frame_of(page, shop, "/orders")
        await click_in_picture(page, middle(ORDER_LINK_BOX))
        await a_frame_of(page, shop, "/orders/1042")
        await page.get_by_role("button", name="I've done it").click()
        await page.wait_for_url(f"{serving.url}/tasks/{task_id}")
        await expect(page.locator("#status-line")).to_have_text("Done", timeout=WAIT_MS)
        assert shop.sign_ins == [{"username": PERSON, "ok": True}]
        assert shop.seen("/orders/1042/track") == [PERSON]

        # The page offers to keep what the person did, and names what it will ask for.
        offer = await page.locator(".did-save").inner_text()
        assert "adds these steps" in offer and "${username}" in offer, offer
        assert "${password}" in offer, offer
        save = page.locator("#save-flow")
        assert "what you did in its browser" in await save.inner_text()
        await page.get_by_label("Name").fill("track kettle")
        await save.get_by_role("button", name="Save as a flow").click()
        await expect(page.locator("#save-flow .saved")).to_have_text("Saved as track kettle v1.")
        await api_cancel(serving, task_id)

        headers = {"Authorization": f"Bearer {serving.alice}"}
        async with httpx.AsyncClient(base_url=serving.url, headers=headers, timeout=90) as http:
            shown = await http.get("/v1/flows/track kettle")
            assert shown.status_code == 200, shown.text
            saved: dict[str, Any] = shown.json()
            assert PASSWORD not in json.dumps(saved) and PERSON not in json.dumps(saved)
            assert saved["params"] == ["username", "password"], saved
            assert saved["secret_params"] == ["password"]
            # The sign-in the person did before the step that met the wall, and their
            # press of "View order 1042" in place of the flow's own step.
            assert saved["flow"]["steps"] == [
                {"browse": shop.url("/orders")},
                {"enter": "${username}", "into": "Username"},
                {"enter": "${password}", "into": "Password"},
                {"click": "Sign in"},
                {"click": "View order 1042"},
                {"click": "Track package"},
                {"verify": {"shows": "Out for delivery"}},
            ], saved["flow"]

            # The next run: another user's facts, no person.
            started = await http.post(
                "/v1/calls/start_task",
                json={
                    "saved_flow": {"name": "track kettle"},
                    "facts": {"username": LATER, "password": LATER_PASSWORD},
                },
            )
            assert started.status_code == 200, started.text
            ended = await http.post(
                "/v1/calls/await_task", json={"id": started.json()["id"], "timeout_ms": 60_000}
            )
            view = ended.json()
            assert view["status"]["state"] == "done", view
        assert shop.sign_ins == [
            {"username": PERSON, "ok": True},
            {"username": LATER, "ok": True},
        ]
        assert shop.seen("/orders/1042") == [PERSON, LATER]
        assert shop.seen("/orders/1042/track") == [PERSON, LATER]
    assert bodies and all(PASSWORD not in text for text in bodies)
    assert not [line for line in serving.logs if PASSWORD in line or LATER_PASSWORD in line]
