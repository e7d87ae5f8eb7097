"""A sign-in with an authenticator app on a real small site that checks codes with
``pyotp``, passed with no person: the secret fact holding the seed (an otpauth URI)
types the code of the moment, never the seed. The seed is in no view, report, log
line, trace or store file; a one-time-code wall asks for a person only when no such
fact exists. Judged by the site's own record of the codes it accepted.

Real ``Tasks`` over the real ``WorkspaceRunner`` (headless Chromium), a SQLite store.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyotp
import pytest
import pytest_asyncio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from gofer.demo import DemoServer
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks, WorkspaceRunner
from gofer.wiring import store_for

from .conftest import FAST

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

PASSWORD = "s3cret-canary-pass-4471"


def page(title: str, body: str) -> HTMLResponse:
    return HTMLResponse(
        f"<!doctype html><html><head><title>{title}</title></head><body>{body}</body></html>"
    )


@dataclass
class Bank:
    """A sign-in with a password, then a code from an authenticator app."""

    seed: str = field(default_factory=pyotp.random_base32)
    codes: list[tuple[str, bool]] = field(default_factory=list)
    signed_in: list[str] = field(default_factory=list)
    server: DemoServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url + "login"

    @property
    def uri(self) -> str:
        return pyotp.TOTP(self.seed).provisioning_uri(name="asha@example.com", issuer_name="Bank")

    async def login_form(self, request: Request) -> Response:
        return page(
            "Sign in",
            "<h1>Sign in</h1><form method='post' action='/login'>"
            "<label>Username <input name='username'></label>"
            "<label>Password <input name='password' type='password'></label>"
            "<button type='submit'>Sign in</button></form>",
        )

    async def login(self, request: Request) -> Response:
        form = await request.form()
        if form.get("password") != PASSWORD:
            return page("Sign in", "<h1>Wrong password</h1>")
        return RedirectResponse("/verify", status_code=303)

    async def verify_form(self, request: Request) -> Response:
        return page(
            "Two-step verification",
            "<h1>Two-step verification</h1><p>Enter the 6-digit code from your "
            "authenticator app.</p><form method='post' action='/verify'>"
            "<label>Authentication code <input name='code' inputmode='numeric'></label>"
            "<button type='submit'>Verify</button></form>",
        )

    async def verify(self, request: Request) -> Response:
        code = str((await request.form()).get("code", ""))
        ok = pyotp.TOTP(self.seed).verify(code)
        self.codes.append((code, ok))
        if not ok:
            return page("Two-step verification", "<h1>That code is not right</h1>")
        self.signed_in.append(code)
        return page("Accounts", "<h1>Your accounts</h1><a href='/statements'>Statements</a>")

    async def statements(self, request: Request) -> Response:
        return page("Statements", "<h1>Statements</h1><p>No statements yet.</p>")


@pytest_asyncio.fixture(loop_scope="session")
async def bank() -> AsyncIterator[Bank]:
    site = Bank()
    app = Starlette(
        routes=[
            Route("/login", site.login_form),
            Route("/login", site.login, methods=["POST"]),
            Route("/verify", site.verify_form),
            Route("/verify", site.verify, methods=["POST"]),
            Route("/statements", site.statements),
        ]
    )
    async with DemoServer(app=app) as server:
        site.server = server
        yield site


def sign_in(bank: Bank) -> list[dict[str, Any]]:
    return [
        {"browse": bank.url},
        {"enter": "${username}", "into": "Username"},
        {"enter": "${password}", "into": "Password"},
        {"click": "Sign in"},
    ]


async def test_an_authenticator_seed_signs_in_with_no_person_and_is_never_shown(
    engine: BrowserEngine,
    bank: Bank,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    canary: Callable[[str], str],
) -> None:
    caplog.set_level(logging.DEBUG, logger="gofer")
    canary(bank.seed)  # the session's model requests and served bodies never hold it
    flow = [
        *sign_in(bank),
        {"enter": "${authenticator}", "into": "Authentication code"},
        {"click": "Verify"},
        {"click": "Statements"},
    ]
    facts = {"username": "asha", "password": PASSWORD, "authenticator": bank.uri}
    async with (
        store_for(str(tmp_path / "gofer.db")) as db,
        WorkspaceRunner(engine=engine, settings=FAST) as runner,
        Tasks(runner, store=db) as tasks,
    ):
        view = await tasks.start_task({"flow": flow, "facts": facts})
        done = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        report = await tasks.task_report({"id": view.id})
    assert done.status.state == "done", done.status
    [(code, ok)] = bank.codes
    assert ok and bank.signed_in == [code]
    shown = done.model_dump_json() + report.model_dump_json() + caplog.text
    for secret in (bank.seed, bank.uri, PASSWORD):
        assert secret not in shown
    assert code not in report.model_dump_json()
    assert "${authenticator}" in report.model_dump_json()
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    assert bank.seed.encode() not in stored and PASSWORD.encode() not in stored


async def test_a_code_wall_waits_for_a_person_only_without_an_authenticator_seed(
    engine: BrowserEngine, bank: Bank, tmp_path: Path
) -> None:
    # The flow knows nothing of the second step: the wall appears where it clicks on.
    flow = [*sign_in(bank), {"click": "Statements"}]
    async with (
        store_for(str(tmp_path / "gofer.db")) as db,
        WorkspaceRunner(engine=engine, settings=FAST) as runner,
        Tasks(runner, store=db) as tasks,
    ):
        plain = await tasks.start_task(
            {"flow": flow, "facts": {"username": "asha", "password": PASSWORD}}
        )
        walled = await tasks.await_task({"id": plain.id, "timeout_ms": 60_000})
        assert walled.status.state == "needs_human", walled.status
        assert bank.codes == []
        await tasks.cancel_task({"id": plain.id})

        facts = {"username": "asha", "password": PASSWORD, "authenticator app": bank.seed}
        view = await tasks.start_task({"flow": flow, "facts": facts})
        done = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        report = await tasks.task_report({"id": view.id})
    assert done.status.state == "done", done.status
    [(code, ok)] = bank.codes
    assert ok and bank.signed_in == [code]
    assert report.flow is not None
    assert {"enter": "${authenticator app}", "into": "code", "submit": True} in [
        {k: v for k, v in step.items() if k != "intent"}
        for step in report.flow["steps"]
        if isinstance(step, dict)
    ]
    assert bank.seed not in report.model_dump_json() + done.model_dump_json()
