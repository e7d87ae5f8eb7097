"""Authenticator seeds over a real ``gofer serve`` (issue 29, item 1): an 80-bit seed
(the common 16-character one), bare under "totp seed" or "mfa secret", and a 160-bit
seed in an ``otpauth://totp`` URI each type the code of the moment; a value that looks
like a seed and gives no codes (an ``hotp`` URI, a URI with a bad parameter, a bare
seed that is not base32 under "2fa seed") is refused at ``start_task`` on HTTP and
MCP alike, naming the fact and never its value. No seed is in what the site received,
a view, the report, the events, a saved flow, a webhook body, the log or the store's
files. Judged by the site's own check of each code (RFC 6238, computed here).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from gofer.demo import DemoServer

from .hardened import served

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SHORT = "JBSWY3DPEHPK3PXP"  # 80 bits
OTHER_SHORT = "KRSXG5CTMVRXEZLU"  # 80 bits
LONG = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"  # 160 bits
URI = f"otpauth://totp/Shop:alice?secret={LONG}&issuer=Shop"
HOTP = f"otpauth://hotp/Shop:alice?secret={LONG}&issuer=Shop&counter=3"
BAD_URI = f"otpauth://totp/Shop:alice?secret={LONG}&digits=abc"
NOT_BASE32 = "JBSWY3DPEHPK3PXPQ"  # 17 characters: no base32 length


def totp(seed: str, at: float) -> str:
    """RFC 6238's code (SHA-1, 6 digits, 30 s), as the site computes it."""
    key = base64.b32decode(seed + "=" * (-len(seed) % 8))
    mac = hmac.new(key, int(at // 30).to_bytes(8, "big"), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    return str((int.from_bytes(mac[offset : offset + 4], "big") & 0x7FFFFFFF) % 10**6).zfill(6)


@dataclass
class Site:
    received: list[dict[str, str]] = field(default_factory=list)
    hooks: list[bytes] = field(default_factory=list)
    hooked: asyncio.Event = field(default_factory=asyncio.Event)

    async def form(self, request: Request) -> Response:
        return HTMLResponse(
            "<!doctype html><title>Verify</title><h1>Two-step verification</h1>"
            "<form method='post' action='/otp'>"
            "<label>First code <input name='first'></label>"
            "<label>Second code <input name='second'></label>"
            "<label>Third code <input name='third'></label>"
            "<button type='submit'>Verify</button></form>"
        )

    async def verify(self, request: Request) -> Response:
        self.received.append({k: str(v) for k, v in (await request.form()).items()})
        return HTMLResponse("<!doctype html><title>Verified</title><h1>Verified</h1>")

    async def hook(self, request: Request) -> Response:
        self.hooks.append(await request.body())
        self.hooked.set()
        return JSONResponse({"ok": True})


def near(seed: str, code: str) -> bool:
    now = time.time()
    return code in {totp(seed, now + d) for d in (-60, -30, 0, 30)}


async def test_seeds_give_codes_and_a_seed_with_no_codes_is_refused_never_typed(
    tmp_path: Path,
) -> None:
    site = Site()
    app = Starlette(
        routes=[
            Route("/otp", site.form),
            Route("/otp", site.verify, methods=["POST"]),
            Route("/hook", site.hook, methods=["POST"]),
        ]
    )
    canaries = (SHORT, OTHER_SHORT, LONG, URI, HOTP, BAD_URI, NOT_BASE32)
    async with DemoServer(app=app) as demo, served(tmp_path / "store") as s:
        flow = [
            {"browse": demo.url + "otp"},
            {"enter": "${totp seed}", "into": "First code"},
            {"enter": "${mfa secret}", "into": "Second code"},
            {"enter": "${bank login}", "into": "Third code"},
            {"click": "Verify"},
        ]
        facts = {"totp seed": SHORT, "mfa secret": OTHER_SHORT, "bank login": URI}
        for bad_name, bad in (
            ("login 2fa", HOTP),
            ("login 2fa", BAD_URI),
            ("2fa seed", NOT_BASE32),
        ):
            body = {"flow": flow, "facts": {**facts, bad_name: bad}}
            status, answer = await s.call("start_task", body)
            assert status == 422, answer
            error = answer["error"]
            assert error["code"] == "INVALID_REQUEST" and error["at"] == f"facts.{bad_name}"
            assert bad_name in error["message"] and bad not in json.dumps(answer)
            failed, answer = await s.tool("start_task", body)
            assert failed and answer["error"]["code"] == "INVALID_REQUEST", answer
            assert answer["error"]["at"] == f"facts.{bad_name}"
            assert bad not in json.dumps(answer)
        assert site.received == []

        body = {"flow": flow, "facts": facts, "notify": {"url": demo.url + "hook"}}
        status, view = await s.call("start_task", body)
        assert status == 200, view
        status, done = await s.call("await_task", {"id": view["id"], "timeout_ms": 90_000})
        assert done["status"]["state"] == "done", done
        [got] = site.received
        assert near(SHORT, got["first"]) and near(OTHER_SHORT, got["second"])
        assert near(LONG, got["third"])
        _, mcp_view = await s.tool("await_task", {"id": view["id"], "timeout_ms": 1})
        _, report = await s.call("task_report", {"id": view["id"]})
        story = (await s.http.get(f"/v1/tasks/{view['id']}/report")).text
        events = (await s.http.get(f"/v1/tasks/{view['id']}/events")).text
        saved = await s.http.post("/v1/flows", json={"name": "verify", "task_id": view["id"]})
        assert saved.status_code == 201, saved.text
        shown = (await s.http.get("/v1/flows/verify")).text
        async with asyncio.timeout(30):
            await site.hooked.wait()
        seen = "".join(
            [json.dumps(done), json.dumps(mcp_view), json.dumps(report), story, events, shown]
            + [json.dumps(r) for r in site.received]
            + [h.decode() for h in site.hooks]
        )
        assert [c for c in canaries if c in seen] == []
        assert "${totp seed}" in shown
    assert s.leaked(*canaries) == []
