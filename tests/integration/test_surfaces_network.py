"""What a browser session can reach, on real Chromium and local sites: redirects and
WebSockets held to the origins, private addresses refused unless the operator allows
them, only http(s) pages, and a page that never answers replaced by a fresh one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from gofer.errors import BlockedAddress, BlockedOrigin, SurfaceError
from gofer.surfaces import BrowserEngine, BrowserOptions, BrowserPolicy
from gofer.surfaces.gate import Gate, Refusal

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def server_engine() -> AsyncIterator[BrowserEngine]:
    """A browser as a server face launches it: the operator's default policy."""
    async with BrowserEngine(policy=BrowserPolicy()) as eng:
        yield eng


async def test_a_redirect_out_of_the_origins_is_blocked(
    engine: BrowserEngine, make_site: Any
) -> None:
    home, other = make_site(), make_site()
    other.add("/landing", "<h1>OUTSIDE ORIGIN CONTENT</h1>")
    home.add("/redir", "", status=302, headers={"Location": other.url("/landing")})
    surface = await engine.new_session(BrowserOptions(origins=(home.origin,)))
    try:
        with pytest.raises(BlockedOrigin) as err:
            await surface.goto(home.url("/redir"))
        assert err.value.details["url"] == other.url("/landing")
        assert "OUTSIDE ORIGIN CONTENT" not in (await surface.snapshot()).text
        assert other.hits == []
    finally:
        await surface.close()


async def test_a_websocket_out_of_the_origins_never_connects(
    engine: BrowserEngine, make_site: Any
) -> None:
    home, other = make_site(), make_site()
    home.add(
        "/",
        "<h1>Home</h1><script>const ws = new WebSocket("
        f"'ws://127.0.0.1:{other.port}/ws-exfil?d=secret');"
        "ws.onerror = () => { document.title = 'socket failed'; };</script>",
    )
    surface = await engine.new_session(BrowserOptions(origins=(home.origin,)))
    try:
        await surface.goto(home.url("/"))
        await surface.page.wait_for_function("document.title === 'socket failed'")
        assert other.hits == []
        assert any(str(other.port) in url for url in surface.blocked)
    finally:
        await surface.close()


async def test_typing_waits_for_a_page_inside_the_origins(
    engine: BrowserEngine, make_site: Any
) -> None:
    home = make_site()
    home.add("/", "<label>PIN <input id='pin'></label>")
    surface = await engine.new_session(BrowserOptions(origins=(home.origin,)))
    try:
        await surface.goto(home.url("/"))
        ref = next(e.ref for e in (await surface.snapshot()).elements if e.name == "PIN")
        # A page script moves the task elsewhere behind the runtime's back.
        await surface.page.evaluate("history.replaceState(null, '', '/')")
        await surface.fill(ref, "1234")
        surface.origins = ("http://elsewhere.example",)
        with pytest.raises(BlockedOrigin):
            await surface.fill(ref, "5678")
        assert await surface.read_value(ref) == "1234"
    finally:
        await surface.close()


@pytest.mark.parametrize(
    "address",
    ["file:///etc/passwd", "chrome://version", "view-source:http://example.com/", "data:,hi"],
)
async def test_only_http_pages_load(engine: BrowserEngine, address: str) -> None:
    surface = await engine.new_session()
    try:
        with pytest.raises(BlockedAddress) as err:
            await surface.goto(address)
        assert err.value.code == "BLOCKED_ADDRESS"
        assert surface.url == "about:blank"
    finally:
        await surface.close()


async def test_loopback_is_refused_unless_the_operator_allows_it(
    server_engine: BrowserEngine, engine: BrowserEngine, site: Any
) -> None:
    site.add("/", "<h1>internal</h1>")
    surface = await server_engine.new_session()
    try:
        for address in (site.url("/"), f"http://localhost:{site.port}/"):
            with pytest.raises(BlockedAddress) as err:
                await surface.goto(address)
            assert "loopback" in err.value.message
        assert site.hits == []
    finally:
        await surface.close()
    allowed = await engine.new_session()
    try:
        await allowed.goto(site.url("/"))
        assert "internal" in (await allowed.snapshot()).text
    finally:
        await allowed.close()


async def test_the_gate_refuses_private_hosts_and_forwards_the_rest(site: Any) -> None:
    site.add("/", "<h1>through the gate</h1>")
    refusals: list[Refusal] = []

    async def get(gate: Gate) -> bytes:
        proxy = (await gate.start()).rsplit(":", 1)[1]
        reader, writer = await asyncio.open_connection("127.0.0.1", int(proxy))
        writer.write(f"GET {site.url('/')} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        answer = await reader.read()
        writer.close()
        await gate.close()
        return answer

    refused = await get(Gate((), allow_private=False, on_refused=refusals.append))
    assert refused.startswith(b"HTTP/1.1 403")
    assert [(r.port, r.code) for r in refusals] == [(site.port, "BLOCKED_ADDRESS")]
    assert site.hits == []
    passed = await get(Gate((), allow_private=True, on_refused=refusals.append))
    assert passed.startswith(b"HTTP/1.0 200") and b"through the gate" in passed
    assert site.hits == ["/"]


async def test_a_page_that_never_answers_is_replaced(engine: BrowserEngine, site: Any) -> None:
    site.add("/", "<h1>Busy</h1><button onclick='for (;;) {}'>Spin</button>")
    surface = await engine.new_session(BrowserOptions(default_timeout_ms=2_000))
    try:
        await surface.goto(site.url("/"))
        spin = next(e.ref for e in (await surface.snapshot()).elements if e.name == "Spin")
        loop = asyncio.get_running_loop()
        started = loop.time()
        with pytest.raises(SurfaceError) as err:
            await surface.click(spin)
        assert err.value.code == "PAGE_UNRESPONSIVE"
        assert loop.time() - started < 10
        assert surface.url == "about:blank" and surface.pages == 1
        await surface.goto(site.url("/"))
        assert "Busy" in (await surface.snapshot()).text
    finally:
        await surface.close()


async def test_an_endless_run_of_dialogs_is_bounded(engine: BrowserEngine, site: Any) -> None:
    site.add(
        "/",
        "<h1>Alerts</h1><button onclick=\"for (;;) alert('x'.repeat(1000))\">Nag</button>",
    )
    surface = await engine.new_session(BrowserOptions(default_timeout_ms=2_000))
    try:
        await surface.goto(site.url("/"))
        nag = next(e.ref for e in (await surface.snapshot()).elements if e.name == "Nag")
        with pytest.raises(SurfaceError) as err:
            await surface.click(nag)
        assert err.value.code == "PAGE_UNRESPONSIVE"
        assert 0 < len(surface.dialog_messages) <= 20
        assert surface.url == "about:blank"
    finally:
        await surface.close()


async def test_a_browser_endpoint_the_operator_did_not_list_is_refused(
    server_engine: BrowserEngine, site: Any
) -> None:
    with pytest.raises(SurfaceError) as err:
        await server_engine.new_session(BrowserOptions(browser_endpoint=site.url("/")))
    assert err.value.code == "BROWSER_ENDPOINT_REFUSED"
    assert site.hits == []
