"""A person's page session across ``gofer serve`` processes on one PostgreSQL: signed
in on server A's /login (real HTTP, a cookie), A stopped with SIGTERM and started
again, and the same cookie still opens the task pages, on A and on a second server B
alike; signing out on B ends it on A; revoking the token ends it everywhere."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest

from gofer.api.page_auth import SESSION_COOKIE

from .serve import Started, gofer, start_serve

CSRF = re.compile(r'name="csrf" value="([^"]+)"')


@pytest.fixture
def store_kind() -> str:
    """Servers share sessions on PostgreSQL (``store_url`` is a fresh schema there)."""
    return "postgres"


@asynccontextmanager
async def serving(env: dict[str, str], count: int = 1) -> AsyncIterator[list[Started]]:
    """``count`` ``gofer serve`` processes started at once, each stopped with SIGTERM at
    the end unless the test stopped it."""
    starting = [asyncio.ensure_future(start_serve(env)) for _ in range(count)]
    try:
        yield list(await asyncio.gather(*starting))
    finally:
        for start in starting:
            start.cancel()  # one that is still starting (another failed) is killed
        for result in await asyncio.gather(*starting, return_exceptions=True):
            if isinstance(result, Started):
                await stopped(result)


async def stopped(server: Started) -> None:
    """SIGTERM, as an operator's restart sends it; the server exits cleanly."""
    if server.proc.returncode is None:
        server.proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):
            await server.proc.wait()
    await server.draining
    assert server.proc.returncode == 0, "".join(server.logs[-20:])


def browser(server: Started, cookie: str | None = None) -> httpx.AsyncClient:
    """A browser's requests to ``server``, holding ``cookie`` as its session."""
    cookies = {SESSION_COOKIE: cookie} if cookie else None
    return httpx.AsyncClient(base_url=server.url, timeout=30, cookies=cookies)


async def task_page(server: Started, cookie: str, task_id: str) -> httpx.Response:
    """The task's page as a browser holding ``cookie`` asks for it."""
    async with browser(server, cookie) as http:
        return await http.get(f"/tasks/{task_id}")


def signed_out(page: httpx.Response) -> bool:
    return page.status_code == 303 and page.headers["location"].startswith("/login?")


async def sign_in(server: Started, token: str) -> str:
    """The person's sign-in on the server's own form; the session cookie it sets."""
    async with browser(server) as http:
        form = await http.get("/login")
        assert form.status_code == 200 and 'name="token"' in form.text
        answer = await http.post(
            "/login", data={"token": token, "next": "/tasks"}, headers={"Origin": server.url}
        )
    assert answer.status_code == 303 and answer.headers["location"] == "/tasks"
    set_cookie = answer.headers["set-cookie"]
    assert "httponly" in set_cookie.lower() and token not in set_cookie
    return str(answer.cookies[SESSION_COOKIE])


async def test_a_page_session_outlives_a_restart_and_is_known_to_every_server(
    store_url: str, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path),
        "GOFER_DB": store_url,
        "GOFER_TOKENS": store_url,
        "PYTHONUNBUFFERED": "1",
    }
    code, out, err = await gofer("token", "create", "--owner", "asha", "--json", env=env)
    assert code == 0, err
    issued = json.loads(out)
    token = issued["token"]

    async with serving(env) as (a,):
        async with httpx.AsyncClient(
            base_url=a.url, timeout=30, headers={"Authorization": f"Bearer {token}"}
        ) as api:
            started = await api.post(
                "/v1/calls/start_task",
                json={
                    "flow": [
                        {"browse": "http://127.0.0.1:9/permit"},
                        {"enter": "${permit number}", "into": "Permit"},
                    ],
                },
            )
        assert started.status_code == 200, started.text
        assert started.json()["status"]["state"] == "needs_input"
        task_id = started.json()["id"]
        cookie = await sign_in(a, token)
        page = await task_page(a, cookie, task_id)
        assert page.status_code == 200 and "permit number" in page.text
        await stopped(a)

    async with serving(env, 2) as (a, b):
        # A after its restart, and B, which never saw the sign-in: the same pages, and
        # the same form token, so a form from A's page is taken by B
        pages = [await task_page(server, cookie, task_id) for server in (a, b)]
        assert [p.status_code for p in pages] == [200, 200]
        assert all("permit number" in p.text for p in pages)
        forms = {m for p in pages for m in CSRF.findall(p.text)}
        assert len(forms) == 1

        async with browser(b, cookie) as http:
            out_on_b = await http.post(
                "/logout", data={"csrf": forms.pop()}, headers={"Origin": b.url}
            )
        assert out_on_b.status_code == 303 and out_on_b.headers["location"] == "/login"
        assert signed_out(await task_page(a, cookie, task_id))
        assert signed_out(await task_page(b, cookie, task_id))

        again = await sign_in(a, token)
        assert (await task_page(b, again, task_id)).status_code == 200
        code, _, err = await gofer("token", "revoke", issued["id"], env=env)
        assert code == 0, err
        assert signed_out(await task_page(a, again, task_id))
        assert signed_out(await task_page(b, again, task_id))
