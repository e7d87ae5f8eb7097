"""Take-over from any server, end to end on PostgreSQL with separate processes: a
``gofer serve`` that runs no turns (``--per-process 0``) and two ``gofer worker``s.
A task meets a shop's login wall (a real server with real sessions) in one worker's
browser; the person signs in to the server's task pages in their own Chromium, takes
the task over there (the server relays the live view from the worker that holds the
browser), signs in to the shop through the picture and hands the task back. The
next turn runs in the holder, in the browser the person signed in with, and the task
ends done. The shop's own record judges it: one sign-in, by that person, and the
order and its tracking asked for in their session.

Another owner gets 404 from the server's socket; the holder's live endpoint refuses a
forged credential and one without the owner; the password (a canary) is in no log of
any process.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, expect
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from gofer.store import PostgresConnector
from gofer.tasks.relay import RELAY_CREDENTIAL, RELAY_OWNER

from .serve import deployment, gofer
from .sites.account import PASSWORD_BOX, USERNAME_BOX, serve_account
from .takeover import click_in_picture, middle, open_live_view, start_live_view
from .test_api_pages import WAIT_MS, sign_in
from .test_api_takeover import orders_flow

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

USER = "ravi.s"
PASSWORD = "Kp3-canary-relay-pw-5521"
"""The person's shop password, typed through the relayed live view only."""
RUNS_NO_TURNS = ("--per-process", "0")


@pytest.fixture
def store_kind() -> str:
    """Several processes on one store: PostgreSQL."""
    return "postgres"


async def token_for(owner: str, env: dict[str, str]) -> str:
    code, out, err = await gofer("token", "create", "--owner", owner, "--json", env=env)
    assert code == 0, err
    return str(json.loads(out)["token"])


async def holder_of(store_url: str, task_id: str) -> dict[str, Any] | None:
    """The store's board row for the task: who holds its browser, and where."""
    async with PostgresConnector(store_url) as db, db.snapshot() as tx:
        row = await tx.fetch_one(
            "SELECT holder, address FROM live_holders WHERE task_id = %(t)s", {"t": task_id}
        )
    return dict(row) if row is not None else None


async def test_a_login_wall_is_taken_over_through_a_server_that_does_not_hold_the_browser(
    store_url: str, tmp_path: Path, chromium: Browser
) -> None:
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path),
        "GOFER_DB": store_url,
        "GOFER_TOKENS": store_url,
        "PYTHONUNBUFFERED": "1",
    }
    alice, bob = await token_for("alice", env), await token_for("bob", env)
    deployed = deployment(env, 2, serve_args=RUNS_NO_TURNS, worker_args=("--per-owner", "5"))
    async with serve_account({USER: PASSWORD}) as shop, deployed as (server, workers):
        async with httpx.AsyncClient(
            base_url=server.url, timeout=60, headers={"Authorization": f"Bearer {alice}"}
        ) as api:
            started = await api.post("/v1/calls/start_task", json={"flow": orders_flow(shop)})
            assert started.status_code == 200, started.text
            task_id = started.json()["id"]
            waited = await api.post(
                "/v1/calls/await_task", json={"id": task_id, "timeout_ms": 60_000}
            )
            assert waited.json()["status"]["state"] == "needs_human", waited.text
        assert shop.seen("/orders") == [None] and shop.sign_ins == []

        held = await holder_of(store_url, task_id)
        assert held is not None, "the worker that holds the browser is on the board"
        assert held["holder"] in {w.worker_id for w in workers}

        # Another owner: 404 from the server's socket, as for a task that is not there.
        socket = server.url.replace("http://", "ws://") + f"/tasks/{task_id}/live/socket"
        with pytest.raises(InvalidStatus) as refused:
            async with connect(socket, additional_headers={"Authorization": f"Bearer {bob}"}):
                pass
        assert refused.value.response.status_code == 404
        # The holder's endpoint opens nothing without a server's credential.
        endpoint = f"ws://{held['address']}/live/{task_id}"
        for headers in (
            {RELAY_OWNER: "alice", RELAY_CREDENTIAL: "9999999999." + "0" * 64},
            {RELAY_CREDENTIAL: "9999999999." + "0" * 64},
            {RELAY_OWNER: "alice"},
        ):
            with pytest.raises(InvalidStatus) as forged:
                async with connect(endpoint, additional_headers=headers, proxy=None):
                    pass
            assert forged.value.response.status_code == 401

        context = await chromium.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = await context.new_page()
            await sign_in(page, server, alice, f"/tasks/{task_id}")  # type: ignore[arg-type]
            await expect(page.locator("#status-line")).to_have_text(
                "Needs you: a step only a person can do", timeout=WAIT_MS
            )
            await open_live_view(page, server.url, task_id)
            await start_live_view(page)
            await click_in_picture(page, middle(USERNAME_BOX))
            await page.keyboard.type(USER)
            await click_in_picture(page, middle(PASSWORD_BOX))
            await page.keyboard.type(PASSWORD)
            await page.keyboard.press("Enter")
            async with asyncio.timeout(30):
                await shop.signed_in.wait()
            assert shop.sign_ins == [{"username": USER, "ok": True}]

            await page.get_by_role("button", name="I've done it").click()
            await page.wait_for_url(f"{server.url}/tasks/{task_id}")
            await expect(page.locator("#status-line")).to_have_text("Done", timeout=WAIT_MS)
        finally:
            await context.close()

        # The shop's record: the person's one sign-in, then the task's pages in their
        # session (the next turn ran in the holder's browser).
        assert shop.sign_ins == [{"username": USER, "ok": True}]
        assert shop.seen("/orders/1042") == [USER]
        assert shop.seen("/orders/1042/track") == [USER]
    for process_logs in (server.logs, *(w.logs for w in workers)):
        assert not [line for line in process_logs if PASSWORD in line]
