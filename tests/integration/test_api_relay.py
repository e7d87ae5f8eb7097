"""Take-over from any server, over real HTTP and WebSocket on every store: a holder
(a controller whose worker runs the task, with its live endpoint) and a server that
runs no turns (``work=False``) on the same database. The server relays the owner's
live view from the holder: the protocol as it is on the holder (frames, focus, input,
dialogs, "ended"), the owner's checks on the server, the holder's credential check,
and LIVE_UNAVAILABLE when the holder cannot be reached."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import json
import ssl
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from live_script import SIGN_IN, bearer, click_and_type, hand_back, message, walled
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake, InvalidStatus

from gofer.api import GoferServer, MemoryTokenStore
from gofer.api.relay import LiveEndpoint, parse_live_address
from gofer.errors import ApiError
from gofer.store import Connector
from gofer.store.holders import LiveHolder, LiveHolders
from gofer.surfaces import Box, Element, Screen, TextLine
from gofer.surfaces.live import LiveDialog
from gofer.surfaces.testing import FakeSurface
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.relay import RELAY_CREDENTIAL, RELAY_OWNER

HOLDER = "worker-holder"


@dataclass
class Relayed:
    server: GoferServer
    runner: ScriptedRunner
    holder: Tasks
    endpoint: LiveEndpoint
    stack: AsyncExitStack
    db: Connector
    alice: str
    bob: str

    def ws(self, task_id: str) -> str:
        return self.server.url.replace("http://", "ws://") + f"/tasks/{task_id}/live/socket"

    def http(self, token: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.server.url, headers=bearer(token), timeout=30)


@pytest_asyncio.fixture
async def relayed(db: Connector, other: Connector) -> AsyncIterator[Relayed]:
    tokens = MemoryTokenStore()
    alice, bob = (await tokens.create("alice")).token, (await tokens.create("bob")).token
    runner = ScriptedRunner()
    async with AsyncExitStack() as outer:
        holder = await outer.enter_async_context(Tasks(runner, store=db, worker_id=HOLDER))
        relaying = await outer.enter_async_context(Tasks(ScriptedRunner(), store=other, work=False))
        server = await outer.enter_async_context(GoferServer(relaying, tokens))
        async with AsyncExitStack() as inner:
            endpoint = await inner.enter_async_context(LiveEndpoint(holder, "127.0.0.1", 0))
            yield Relayed(server, runner, holder, endpoint, inner, db, alice, bob)


async def test_the_owner_drives_a_browser_held_elsewhere_through_the_server(
    relayed: Relayed,
) -> None:
    task_id = await walled(relayed)
    face = relayed.runner.faces[task_id]
    board = LiveHolders(relayed.db)
    held = await board.get(task_id, now=time.time())
    assert held is not None and held.holder == HOLDER
    assert held.address == relayed.endpoint.address
    async with relayed.http(relayed.alice) as http:
        answer = await http.get(f"/v1/tasks/{task_id}")
    assert answer.status_code == 200

    async with connect(relayed.ws(task_id), additional_headers=bearer(relayed.alice)) as ws:
        await click_and_type(ws, face)

        # the page's dialog reaches the person, and their answer the page
        live = face.views[-1]
        live.show_dialog(LiveDialog("confirm", "Leave this page?"))
        assert await message(ws) == {
            "type": "dialog",
            "kind": "confirm",
            "message": "Leave this page?",
            "default": "",
        }
        await ws.send(json.dumps({"type": "dialog", "accept": True}))
        async with asyncio.timeout(10):
            await live.until(lambda: bool(live.answers))
        assert live.answers == [(True, "")]

        # input that does not fit is answered by the holder, and the view goes on
        await ws.send(json.dumps({"type": "pointer", "action": "down", "x": 7, "y": 0}))
        assert (await message(ws))["code"] == "INVALID_INPUT"

        # handing back on the server: the holder's worker runs the turn, the view ends
        await hand_back(ws, relayed, task_id)
    view = await relayed.holder.for_owner("alice").await_task({"id": task_id})
    assert view.status.state == "done"
    assert await board.get(task_id, now=time.time()) is None, "the hold came off the board"


async def test_the_server_checks_the_owner_and_the_holder_checks_the_server(
    relayed: Relayed,
) -> None:
    task_id = await walled(relayed)
    with pytest.raises(InvalidStatus) as refused:
        async with connect(relayed.ws(task_id), additional_headers=bearer(relayed.bob)):
            pass
    assert refused.value.response.status_code == 404

    endpoint = f"ws://{relayed.endpoint.address}/live/{task_id}"
    for headers in (
        {RELAY_OWNER: "alice", RELAY_CREDENTIAL: "9999999999." + "0" * 64},
        {RELAY_OWNER: "alice", RELAY_CREDENTIAL: "1." + "0" * 64},
        {RELAY_OWNER: "alice"},
        {},
    ):
        with pytest.raises(InvalidStatus) as forged:
            async with connect(endpoint, additional_headers=headers, proxy=None):
                pass
        assert forged.value.response.status_code == 401
        assert b"UNAUTHORIZED" in (forged.value.response.body or b"")

    # a credential opens one view: a copy of it (seen on the network) opens none
    relaying = Tasks(ScriptedRunner(), store=relayed.db, work=False)
    target = await relaying.for_owner("alice").relay.target(task_id)
    async with connect(endpoint, additional_headers=target.headers, proxy=None):
        pass
    with pytest.raises(InvalidStatus) as replayed:
        async with connect(endpoint, additional_headers=target.headers, proxy=None):
            pass
    assert replayed.value.response.status_code == 401
    await relaying.close()

    # the holder gone: the server says so, and the view is not open
    await relayed.stack.aclose()
    with pytest.raises(InvalidStatus) as gone:
        async with connect(relayed.ws(task_id), additional_headers=bearer(relayed.alice)):
            pass
    assert gone.value.response.status_code == 409
    assert b"LIVE_UNAVAILABLE" in (gone.value.response.body or b"")


async def test_ive_done_it_on_the_server_reads_the_page_at_its_holder(
    relayed: Relayed, monkeypatch: pytest.MonkeyPatch
) -> None:
    task_id = await walled(relayed)
    reads: list[str] = []
    board_read = LiveHolders.get

    async def counted(self: LiveHolders, task_id: str, *, now: float) -> LiveHolder | None:
        reads.append(task_id)
        return await board_read(self, task_id, now=now)

    monkeypatch.setattr(LiveHolders, "get", counted)
    field = Element(
        ref="e1",
        role="textbox",
        name="Password",
        editable=True,
        input_type="password",
        box=Box(10, 30, 200, 20),
    )
    relayed.runner.faces[task_id] = face = FakeSurface(
        Screen(
            "https://shop.example.com/account",
            "Sign in",
            (TextLine("Sign in to continue", Box(10, 0, 200, 20), heading=1),),
            (field, SIGN_IN),
        )
    )
    async with relayed.http(relayed.alice) as http:
        blocked = await http.post("/v1/calls/continue_task", json={"id": task_id})
        assert blocked.status_code == 409, blocked.text
        error = blocked.json()["error"]
        assert error["code"] == "STILL_BLOCKED"
        assert error["message"] == "It is still blocked: the sign-in form is still showing."
        assert len(relayed.runner.requests) == 1, "nothing ran again"

        face.screen = Screen("https://shop.example.com/orders", "Orders", (), ())
        reads.clear()
        going = await http.post("/v1/calls/continue_task", json={"id": task_id})
        assert going.status_code == 200, going.text
        assert reads == [task_id], "the board is read once: for the wall and the next turn"
        done = await http.post("/v1/calls/await_task", json={"id": task_id})
    assert done.json()["status"]["state"] == "done"


def test_a_live_address_is_host_and_port() -> None:
    assert parse_live_address("10.0.0.5:8765") == ("10.0.0.5", 8765)
    assert parse_live_address("[::1]:0") == ("::1", 0)
    for bad in ("10.0.0.5", ":80", "host:port", "host:70000"):
        with pytest.raises(ApiError) as refused:
            parse_live_address(bad)
        assert refused.value.code == "LIVE_ADDRESS_INVALID"


def self_signed(folder: Path) -> tuple[str, str]:
    """A certificate for 127.0.0.1 and its key, as PEM files (the operator's own)."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "gofer live test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "live.pem", folder / "live.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return str(cert_file), str(key_file)


async def test_a_holder_serves_its_live_view_over_tls_to_a_server_that_trusts_it(
    db: Connector, other: Connector, tmp_path: Path
) -> None:
    cert, key = self_signed(tmp_path)
    tokens = MemoryTokenStore()
    alice = (await tokens.create("alice")).token
    runner = ScriptedRunner()
    async with AsyncExitStack() as stack:
        holder = await stack.enter_async_context(Tasks(runner, store=db, worker_id=HOLDER))
        relaying = await stack.enter_async_context(Tasks(ScriptedRunner(), store=other, work=False))
        relaying.relay.trust(ssl.create_default_context(cafile=cert))
        server = await stack.enter_async_context(GoferServer(relaying, tokens))
        endpoint = await stack.enter_async_context(
            LiveEndpoint(holder, "127.0.0.1", 0, tls=(cert, key))
        )
        relayed = Relayed(server, runner, holder, endpoint, stack, db, alice, alice)
        task_id = await walled(relayed)
        assert endpoint.address.startswith("tls://127.0.0.1:")
        async with connect(relayed.ws(task_id), additional_headers=bearer(alice)) as ws:
            ready = await message(ws)
        assert ready["type"] == "ready", ready
        # Plain WebSocket to the holder's port gets nowhere.
        plain = "ws://" + endpoint.address.removeprefix("tls://") + f"/live/{task_id}"
        with pytest.raises((OSError, InvalidHandshake, EOFError)):
            async with connect(plain, proxy=None, open_timeout=5):
                pass
