"""The person's task pages end to end: a real ``gofer serve`` booking on the demo
airline, and a person in headless Chromium (Playwright) who signs in, answers the
question in the page's form, approves "Confirm booking" with its button, and reads the
payment checkpoint with its screenshot — while the page follows the task live, with
no reload. The demo site's own records judge what was done: one booking confirmed,
the mobile number as typed, no payment.

A secret typed into the question's form (an account password at the demo's sign-in
wall) must be in no page, no event of the stream and no line of the server's log;
another owner's task page is the same 404 as a missing one; axe-core, injected into
the same Chromium, finds no serious or critical violation on any page in any state.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, expect
from playwright.async_api import Error as PlaywrightError

from gofer.api.limits import MAX_STREAMS_PER_OWNER
from gofer.cli import DEMO_FACTS, demo_flow
from gofer.demo import DemoServer

from . import test_api_serve
from .conftest import Events
from .test_api_serve import FLIGHT, MOBILE, PIN, Serving, start_body

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

AXE = Path(__file__).parent / "a11y" / "node_modules" / "axe-core" / "axe.min.js"
PASSWORD = "Zq8-canary-page-pw-5521"
"""What the person types into the question's password input: never to be seen again."""

WAIT_MS = 90_000
"""How long the person's page may wait for the task to reach the next stop."""


serving = test_api_serve.serving
"""This module's own ``gofer serve`` (with alice's and bob's tokens), as the API's e2e
tests start it."""

# ------------------------------------------------------------------ the person's browser


@pytest_asyncio.fixture(loop_scope="session")
async def person(chromium: Browser) -> AsyncIterator[BrowserContext]:
    context = await chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        yield context
    finally:
        await context.close()


async def axe_check(page: Page, where: str) -> None:
    """axe-core's rules on the page as it is: no serious or critical violation."""
    assert AXE.exists(), "axe-core is not installed: run ./dev setup"
    # Evaluated over the DevTools protocol, so the page's own CSP stays as it is.
    await page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    result = await page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, f"accessibility on {where}: {bad}"


async def sign_in(page: Page, serving: Serving, token: str, path: str) -> None:
    """Open ``path`` as someone signed out, and sign in on the form it sends them to."""
    await page.goto(serving.url + path)
    await expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    await axe_check(page, "the sign-in page")
    await page.get_by_label("Access token").fill(token)
    await page.get_by_role("button", name="Sign in").click()
    await page.wait_for_url(serving.url + path)


def seen_by(page: Page, served: Callable[[str | bytes], None], bodies: list[str]) -> None:
    """Every text the server sends ``page`` joins the canary check (and ``bodies``)."""

    async def keep(response: Any) -> None:
        kind = response.headers.get("content-type", "")
        if kind.startswith(("text/html", "text/javascript", "application/json", "text/css")):
            try:
                text = await response.text()
            except PlaywrightError:  # a redirect's body, which the browser does not keep
                return
            bodies.append(text)
            served(text)

    page.on("response", keep)


async def api_start(serving: Serving, body: dict[str, Any]) -> str:
    headers = {"Authorization": f"Bearer {serving.alice}"}
    async with httpx.AsyncClient(base_url=serving.url, headers=headers, timeout=60) as http:
        response = await http.post("/v1/tasks", json=body)
        assert response.status_code == 201, response.text
        return str(response.json()["id"])


async def api_cancel(serving: Serving, task_id: str) -> None:
    headers = {"Authorization": f"Bearer {serving.alice}"}
    async with httpx.AsyncClient(base_url=serving.url, headers=headers, timeout=60) as http:
        await http.post("/v1/calls/cancel_task", json={"id": task_id})


async def status_line(page: Page) -> str:
    return (await page.locator("#status-line").inner_text()).strip()


# ------------------------------------------------------------------ the journey


async def test_a_person_answers_approves_and_reaches_the_checkpoint_in_the_page(
    serving: Serving,
    demo: DemoServer,
    events: Events,
    person: BrowserContext,
    served: Callable[[str | bytes], None],
    canary: Callable[[str], str],
) -> None:
    canary(PIN)
    body = start_body(demo) | {"title": "Book the cheapest Delhi to Srinagar flight"}
    task_id = await api_start(serving, body)
    page = await person.new_page()
    bodies: list[str] = []
    seen_by(page, served, bodies)
    await sign_in(page, serving, serving.alice, f"/tasks/{task_id}")

    # The question, as a form.
    await expect(page.locator("#status-line")).to_have_text("Needs you: 1 detail to give")
    await axe_check(page, "a task asking for a value")
    # By keyboard alone: the field is the first control after the page's own links and
    # the sign-out, and Enter sends the form.
    field = page.get_by_label("mobile number", exact=True)
    for _ in range(8):
        await page.keyboard.press("Tab")
        if await field.evaluate("el => el === document.activeElement"):
            break
    assert await field.evaluate("el => el === document.activeElement"), (
        "the question's field is not reached by Tab"
    )
    await page.keyboard.type(MOBILE)
    async with page.expect_navigation():
        await page.keyboard.press("Enter")
    assert await status_line(page) == "Running"
    loads: list[str] = []
    page.on("load", lambda _page: loads.append("load"))

    # The approval arrives through the stream: no reload.
    approve = page.get_by_role("button", name="Approve: press “Confirm booking”")
    await expect(approve).to_be_visible(timeout=WAIT_MS)
    assert loads == []
    await expect(page.locator("#status-line")).to_have_text("Needs you: approve “Confirm booking”?")
    where = await page.locator("#needs").inner_text()
    assert "(confirming the booking)" in where and "/review" in where
    await expect(page.locator("#take-over")).to_be_visible()
    await expect(page.get_by_role("img", name=re.compile("Screenshot"))).to_be_visible()
    await axe_check(page, "a task waiting for an approval")
    assert events.of("booking_confirmed") == []
    await approve.click()
    await page.wait_for_load_state()

    # The payment checkpoint, with its screenshot; nothing here pays.
    await expect(page.locator("#status-line")).to_have_text(
        "Needs you: over to you", timeout=WAIT_MS
    )
    needs = await page.locator("#needs").inner_text()
    assert "payment is always left to you" in needs and "Pay now" in needs
    shot = page.get_by_role("img", name=re.compile("Screenshot.*Pay now"))
    await expect(shot).to_be_visible()
    assert await shot.evaluate("img => img.complete && img.naturalWidth > 100")
    buttons = [b.strip() for b in await page.get_by_role("button").all_inner_texts()]
    assert not [b for b in buttons if re.search(r"\bpay", b, re.IGNORECASE)], buttons
    assert "Approve" not in " ".join(buttons)
    await axe_check(page, "a task at its payment checkpoint")
    report = await page.locator(".report").inner_text()
    assert "Mobile number" in report or "mobile number" in report

    # The list: the task is one that needs its person.
    await page.goto(serving.url + "/tasks?show=needs-you")
    row = page.locator(".task", has=page.get_by_role("link", name=body["title"]))
    await expect(row).to_contain_text("Needs you: over to you")
    await axe_check(page, "the list of tasks")
    await page.set_viewport_size({"width": 390, "height": 844})
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await axe_check(page, "the list of tasks at phone width")
    await page.goto(f"{serving.url}/tasks/{task_id}")
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await axe_check(page, "a task's page at phone width")
    await api_cancel(serving, task_id)

    confirmed = events.of("booking_confirmed")
    assert len(confirmed) == 1 and confirmed[0]["flight"] == FLIGHT
    assert [p["mobile"] for p in events.of("passengers")] == [MOBILE, MOBILE]
    assert events.of("payment") == []
    assert bodies and all(PIN not in text for text in bodies)


# ------------------------------------------------------------------ a secret typed in the page


def sign_in_flow(demo: DemoServer) -> dict[str, Any]:
    """The booking on the demo's sign-in variant: the flow signs in itself with a
    password the task asks its person for."""
    steps = demo_flow(demo.url + "?variant=login")["steps"]
    upto = next(i for i, s in enumerate(steps) if s.get("within") == "Economy")
    return {
        "vars": {"cheapest": ""},
        "steps": [
            *steps[: upto + 1],
            {"enter": "${email}", "into": "Email"},
            {"enter": "${account password}", "into": "Password"},
            {"click": "Sign in"},
            {"enter": "${first name}", "into": "First name"},
        ],
    }


async def test_a_secret_typed_into_the_form_is_in_no_page_event_or_log(
    serving: Serving,
    demo: DemoServer,
    events: Events,
    person: BrowserContext,
    served: Callable[[str | bytes], None],
    canary: Callable[[str], str],
) -> None:
    canary(PASSWORD)
    facts = {k: v for k, v in DEMO_FACTS.items() if k in ("email", "first name")}
    task_id = await api_start(
        serving,
        {
            "flow": sign_in_flow(demo),
            "facts": facts,
            "title": "Sign in and start a booking",
            "constraints": {"origins": [demo.url.rstrip("/")]},
        },
    )
    page = await person.new_page()
    bodies: list[str] = []
    seen_by(page, served, bodies)
    await sign_in(page, serving, serving.alice, f"/tasks/{task_id}")
    secret = page.get_by_label("account password", exact=True)
    assert await secret.get_attribute("type") == "password"

    cookies = {c["name"]: c["value"] for c in await person.cookies()}
    frames: list[str] = []

    async def follow() -> None:
        async with (
            httpx.AsyncClient(
                base_url=serving.url, cookies=cookies, timeout=WAIT_MS / 1000
            ) as http,
            http.stream("GET", f"/tasks/{task_id}/events") as stream,
        ):
            async for line in stream.aiter_lines():
                frames.append(line)
                if line.startswith("data:") and json.loads(line[5:])["status"]["state"] in (
                    "done",
                    "failed",
                    "cancelled",
                ):
                    return

    following = asyncio.create_task(follow())
    await secret.fill(PASSWORD)
    await page.get_by_role("button", name="Send").click()
    await page.wait_for_load_state()
    await expect(page.locator("#status-line")).to_have_text("Done", timeout=WAIT_MS)
    await axe_check(page, "a finished task")
    async with asyncio.timeout(30):
        await following
    html = await page.content()
    for frame in frames:
        served(frame)

    logins = events.of("login")
    assert [(e["email"], e["wall"]) for e in logins] == [(DEMO_FACTS["email"], True)]
    assert PASSWORD not in html
    assert frames and all(PASSWORD not in frame for frame in frames)
    assert bodies and all(PASSWORD not in text for text in bodies)
    assert not [line for line in serving.logs if PASSWORD in line]


# ------------------------------------------------------------------ a stream refused


async def test_a_page_whose_stream_the_server_refused_follows_the_task_all_the_same(
    serving: Serving, demo: DemoServer, person: BrowserContext
) -> None:
    """A refused stream (an error answer, here the owner's streams all taken) is one a
    browser never retries by itself: the page opens a new one once it can, and shows
    the task where it is, without a reload (the flake of 2026-12-05: a store error as
    the page opened its stream left it on "Running" while the task waited)."""
    task_id = await api_start(serving, start_body(demo) | {"title": "Refused stream"})
    page = await person.new_page()
    await sign_in(page, serving, serving.alice, f"/tasks/{task_id}")
    await expect(page.locator("#status-line")).to_have_text("Needs you: 1 detail to give")
    await page.goto("about:blank")  # its stream is closed: the slot is free again
    headers = {"Authorization": f"Bearer {serving.alice}"}
    async with AsyncExitStack() as streams:
        http = await streams.enter_async_context(
            httpx.AsyncClient(base_url=serving.url, headers=headers, timeout=60)
        )
        refused = False
        for _ in range(MAX_STREAMS_PER_OWNER + 5):
            opened = await streams.enter_async_context(
                http.stream("GET", f"/v1/tasks/{task_id}/events")
            )
            if opened.status_code == 429:
                refused = True
                break
            await asyncio.sleep(0.2)  # the page's old stream may take a moment to close
        assert refused, "the owner's streams were all taken"
        refusals: list[int] = []
        page.on(
            "response",
            lambda r: refusals.append(r.status) if r.url.endswith("/events") else None,
        )
        await page.goto(f"{serving.url}/tasks/{task_id}")
        async with asyncio.timeout(30):
            while 429 not in refusals:
                await asyncio.sleep(0.1)
        loads: list[str] = []
        page.on("load", lambda _page: loads.append("load"))
    answer = await http_answer(serving, task_id, {"mobile number": MOBILE})
    assert answer == 200
    approve = page.get_by_role("button", name="Approve: press “Confirm booking”")
    await expect(approve).to_be_visible(timeout=WAIT_MS)
    assert loads == [], "the page followed the task without a reload"
    await api_cancel(serving, task_id)


async def http_answer(serving: Serving, task_id: str, inputs: dict[str, str]) -> int:
    headers = {"Authorization": f"Bearer {serving.alice}"}
    async with httpx.AsyncClient(base_url=serving.url, headers=headers, timeout=60) as http:
        response = await http.post(
            "/v1/calls/continue_task", json={"id": task_id, "inputs": inputs}
        )
        return response.status_code


# ------------------------------------------------------------------ owners


async def test_another_owners_task_page_is_a_404_like_a_missing_one(
    serving: Serving,
    demo: DemoServer,
    chromium: Browser,
) -> None:
    task_id = await api_start(serving, start_body(demo))
    bob = await chromium.new_context()
    try:
        page = await bob.new_page()
        await sign_in(page, serving, serving.bob, "/tasks")
        theirs = await page.goto(f"{serving.url}/tasks/{task_id}")
        assert theirs is not None and theirs.status == 404
        text = await page.locator("main").inner_text()
        await axe_check(page, "the page of no task")
        missing = await page.goto(f"{serving.url}/tasks/task-that-never-was")
        assert missing is not None and missing.status == 404
        assert await page.locator("main").inner_text() == text
        assert "No such task" in text and task_id not in await page.content()
        await page.goto(serving.url + "/tasks")
        await expect(page.get_by_text("You have no tasks yet")).to_be_visible()
    finally:
        await bob.close()
        await api_cancel(serving, task_id)
