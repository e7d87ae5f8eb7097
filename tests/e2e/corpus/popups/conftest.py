"""Real libraries that interrupt a step: Ant Design's Select with an option far down its
scrolled list, and tippy.js popovers that open when a field gets focus, installed from npm
and bundled with esbuild by tools/corpus/popups.sh (served by :mod:`..bundles`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from ..bundles import Library, Page, serving

PAGES = {"antd": Page("Shipping"), "tippy": Page("Create your account")}


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def library() -> AsyncIterator[Library]:
    """One server for the session, serving every demo form."""
    async with serving("popups", PAGES, ("Saved", "Thank you, your details were saved.")) as site:
        yield site
