"""A webhook address the operator's rules do not allow is refused at the start (a bad
port as a request's error), a delivery's signature is HMAC-SHA256 over the timestamp
and the body, and a delivery connects to the address that was judged: a name that
answers a public address when judged and loopback to a second lookup (DNS rebinding)
never reaches loopback."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import socket
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from gofer.demo import DemoServer
from gofer.errors import GoferError
from gofer.store import Claim
from gofer.store.ledger import TaskRecord
from gofer.surfaces.addresses import Resolved
from gofer.tasks import ScriptedRunner, Tasks, notify
from gofer.tasks.book import TaskBook
from gofer.tasks.contract import NotifySpec, TaskView
from gofer.tasks.notify import Notifier, check_notify, sign
from gofer.tasks.state import Done
from gofer.wiring import store_for

FLOW = [{"browse": "https://shop.example.com/"}]


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:9/hook", "http://169.254.169.254/latest", "ftp://example.com/x"],
)
async def test_a_private_or_odd_webhook_address_is_refused_unless_allowed(url: str) -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        with pytest.raises(GoferError) as refused:
            await tasks.start_task({"flow": FLOW, "notify": {"url": url}})
        assert refused.value.code == "INVALID_REQUEST"
        assert (await tasks.list_tasks()).tasks == []
    if url.startswith("http://127."):
        async with Tasks(ScriptedRunner(), notify_private=True) as tasks:
            view = await tasks.start_task({"flow": FLOW, "notify": {"url": url}})
            assert view.status.state == "running"


def test_the_signature_covers_the_timestamp_and_the_body() -> None:
    body = b'{"delivery": "d1"}'
    header = sign("s3cret", 1_700_000_000, body)
    t, v1 = (part.split("=", 1)[1] for part in header.split(","))
    assert t == "1700000000"
    expected = hmac.new(b"s3cret", b"1700000000." + body, hashlib.sha256).hexdigest()
    assert v1 == expected
    assert sign("s3cret", 1_700_000_001, body) != header


# DNS rebinding ---------------------------------------------------------------------


@dataclass
class Receiver:
    got: list[dict[str, str]] = field(default_factory=list)

    async def hook(self, request: Request) -> Response:
        self.got.append(dict(request.headers))
        return JSONResponse({"ok": True})


class Recording(httpx.AsyncBaseTransport):
    """The real transport, except that a request for ``PUBLIC`` is answered here (the
    test never connects out): what each request was sent to is kept."""

    def __init__(self) -> None:
        self.real = httpx.AsyncHTTPTransport()
        self.sent: list[tuple[str, str, object]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        sni = request.extensions.get("sni_hostname")
        self.sent.append((request.url.host, request.headers["host"], sni))
        if request.url.host == PUBLIC:
            return httpx.Response(200, json={"ok": True})
        return await self.real.handle_async_request(request)

    async def aclose(self) -> None:
        await self.real.aclose()


PUBLIC = "93.184.216.34"


async def deliver(url: str, allow_private: bool, transport: Recording, tmp_path: Path) -> str:
    """One delivery of a task's end to ``url``, by a real Notifier over a SQLite store:
    ``"delivered"`` or why not."""
    async with store_for(str(tmp_path / "gofer.db")) as db:
        book = TaskBook(db, time.time)
        record = TaskRecord(
            id="task-1",
            owner="alice",
            title="t",
            request={"flow": FLOW, "notify": {"url": url, "secret": "s3cret"}},
            created_at=time.time(),
        )
        async with db.transaction() as tx:
            await book.ledger.add_task(record, tx=tx)
        view = TaskView(
            id="task-1",
            status=Done(answer="Finished.", records={}),
            summary="Finished.",
            step=None,
            progress=1.0,
            next=[],
        )
        payload = {"task_id": "task-1", "owner": "alice", "delivery": "d1", "view": view}
        claim = Claim(1, "notify", payload, None, "alice", 1, 4, "w", "tok", 60_000)
        notifier = Notifier(db, book.ledger, allow_private=allow_private, transport=transport)
        error = await notifier._tries(claim)
    return error or "delivered"


async def test_a_delivery_connects_to_the_address_that_was_judged_never_a_second_lookup(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    receiver = Receiver()
    app = Starlette(routes=[Route("/hook", receiver.hook, methods=["POST"])])
    real = asyncio.get_running_loop().getaddrinfo
    answers = {"judged": PUBLIC, "again": "127.0.0.1"}
    judging = False

    async def rebinding(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host in ("rebind.test", b"rebind.test"):
            # One answer while gofer judges the name, another to a second lookup.
            return await real(answers["judged" if judging else "again"], port, *args, **kwargs)
        return await real(host, port, *args, **kwargs)

    blocking = socket.getaddrinfo

    def rebinding_blocking(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host in ("rebind.test", b"rebind.test"):
            return blocking(answers["again"], port, *args, **kwargs)
        return blocking(host, port, *args, **kwargs)

    original = notify.resolve

    async def judged(host: str, port: int, allow_private: bool) -> Resolved:
        nonlocal judging
        judging = True
        try:
            return await original(host, port, allow_private)
        finally:
            judging = False

    monkeypatch.setattr(asyncio.get_running_loop(), "getaddrinfo", rebinding)
    monkeypatch.setattr(socket, "getaddrinfo", rebinding_blocking)
    monkeypatch.setattr(notify, "resolve", judged)
    async with DemoServer(app=app) as site:
        port = site.url.rsplit(":", 1)[1].strip("/")
        url = f"http://rebind.test:{port}/hook"
        await check_notify(NotifySpec(url=url), allow_private=False)  # judged public
        transport = Recording()
        assert await deliver(url, False, transport, tmp_path) == "delivered"
        assert receiver.got == [], "the loopback receiver got the POST"
        assert transport.sent == [(PUBLIC, f"rebind.test:{port}", "rebind.test")]

        # Allowed to reach loopback, the delivery dials the judged address for real,
        # and the receiver reads its own name in Host.
        answers["judged"] = "127.0.0.1"
        transport = Recording()
        assert await deliver(url, True, transport, tmp_path / "second") == "delivered"
        [headers] = receiver.got
        assert headers["host"] == f"rebind.test:{port}"
        assert headers["gofer-delivery"] == "d1"


@pytest.mark.parametrize("url", ["http://example.com:99999/", "http://example.com:ab/"])
async def test_a_webhook_address_with_a_bad_port_is_refused_as_a_request(url: str) -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        with pytest.raises(GoferError) as refused:
            await tasks.start_task({"flow": FLOW, "notify": {"url": url}})
    assert refused.value.code == "INVALID_REQUEST"
    assert refused.value.to_dict()["at"] == "notify.url"


# supervision -----------------------------------------------------------------------


async def test_an_unexpected_error_in_a_delivery_is_reported_and_delivery_goes_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    receiver = Receiver()
    app = Starlette(routes=[Route("/hook", receiver.hook, methods=["POST"])])
    real_sign = notify.sign
    calls: list[int] = []

    def broken_once(secret: str, timestamp: int, body: bytes) -> str:
        calls.append(timestamp)
        if len(calls) == 1:
            raise RuntimeError("injected-" + "message")  # the message itself is not logged
        return real_sign(secret, timestamp, body)

    monkeypatch.setattr(notify, "sign", broken_once)
    async with (
        DemoServer(app=app) as site,
        store_for(str(tmp_path / "gofer.db")) as db,
        Tasks(ScriptedRunner(), store=db, notify_private=True) as tasks,
    ):
        spec = {"url": site.url + "hook", "secret": "s3cret"}
        view = await tasks.start_task({"flow": FLOW, "notify": spec})
        await tasks.await_task({"id": view.id, "timeout_ms": 5000})
        async with asyncio.timeout(20):
            while not receiver.got:
                await asyncio.sleep(0.05)
        assert tasks.healthy
    assert "failed with RuntimeError" in caplog.text and "injected-message" not in caplog.text
    assert len(calls) >= 2 and len(receiver.got) == 1


async def test_a_delivery_loop_that_dies_ends_the_process_loudly(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(notify, "NOTIFY_KIND", "not-a-kind-of-the-order")
    async with (
        store_for(str(tmp_path / "gofer.db")) as db,
        Tasks(ScriptedRunner(), store=db) as tasks,
    ):
        with pytest.raises(GoferError) as ended:
            async with asyncio.timeout(10):
                await tasks.serve(asyncio.Event())
        assert ended.value.code == "WORKER_FAILED"
        assert not tasks.healthy
    assert "the delivery loop failed with ValueError" in caplog.text
