"""Attaching to a person's running Chromium over CDP, and leaving it running."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from gofer.surfaces import CHROMIUM_ARGS, NO_SANDBOX, BrowserEngine, BrowserOptions, find_chromium

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.browser]


@pytest_asyncio.fixture(loop_scope="session")
async def running_chrome(tmp_path: Path) -> AsyncIterator[tuple[str, asyncio.subprocess.Process]]:
    """A Chromium started the way a person would, with a DevTools port; killed afterwards."""
    proc = await asyncio.create_subprocess_exec(
        find_chromium(),
        *CHROMIUM_ARGS,
        *([NO_SANDBOX] if os.geteuid() == 0 else []),  # the test's own browser, as root
        "--headless=new",
        "--remote-debugging-port=0",
        f"--user-data-dir={tmp_path / 'profile'}",
        "about:blank",
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    assert proc.stderr is not None
    endpoint = ""
    async with asyncio.timeout(30):
        while not endpoint:
            line = (await proc.stderr.readline()).decode()
            assert line, "Chromium exited before it listened for DevTools"
            found = re.search(r"DevTools listening on (ws://\S+)", line)
            endpoint = found.group(1) if found else ""
    drain = asyncio.ensure_future(proc.stderr.read())
    try:
        yield endpoint, proc
    finally:
        if proc.returncode is None:
            proc.terminate()
        await proc.wait()
        await drain


async def test_attach_then_close_only_disconnects(
    engine: BrowserEngine, site: Any, running_chrome: tuple[str, asyncio.subprocess.Process]
) -> None:
    endpoint, proc = running_chrome
    site.add("/", "<h1>Attached</h1><button>Go</button>")
    options = BrowserOptions(browser_endpoint=endpoint, origins=(site.origin,))
    surface = await engine.new_session(options)
    await surface.goto(site.url("/"))
    assert "Attached" in (await surface.snapshot()).text
    await surface.close()

    assert proc.returncode is None  # the person's browser is still running
    again = await engine.new_session(BrowserOptions(browser_endpoint=endpoint))
    try:
        await again.goto(site.url("/"))
        assert "Go" in [el.name for el in (await again.snapshot()).elements]
    finally:
        await again.close()
    assert proc.returncode is None


async def test_attach_to_nothing_fails_clearly(engine: BrowserEngine) -> None:
    from gofer.errors import SurfaceError

    with pytest.raises(SurfaceError) as err:
        await engine.new_session(
            BrowserOptions(browser_endpoint="http://127.0.0.1:9", default_timeout_ms=3000)
        )
    assert err.value.code == "BROWSER_ATTACH_FAILED"
