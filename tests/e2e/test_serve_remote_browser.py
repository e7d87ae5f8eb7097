"""``gofer serve --browser-endpoint``: the demo booking runs in a remote Chromium (a
second local one with a DevTools port, standing in for a fleet), and the server
launches none. The remote dies in the middle of a turn: that task fails at its step
the way it does when a local Chromium crashes, and once the remote is back on the
same port the next task connects again and books. Judged by the demo site's records
and by the pages the remote itself hosts. A served task's downloads in the remote come
back to their owner whole."""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from pypdf import PdfWriter
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from gofer.cli import DEMO_FACTS, demo_flow
from gofer.demo import DemoServer
from gofer.demo.app import create_app
from gofer.store.sqlite import SQLiteConnector
from gofer.tasks import ScriptedRunner, Tasks

from .conftest import Pages
from .fleet import Fleet
from .hardened import served
from .serve import gofer, killed, start_serve, start_worker
from .test_serve_restart import call, client

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@dataclass
class Held:
    """While ``armed``, the passenger form sent is held away from the site until
    ``release`` is set, then answered 503 (its browser is gone by then)."""

    armed: bool = False
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    release: asyncio.Event = field(default_factory=asyncio.Event)


class Holding:
    """ASGI middleware putting a :class:`Held` in front of an app."""

    def __init__(self, app: ASGIApp, held: Held) -> None:
        self.app = app
        self.held = held

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        held = self.held
        form = scope["type"] == "http" and (scope["method"], scope["path"]) == (
            "POST",
            "/passengers",
        )
        if held.armed and form:
            held.reached.set()
            await held.release.wait()
            await PlainTextResponse("gone", status_code=503)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def launched_chromium(root: int) -> list[int]:
    """The Chromium processes under ``root`` (a browser's processes are named chromium or
    chrome, whatever wrapper script launched them)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            todo.append(child)
            try:
                name = Path(f"/proc/{child}/comm").read_text().strip()
            except OSError:
                continue
            if name.startswith("chrom"):
                found.append(child)
    return found


async def booked(http: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    """Start the booking and wait until it stops."""
    view = await call(http, "start_task", body)
    for _ in range(4):
        if view["status"]["state"] != "running":
            break
        view = await call(http, "await_task", {"id": view["id"], "timeout_ms": 60_000})
    return view


async def test_a_served_booking_runs_in_the_remote_browser_and_survives_its_restart(
    tmp_path: Path,
) -> None:
    held = Held()
    app = create_app(seed=7)
    app.add_middleware(Holding, held=held)
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path),
        "GOFER_DB": str(tmp_path / "gofer.db"),
        "GOFER_TOKENS": str(tmp_path / "tokens.db"),
        "PYTHONUNBUFFERED": "1",
    }
    code, out, err = await gofer("token", "create", "--owner", "alice", "--json", env=env)
    assert code == 0, err
    token = json.loads(out)["token"]
    fleet = Fleet()
    await fleet.start()
    try:
        async with DemoServer(app=app) as demo:

            def booking(mobile: str) -> dict[str, Any]:
                return {
                    "flow": demo_flow(demo.url),
                    "facts": {**DEMO_FACTS, "mobile number": mobile},
                    "constraints": {"origins": [demo.url.rstrip("/")]},
                }

            server = await start_serve(
                env, "--allow-private", "--browser-endpoint", fleet.endpoint, own_session=True
            )
            try:
                async with client(server, token) as http:
                    # 1. booked to the payment checkpoint, its page hosted by the remote
                    first = await booked(http, booking("9000000001"))
                    assert first["status"]["state"] == "checkpoint", first
                    hosted = [t["url"] for t in await fleet.targets()]
                    assert any(u.startswith(demo.url) for u in hosted), hosted
                    assert launched_chromium(server.proc.pid) == [], "gofer launched no browser"
                    report = await call(http, "task_report", {"id": first["id"]})
                    shot = await http.get(
                        f"/v1/tasks/{first['id']}/artifacts/{report['artifacts'][0]['name']}"
                    )
                    assert shot.content.startswith(b"\x89PNG"), "a screenshot of the remote page"
                    await call(http, "cancel_task", {"id": first["id"]})
                    hosted = [t["url"] for t in await fleet.targets()]
                    assert not any(u.startswith(demo.url) for u in hosted), (
                        "the released task's context is gone from the remote"
                    )

                    # 2. the remote dies while a turn waits on the passenger form
                    held.armed = True
                    cut = await call(http, "start_task", booking("9000000002"))
                    async with asyncio.timeout(60):
                        await held.reached.wait()
                    await fleet.kill()
                    held.release.set()
                    view = cut
                    for _ in range(4):
                        wait = {"id": cut["id"], "timeout_ms": 60_000}
                        view = await call(http, "await_task", wait)
                        if view["status"]["state"] != "running":
                            break
                    held.armed = False
                    status = view["status"]
                    assert (status["state"], status["recoverable"]) == ("failed", True), view
                    assert status["reason"] == "the browser session has no open page"

                    # 3. back on the same port: the next task connects again and books
                    await fleet.start()
                    again = await booked(http, booking("9000000003"))
                    assert again["status"]["state"] == "checkpoint", again
                    hosted = [t["url"] for t in await fleet.targets()]
                    assert any(u.startswith(demo.url) for u in hosted), hosted
                    await call(http, "cancel_task", {"id": again["id"]})
                assert launched_chromium(server.proc.pid) == []
            finally:
                await killed(server.proc)
            logs = "".join(server.logs)
            assert "connected to the remote browser" in logs

        mobiles = [p["mobile"] for p in demo.events_of("passengers")]
        assert "9000000001" in mobiles and "9000000003" in mobiles, mobiles
        assert demo.events_of("payment") == []
    finally:
        await fleet.kill()


async def test_a_worker_runs_its_tasks_in_the_remote_browser_the_environment_names(
    tmp_path: Path, pages: Pages
) -> None:
    address = pages.add("/remote/checkout", "<h1>Your basket</h1><button>Pay now</button>")
    db = tmp_path / "gofer.db"
    fleet = Fleet()
    await fleet.start()
    env = {**os.environ, "GOFER_DB": str(db), "GOFER_BROWSER_ENDPOINT": fleet.endpoint}
    worker = (await start_worker(env)).proc
    try:
        async with (
            SQLiteConnector(db) as store,
            Tasks(ScriptedRunner(), store=store, work=False) as tasks,
        ):
            view = await tasks.start_task({"flow": [{"browse": address}, {"click": "Pay now"}]})
            for _ in range(4):
                view = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
                if view.status.state != "running":
                    break
            assert view.status.state == "checkpoint", view
            assert address in [t["url"] for t in await fleet.targets()]
            assert launched_chromium(worker.pid) == [], "the worker launched no browser"
            await tasks.cancel_task({"id": view.id})
    finally:
        await killed(worker)
        await fleet.kill()
    assert "/remote/checkout" in pages.hits


def blank_pdf() -> bytes:
    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


async def test_a_served_task_keeps_what_it_downloads_in_the_remote_browser(
    tmp_path: Path, pages: Pages
) -> None:
    """An export sent as an attachment (saved on the remote's side) and an invoice PDF
    opened in a new tab (the remote Chrome's PDF viewer): the owner gets both back over
    HTTP, the bytes the site served, from a server that launched no browser."""
    csv = b"month,total\r\nFebruary,98.50\r\nMarch,41.50\r\n"
    pdf = blank_pdf()
    export = pages.document(
        "/remote/files/export", csv, "text/csv", 'attachment; filename="export-march.csv"'
    )
    invoice = pages.document(
        "/remote/files/invoice", pdf, "application/pdf", 'inline; filename="invoice-7.pdf"'
    )
    home = pages.add(
        "/remote/files/account",
        f'<h1>Account</h1><a href="{export}">Export CSV</a> '
        f'<a href="{invoice}" target="_blank">Invoice 7</a>',
    )
    flow = [
        {"browse": home},
        {"download": "Export CSV", "as": "export"},
        {"download": "Invoice 7", "as": "invoice"},
        {"read": "the total of March", "from": "export", "as": "march"},
    ]
    fleet = Fleet()
    await fleet.start()
    try:
        async with served(tmp_path / "store", "--browser-endpoint", fleet.endpoint) as s:
            code, view = await s.call("start_task", {"flow": flow})
            assert code == 200, view
            code, done = await s.call("await_task", {"id": view["id"], "timeout_ms": 120_000})
            assert done["status"]["state"] == "done", done
            assert done["status"]["records"]["march"] == "41.50", done
            for name, data in (("export", csv), ("invoice", pdf)):
                got = await s.http.get(f"/v1/tasks/{view['id']}/files/{name}")
                assert got.status_code == 200, got.text
                assert hashlib.sha256(got.content).digest() == hashlib.sha256(data).digest()
            assert launched_chromium(s.server.proc.pid) == [], "gofer launched no browser"
    finally:
        await fleet.kill()
