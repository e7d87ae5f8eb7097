"""Component kits as sites ship them (tools/corpus/kits.sh): Mantine, PrimeReact, Material
UI, Ant Design, Naive UI, Vuetify, Element Plus, Shoelace, Bootstrap with tom-select
and flatpickr, Chakra UI, PrimeVue, Quasar, React Aria Components, Fluent UI React v9,
Vaadin, Ionic and Blueprint, each drawing one
generated trip-request form with every widget kind a form uses, captioned by the kit's
own labels or (``captions=bare``) by text tied to nothing. Served by :mod:`..bundles`;
the forms post what their widgets hold (dates as YYYY-MM-DD, times as HH:MM, several
choices joined by commas)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from ..bundles import Library, Page, serving

KITS = (
    "mantine",
    "primereact",
    "elementplus",
    "shoelace",
    "bootstrap",
    "antd",
    "naiveui",
    "mui",
    "vuetify",
    "chakra",
    "primevue",
    "quasar",
    "reactaria",
    "fluent",
    "vaadin",
    "ionic",
    "blueprint",
)
PAGES = {kit: Page("Trip request", "en-GB") for kit in KITS}


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def kits() -> AsyncIterator[Library]:
    async with serving("kits", PAGES, ("Request sent", "We have your trip request.")) as site:
        yield site
