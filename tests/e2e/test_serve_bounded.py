"""A real ``gofer serve`` under the review's heavy requests: one caller's big facts never
stall another's ``/health``, a 60 KB fact is refused by name, and what the server
writes to disk and to its log holds no fact value. Plain-language tasks need no
browser (with no model configured they wait for a plan)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import stat
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import pytest
import pytest_asyncio

from .serve import Started, start_serve
from .test_api_serve import gofer

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def server(
    tmp_path: Path, served: Callable[[str | bytes], None]
) -> AsyncIterator[tuple[Started, str, Path]]:
    root = tmp_path / "data"
    env = {
        **os.environ,
        "XDG_DATA_HOME": str(tmp_path),
        "GOFER_DB": str(root / "gofer.db"),
        "GOFER_TOKENS": str(root / "tokens.db"),
        "PYTHONUNBUFFERED": "1",
    }
    code, out, err = await gofer("token", "create", "--owner", "carol", "--json", env=env)
    assert code == 0, err
    started = await start_serve(env)
    try:
        yield started, str(json.loads(out)["token"]), root
    finally:
        started.proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):
            await started.proc.wait()
        await started.draining
        for line in started.logs:
            served(line)


async def slowest_health(http: httpx.AsyncClient, busy: asyncio.Task[httpx.Response]) -> float:
    """The longest ``/health`` took while ``busy`` ran (asked every 20 ms)."""
    slowest = 0.0
    while not busy.done():
        began = time.perf_counter()
        assert (await http.get("/health")).status_code == 200
        slowest = max(slowest, time.perf_counter() - began)
        await asyncio.sleep(0.02)
    return slowest


async def test_big_facts_never_stall_the_server_and_a_60_kb_fact_is_refused_by_name(
    server: tuple[Started, str, Path], canary: Callable[[str], str]
) -> None:
    started, token, root = server
    big = canary("4" * 60_000)
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx.AsyncClient(base_url=started.url, headers=headers, timeout=120) as caller,
        httpx.AsyncClient(base_url=started.url, timeout=10) as other,
    ):
        refusing = asyncio.create_task(
            caller.post(
                "/v1/tasks",
                json={"instruction": "Pay the bill", "facts": {"account number": big}},
            )
        )
        slowest = await slowest_health(other, refusing)
        refused = await refusing
        assert refused.status_code == 422
        assert refused.json()["error"]["code"] == "INVALID_REQUEST"
        assert "account number" in refused.json()["error"]["message"]
        assert "4444444444" not in refused.text
        assert slowest < 1.0, f"/health stalled {slowest:.2f} s"
        # The most one request may hand over: 100 facts of 4 KB, every one a number.
        values = {f"account number {i}": canary(str(10**4095 + i)) for i in range(100)}
        starting = asyncio.create_task(
            caller.post(
                "/v1/tasks",
                json={
                    "instruction": "Pay every bill: " + " ".join(list(values.values())[:3]),
                    "facts": values,
                    "secret_facts": list(values),
                },
            )
        )
        slowest = await slowest_health(other, starting)
        made = await starting
        assert made.status_code == 201, made.text
        assert slowest < 1.0, f"/health stalled {slowest:.2f} s"
        assert made.headers["cache-control"] == "no-store"
        title = made.json()["title"]
        assert "‹account number 0›" in title and "1000" not in title
    held = b"".join(p.read_bytes() for p in root.iterdir() if p.is_file())
    assert str(10**4095).encode()[:200] not in held, "no fact value is on disk in clear"
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    assert {stat.S_IMODE(p.stat().st_mode) for p in root.iterdir()} == {0o600}
