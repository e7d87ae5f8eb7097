"""The person's task pages over real HTTP (uvicorn on loopback, httpx as a browser
without JavaScript), on a controller whose runs are scripted: signing in, the list
and its filters, a task's page in each state, the forms (anti-forgery token, origin,
redirect after post), another owner's task, and secrets typed into the question."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

import httpx
import pytest
import pytest_asyncio
from scripted_server import ScriptedServer

from gofer.api import GoferServer, MemoryTokenStore
from gofer.api.page_auth import SESSION_COOKIE
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import fail, gate

ASKING = [
    {"browse": "https://shop.example.com/"},
    {"enter": "${mobile number}", "into": "Mobile"},
    {"enter": "${account password}", "into": "Password"},
    {"click": "Sign in"},
]
CONFIRM = [
    {"browse": "https://shop.example.com/"},
    {"stop_before": "confirming the booking"},
    {"click": "Done"},
]
PASSWORD = "Tr0ub4dor-canary-page-7781"


@dataclass
class Site(ScriptedServer):
    """The scripted server, as a person's browser and an agent reach it."""

    def browser(self) -> httpx.AsyncClient:
        """A client that keeps cookies and does not follow redirects."""
        return httpx.AsyncClient(base_url=self.server.url, timeout=30)

    def api(self, token: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            base_url=self.server.url, timeout=30, headers={"Authorization": f"Bearer {token}"}
        )


@pytest_asyncio.fixture
async def site(scripted_server: ScriptedServer) -> Site:
    s = scripted_server
    return Site(s.server, s.runner, s.tokens, s.alice, s.bob, s.bodies)


async def sign_in(client: httpx.AsyncClient, token: str) -> httpx.Response:
    response = await client.post("/login", data={"token": token, "next": "/tasks"})
    assert response.status_code == 303, response.text
    return response


def csrf_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page has no form token"
    return found.group(1)


async def start(site: Site, flow: object, token: str | None = None) -> str:
    async with site.api(token or site.alice) as api:
        response = await api.post("/v1/tasks", json={"flow": flow, "title": "Book a flight"})
        assert response.status_code == 201, response.text
        task_id = str(response.json()["id"])
        await api.post("/v1/calls/await_task", json={"id": task_id})
    return task_id


async def state_of(site: Site, task_id: str) -> str:
    async with site.api(site.alice) as api:
        view = (await api.post("/v1/calls/await_task", json={"id": task_id})).json()
    return str(view["status"]["state"])


# ------------------------------------------------------------------ signing in


async def test_pages_send_a_person_to_sign_in_and_back(site: Site) -> None:
    task_id = await start(site, CONFIRM)
    site.runner.add(gate("1", "Confirm booking"))
    async with site.browser() as browser:
        first = await browser.get(f"/tasks/{task_id}")
        assert first.status_code == 303
        assert first.headers["location"] == f"/login?next=%2Ftasks%2F{task_id}"
        form = await browser.get(first.headers["location"])
        assert form.status_code == 200 and 'type="password"' in form.text
        assert f'value="/tasks/{task_id}"' in form.text
        wrong = await browser.post("/login", data={"token": "gofer_nope", "next": "/tasks"})
        assert wrong.status_code == 401 and "not valid" in wrong.text
        assert SESSION_COOKIE not in wrong.cookies
        signed = await browser.post(
            "/login", data={"token": site.alice, "next": f"/tasks/{task_id}"}
        )
        assert signed.status_code == 303 and signed.headers["location"] == f"/tasks/{task_id}"
        cookie = signed.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
        assert site.alice not in cookie
        page = await browser.get(f"/tasks/{task_id}")
        assert page.status_code == 200 and "Book a flight" in page.text
        assert "Signed in as alice" in page.text
        assert "default-src 'self'" in page.headers["content-security-policy"]


async def test_a_sign_in_never_sends_a_person_to_another_site(site: Site) -> None:
    async with site.browser() as browser:
        for target in ("https://evil.example/", "//evil.example/", "/\\evil.example"):
            response = await browser.post("/login", data={"token": site.alice, "next": target})
            assert response.headers["location"] == "/tasks"


async def test_signing_out_or_revoking_the_token_ends_the_session(site: Site) -> None:
    issued = await site.tokens.create("carol")
    async with site.browser() as browser:
        await sign_in(browser, issued.token)
        listing = await browser.get("/tasks")
        assert listing.status_code == 200
        await site.tokens.revoke(issued.info.id)
        assert (await browser.get("/tasks")).status_code == 303
    async with site.browser() as browser:
        await sign_in(browser, site.alice)
        listing = await browser.get("/tasks")
        out = await browser.post("/logout", data={"csrf": csrf_of(listing.text)})
        assert out.status_code == 303 and out.headers["location"] == "/login"
        assert (await browser.get("/tasks")).status_code == 303


# ------------------------------------------------------------------ the list


async def test_the_list_shows_each_task_with_its_status_and_filters(site: Site) -> None:
    site.runner.add(gate("1", "Confirm booking"), fail("1", "no button called Next"))
    waiting = await start(site, CONFIRM)
    failing = await start(site, CONFIRM)
    finished = await start(site, [{"browse": "https://shop.example.com/"}])
    bobs = await start(site, CONFIRM, site.bob)
    async with site.browser() as browser:
        await sign_in(browser, site.alice)
        everything = (await browser.get("/tasks")).text
        for task_id in (waiting, failing, finished):
            assert f'href="/tasks/{task_id}"' in everything
        assert f'href="/tasks/{bobs}"' not in everything
        assert "Needs you: approve “Confirm booking”?" in everything
        assert "Failed: you can try again" in everything
        assert "last moved" in everything and 'aria-current="page">All (3)' in everything
        needs_you = (await browser.get("/tasks?show=needs-you")).text
        assert f"/tasks/{waiting}" in needs_you and f"/tasks/{failing}" in needs_you
        assert f"/tasks/{finished}" not in needs_you
        done = (await browser.get("/tasks?show=finished")).text
        assert f"/tasks/{finished}" in done and f"/tasks/{waiting}" not in done
        running = (await browser.get("/tasks?show=running")).text
        assert "No task is in “Running” now" in running


# ------------------------------------------------------------------ a task's page


async def test_the_question_is_a_form_and_a_secret_typed_in_it_never_comes_back(
    site: Site,
    canary: Callable[[str], str],
) -> None:
    canary(PASSWORD)
    task_id = await start(site, ASKING)
    async with site.browser() as browser:
        await sign_in(browser, site.alice)
        page = (await browser.get(f"/tasks/{task_id}")).text
        assert '<label for="value-0">mobile number</label>' in page
        assert re.search(r'<input type="text" id="value-0" name="value-0"', page)
        assert re.search(r'<input type="password" id="value-1" name="value-1"', page)
        names = {"name-value-0": "mobile number", "name-value-1": "account password"}
        forged = await browser.post(
            f"/tasks/{task_id}/answer",
            data=names | {"value-0": "9876543210", "value-1": PASSWORD, "csrf": "not-the-token"},
        )
        assert forged.status_code == 403
        assert await state_of(site, task_id) == "needs_input"
        other = await browser.post(
            f"/tasks/{task_id}/answer",
            data={
                "name-value-0": "account password",
                "name-value-1": "mobile number",
                "value-0": PASSWORD,
                "value-1": "9876543210",
                "csrf": csrf_of(page),
            },
        )
        assert other.headers["location"] == f"/tasks/{task_id}?problem=WRONG_STATE"
        missing = await browser.post(
            f"/tasks/{task_id}/answer",
            data=names | {"value-0": "9876543210", "value-1": "", "csrf": csrf_of(page)},
        )
        assert missing.headers["location"] == f"/tasks/{task_id}?problem=MISSING_VALUE"
        assert (
            "Give a value for every field" in (await browser.get(missing.headers["location"])).text
        )
        sent = await browser.post(
            f"/tasks/{task_id}/answer",
            data=names | {"value-0": "9876543210", "value-1": PASSWORD, "csrf": csrf_of(page)},
        )
        assert sent.status_code == 303 and sent.headers["location"] == f"/tasks/{task_id}"
        assert await state_of(site, task_id) == "done"
        after = (await browser.get(f"/tasks/{task_id}")).text
        assert "Done" in after and 'type="password"' not in after
    request = site.runner.requests[-1][1]
    assert "account password" in request.private and "mobile number" not in request.private
    assert request.variables["mobile number"] == "9876543210"
    assert site.bodies and all(PASSWORD.encode() not in body for body in site.bodies)


async def test_an_approval_is_approved_or_declined_with_its_buttons(site: Site) -> None:
    site.runner.add(gate("1", "Confirm booking"), gate("1", "Confirm booking"))
    approving = await start(site, CONFIRM)
    declining = await start(site, CONFIRM)
    async with site.browser() as browser:
        await sign_in(browser, site.alice)
        page = (await browser.get(f"/tasks/{approving}")).text
        assert "It stopped before pressing <strong>“Confirm booking”</strong>" in page
        assert "Approve: press “Confirm booking”" in page and "Decline" in page
        assert 'id="take-over"' in page
        bare = await browser.post(f"/tasks/{approving}/approve", data={"csrf": csrf_of(page)})
        assert bare.headers["location"] == f"/tasks/{approving}?problem=INVALID_REQUEST"
        [approval_id] = re.findall(r'name="approval_id" value="([^"]+)"', page)
        approved = await browser.post(
            f"/tasks/{approving}/approve",
            data={"csrf": csrf_of(page), "approval_id": approval_id},
        )
        assert approved.headers["location"] == f"/tasks/{approving}"
        assert await state_of(site, approving) == "done"
        declined = await browser.post(f"/tasks/{declining}/decline", data={"csrf": csrf_of(page)})
        assert declined.status_code == 303
        assert await state_of(site, declining) == "cancelled"
        again = await browser.post(f"/tasks/{declining}/approve", data={"csrf": csrf_of(page)})
        assert again.headers["location"] == f"/tasks/{declining}?problem=WRONG_STATE"
        assert "The task has moved on" in (await browser.get(again.headers["location"])).text


async def test_a_form_from_another_site_is_refused(site: Site) -> None:
    site.runner.add(gate("1", "Confirm booking"))
    task_id = await start(site, CONFIRM)
    async with site.browser() as browser:
        await sign_in(browser, site.alice)
        page = (await browser.get(f"/tasks/{task_id}")).text
        forged = await browser.post(
            f"/tasks/{task_id}/approve",
            data={"csrf": csrf_of(page)},
            headers={"Origin": "https://evil.example"},
        )
        assert forged.status_code == 403
        assert await state_of(site, task_id) == "needs_approval"


async def test_another_owners_task_page_is_the_same_404_as_a_missing_one(site: Site) -> None:
    site.runner.add(gate("1", "Confirm booking"))
    task_id = await start(site, CONFIRM)
    async with site.browser() as browser:
        await sign_in(browser, site.bob)
        listing = (await browser.get("/tasks")).text
        theirs = await browser.get(f"/tasks/{task_id}")
        missing = await browser.get("/tasks/task-404")
        assert theirs.status_code == missing.status_code == 404
        assert theirs.text == missing.text and "No such task" in theirs.text
        for path in ("part", "events", "screenshot/x"):
            assert (await browser.get(f"/tasks/{task_id}/{path}")).status_code == 404
        approve = await browser.post(f"/tasks/{task_id}/approve", data={"csrf": csrf_of(listing)})
        assert approve.status_code == 404
    assert await state_of(site, task_id) == "needs_approval"


async def test_the_page_names_back_only_a_refusals_code(site: Site) -> None:
    task_id = await start(site, [{"browse": "https://shop.example.com/"}])
    async with site.browser() as browser:
        await sign_in(browser, site.alice)
        page = await browser.get(
            f"/tasks/{task_id}", params={"problem": "<b>Call 555-0100 now</b>"}
        )
        assert "555-0100" not in page.text and 'role="alert"' not in page.text


async def test_the_screenshot_and_stream_need_a_session(site: Site) -> None:
    site.runner.add(gate("1", "Confirm booking"))
    task_id = await start(site, CONFIRM)
    async with site.browser() as browser:
        assert (await browser.get(f"/tasks/{task_id}/events")).status_code == 401
        await sign_in(browser, site.alice)
        page = (await browser.get(f"/tasks/{task_id}")).text
        shot = re.search(r'<img src="(/tasks/[^"]+/screenshot/[^"]+)"', page)
        assert shot, "the page shows no screenshot"
        image = await browser.get(shot.group(1))
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
        async with browser.stream("GET", f"/tasks/{task_id}/events") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            async for line in stream.aiter_lines():
                if line.startswith("data:"):
                    assert '"needs_approval"' in line
                    break


async def test_the_page_url_agents_are_given_opens_the_task_page(site: Site) -> None:
    site.runner.add(gate("1", "Confirm booking"))
    task_id = await start(site, CONFIRM)
    link = site.server.page_url(task_id)
    assert link == f"{site.server.url}/tasks/{task_id}"
    async with site.browser() as browser:
        await sign_in(browser, site.alice)
        page = await browser.get(link)
        assert page.status_code == 200 and "Approve: press “Confirm booking”" in page.text


async def test_behind_an_https_address_the_session_cookie_is_secure(
    served: Callable[[str | bytes], None],
) -> None:
    tokens = MemoryTokenStore()
    token = (await tokens.create("alice")).token
    async with (
        Tasks(ScriptedRunner()) as tasks,
        GoferServer(tasks, tokens, public_url="https://gofer.example.org/") as server,
        httpx.AsyncClient(base_url=server.url, timeout=30) as browser,
    ):
        assert server.page_url("task-1") == "https://gofer.example.org/tasks/task-1"
        signed = await browser.post("/login", data={"token": token})
        served(signed.content)
        assert signed.status_code == 303 and "Secure" in signed.headers["set-cookie"]


async def test_every_stop_has_its_page_and_its_way_on(site: Site) -> None:
    """A step only a person can do (I've done it), a failure to try again (Try again),
    the payment checkpoint (Mark done, then Reopen), and a job in plain words with no
    planner: each page says what happened and offers only what fits."""
    site.runner.add(
        fail(
            "1",
            "the page asks to prove you are human",
            screen_text="Please verify you are human. I'm not a robot",
        ),
        fail("1", "no button called Next"),
        gate("1", "Pay now", "payment", payment_screen=True),
    )
    flow = [{"browse": "https://shop.example.com/"}, {"click": "Next"}]
    walled = await start(site, flow)
    failing = await start(site, flow)
    paying = await start(
        site, [{"browse": "https://shop.example.com/"}, {"stop_before": "paying for the order"}]
    )
    async with site.api(site.alice) as api:
        planned = await api.post("/v1/tasks", json={"instruction": "Book a flight."})
        assert planned.status_code == 201, planned.text
        unplanned = str(planned.json()["id"])
    async with site.browser() as browser:
        await sign_in(browser, site.alice)

        wall = (await browser.get(f"/tasks/{walled}")).text
        assert "A step needs a person: a captcha" in wall and "I've done it" in wall
        assert 'id="take-over"' in wall
        done_it = await browser.post(f"/tasks/{walled}/again", data={"csrf": csrf_of(wall)})
        assert done_it.headers["location"] == f"/tasks/{walled}"

        failed = (await browser.get(f"/tasks/{failing}")).text
        assert "A step failed (step 2): no button called Next" in failed
        assert "Try again" in failed
        retried = await browser.post(f"/tasks/{failing}/again", data={"csrf": csrf_of(failed)})
        assert retried.status_code == 303

        pay = (await browser.get(f"/tasks/{paying}")).text
        assert "payment is always left to you" in pay and "gofer presses nothing" in pay
        assert "Approve" not in pay and "Go on" not in pay
        marked = await browser.post(f"/tasks/{paying}/resolve", data={"csrf": csrf_of(pay)})
        assert marked.status_code == 303
        resolved = (await browser.get(f"/tasks/{paying}")).text
        assert "Marked done" in resolved and "Reopen" in resolved
        assert 'id="take-over"' not in resolved
        reopened = await browser.post(f"/tasks/{paying}/reopen", data={"csrf": csrf_of(resolved)})
        assert reopened.status_code == 303
        assert "Needs you: over to you" in (await browser.get(f"/tasks/{paying}")).text

        plan = (await browser.get(f"/tasks/{unplanned}")).text
        assert "It needs a flow" in plan and "Stopped: needs a flow" in plan
        assert "Cancel the task" not in plan
    for task_id in (walled, failing):
        assert await state_of(site, task_id) == "done"


async def test_a_task_id_from_the_path_cannot_forge_a_log_line(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gofer.api")
    task_id = await start(site, CONFIRM)
    async with site.browser() as browser:
        await sign_in(browser, site.alice)
        token = csrf_of((await browser.get(f"/tasks/{task_id}")).text)
        forged = "abc\n2026-12-04 10:00:00 INFO gofer.api: FORGED"
        for target in (task_id, forged):
            await browser.post(f"/tasks/{quote(target, safe='')}/cancel", data={"csrf": token})
            await browser.post(f"/tasks/{quote(target, safe='')}/cancel", data={"csrf": "no"})
    lines = [caplog.handler.format(r) for r in caplog.records if r.name == "gofer.api"]
    assert any(task_id in line for line in lines)
    assert all("\n" not in line for line in lines), lines
