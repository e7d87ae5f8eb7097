"""Component libraries as sites ship them: MUI X date pickers (with MUI and React), Ant
Design, react-datepicker and Vuetify, installed from npm and bundled with esbuild by
tools/corpus/widgets.sh, one demo event form per library (served by :mod:`..bundles`).
The forms post what their widgets hold (dates as YYYY-MM-DD, times as HH:MM)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from ..bundles import Library, Page, serving

# each library's page, in the language it is written in
PAGES = {
    "mui": Page("New event", "en-GB"),
    "antd": Page("New event", "en-US"),
    "datepicker": Page("New event", "en-US"),
    "vuetify": Page("New event", "en-GB"),
}


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def library() -> AsyncIterator[Library]:
    """One server for the session, serving every library's form."""
    async with serving(
        "widgets", PAGES, ("Event saved", "Thank you, your event was saved.")
    ) as site:
        yield site
