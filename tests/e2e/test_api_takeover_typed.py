"""What a person types during a take-over is never kept (issue 29, item 2), over a real
``gofer serve``: a task meets a sign-in wall whose fields no secret rule knows ("Recovery
key", "Mot de passe de secours", a password shown as text) beside a password box and a
username; a person in headless Chromium takes over through the task's pages, types
into each and signs in, then hands it back. The report's person steps, the saved flow
(and its next run, which asks for each value), the server's log and the store's files
(the SQLite file and its WAL) hold none of what they typed: each field is ``${label}``,
the username ``${username}`` of the task's own shared fact.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import pytest
from playwright.async_api import BrowserContext, expect
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from gofer.demo import DemoServer

from . import test_api_pages, test_api_serve
from .sites.base import document
from .takeover import at_paused_task, click_in_picture, middle, open_live_view, start_live_view
from .test_api_pages import WAIT_MS, api_start
from .test_api_serve import Serving

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

serving = test_api_serve.serving
person = test_api_pages.person

USER = "meera.k"
TYPED = {
    "recovery": "RECOVERY-KEY-88213",
    "secours": "motdepasse-SECRET-5519",
    "shown": "shown-pw-canary-7781",
    "password": "pw-canary-4402",
}
FIELDS = [
    ("username", "Username", "text"),
    ("recovery", "Recovery key", "text"),
    ("secours", "Mot de passe de secours", "text"),
    ("shown", "Password shown", "text"),
    ("password", "Password", "password"),
]
BOXES = {name: (100, 130 + 70 * i, 320, 36) for i, (name, _label, _kind) in enumerate(FIELDS)}
SIGN_IN_BOX = (100, 130 + 70 * len(FIELDS), 120, 40)

CSS = (
    "h1{position:absolute;left:100px;top:30px;margin:0;font-size:28px}"
    + "".join(
        f"#{name}{{position:absolute;left:100px;top:{box[1]}px;width:320px;height:36px;"
        f"box-sizing:border-box;font-size:16px}}"
        f"label[for={name}]{{position:absolute;left:100px;top:{box[1] - 22}px;font-size:14px}}"
        for name, box in BOXES.items()
    )
    + (
        f"button{{position:absolute;left:100px;top:{SIGN_IN_BOX[1]}px;width:120px;height:40px}}"
        "#nick{position:absolute;left:100px;top:130px;width:320px;height:36px}"
    )
)


@dataclass
class Wall:
    origin: str = ""
    sessions: set[str] = field(default_factory=set)
    posted: list[dict[str, str]] = field(default_factory=list)
    signed_in: asyncio.Event = field(default_factory=asyncio.Event)

    async def page(self, request: Request) -> Response:
        if request.cookies.get("sid") in self.sessions:
            body = (
                "<main><h1>Your profile</h1><label for='nick' style='position:absolute;"
                "left:100px;top:100px'>Nickname</label><input id='nick' name='nick'></main>"
            )
            return HTMLResponse(document("Profile", body, CSS))
        inputs = "".join(
            f"<label for='{name}'>{label}</label><input id='{name}' name='{name}' type='{kind}'>"
            for name, label, kind in FIELDS
        )
        body = (
            "<main><h1>Sign in to continue</h1><form method='post' action='/login'>"
            f"{inputs}<button>Sign in</button></form></main>"
        )
        return HTMLResponse(document("Sign in", body, CSS))

    async def login(self, request: Request) -> Response:
        form = parse_qs((await request.body()).decode(), keep_blank_values=True)
        self.posted.append({k: v[0] for k, v in form.items()})
        session = secrets.token_urlsafe(12)
        self.sessions.add(session)
        self.signed_in.set()
        response = RedirectResponse("/wall", status_code=303)
        response.set_cookie("sid", session, httponly=True, samesite="lax")
        return response


@contextlib.asynccontextmanager
async def serve_wall() -> AsyncIterator[Wall]:
    wall = Wall()
    app = Starlette(
        routes=[Route("/wall", wall.page), Route("/login", wall.login, methods=["POST"])]
    )
    async with DemoServer(app=app) as server:
        wall.origin = server.url.rstrip("/")
        yield wall


async def test_what_a_person_types_is_kept_only_as_a_name_to_ask_for(
    serving: Serving,
    person: BrowserContext,
    canary: Callable[[str], str],
) -> None:
    for value in TYPED.values():
        canary(value)
    async with serve_wall() as wall:
        task_id = await api_start(
            serving,
            {
                "flow": {
                    "steps": [
                        {"browse": wall.origin + "/wall"},
                        {"enter": "${nick}", "into": "Nickname"},
                    ]
                },
                "facts": {"nick": "kettle fan", "username": USER},
            },
        )
        page, _bodies = await at_paused_task(person, serving, task_id)
        await open_live_view(page, serving.url, task_id)
        await start_live_view(page)
        for name, _label, _kind in FIELDS:
            await click_in_picture(page, middle(BOXES[name]))
            await page.keyboard.type(USER if name == "username" else TYPED[name])
        await click_in_picture(page, middle(SIGN_IN_BOX))
        async with asyncio.timeout(30):
            await wall.signed_in.wait()
        await page.wait_for_timeout(600)  # the screencast's next frame
        await page.get_by_role("button", name="I've done it").click()
        await page.wait_for_url(f"{serving.url}/tasks/{task_id}")
        await expect(page.locator("#status-line")).to_have_text("Done", timeout=WAIT_MS)
        await page.close()
        assert wall.posted and wall.posted[0]["recovery"] == TYPED["recovery"]

        headers = {"Authorization": f"Bearer {serving.alice}"}
        async with httpx.AsyncClient(base_url=serving.url, headers=headers, timeout=90) as http:
            report = (await http.post("/v1/calls/task_report", json={"id": task_id})).text
            story = (await http.get(f"/v1/tasks/{task_id}/report")).text
            saved = await http.post("/v1/flows", json={"name": "walled", "task_id": task_id})
            assert saved.status_code == 201, saved.text
            shown = (await http.get("/v1/flows/walled")).json()
            again = await http.post(
                "/v1/calls/start_task",
                json={"saved_flow": {"name": "walled"}, "facts": {"nick": "x", "username": USER}},
            )
            asked = again.json()
    steps = shown["flow"]["steps"]
    entered = {s["into"]: s["enter"] for s in steps if "enter" in s}
    assert entered == {
        "Username": "${username}",
        "Recovery key": "${recovery key}",
        "Mot de passe de secours": "${mot de passe de secours}",
        "Password shown": "${password shown}",
        "Password": "${password}",
        "Nickname": "${nick}",
    }, steps
    assert asked["status"]["state"] == "needs_input", asked
    assert set(asked["status"]["fields"]) == {
        "recovery key",
        "mot de passe de secours",
        "password shown",
        "password",
    }
    seen = report + story + str(shown)
    assert [v for v in TYPED.values() if v in seen] == []
    assert not [line for line in serving.logs if any(v in line for v in TYPED.values())]
    root = Path(serving.env["GOFER_DB"]).parent
    stored = b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())
    assert [v for v in TYPED.values() if v.encode() in stored] == []
