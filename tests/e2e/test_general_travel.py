"""A hotel search: a two-month range calendar of bare day cells under captions, month
arrows that are icon buttons, a guests popover with +/− steppers, and results as a
grid of cards with "Load more"."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from gofer.runtime import RunStatus, RuntimeSettings

from .conftest import FAST, Opener, Pages, Runner
from .sites import travel
from .sites.base import Site, serve

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

# The calendar opens on September 2026 (the site's "today" is 20 September 2026).
SEPT = RuntimeSettings(
    target_timeout_ms=FAST.target_timeout_ms,
    settle_timeout_ms=FAST.settle_timeout_ms,
    wait_timeout_ms=FAST.wait_timeout_ms,
    today=travel.TODAY,
)


@pytest_asyncio.fixture(loop_scope="session")
async def hotels() -> AsyncIterator[Site]:
    async with serve(travel.build()) as site:
        yield site


SEARCH = [
    {"enter": "Lisbon", "into": "Where are you going?"},
    {"choose": "14 October", "in": "Check-in date"},
    {"choose": "18 October", "in": "Check-out date"},
    {"click": "Guests"},
    {"click": "+", "within": "Children"},
    {"click": "Increase number of adults"},
    {"click": "Done"},
    {"click": "Search"},
]


async def test_range_calendar_guests_and_load_more(run: Runner, hotels: Site) -> None:
    result = await run(
        {
            "vars": {"hotels": []},
            "steps": [
                {"browse": hotels.url("/")},
                *SEARCH,
                {"verify": {"shows": "Lisbon: 8 properties found"}},
                {
                    "repeat_until": {"not_shows": "Load more results"},
                    "do": [{"click": "Load more results"}],
                },
                {"read": "the hotels", "as": "hotels", "list": True},
                {"click": "See availability", "within": "The Wren"},
                {"verify": {"shows": "Availability"}},
            ],
        },
        settings=SEPT,
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    searches = hotels.sent("/searchresults")
    assert searches == [
        {
            "ss": "Lisbon",
            "checkin": "2026-10-14",
            "checkout": "2026-10-18",
            "group_adults": "3",
            "group_children": "1",
            "group_rooms": "1",
        }
    ]
    assert [s["offset"] for s in hotels.sent("/api/more")] == [4]
    found = result.changed["hotels"]
    assert isinstance(found, list) and len(found) == 8
    texts = [str(h.get("text", "")) if isinstance(h, dict) else "" for h in found]
    assert "Harbour View Hotel" in texts[0] and "The Wren" in texts[-1]
    assert all(isinstance(h, dict) and h.get("price") for h in found)
    assert hotels.sent("/hotel") == [{"name": "The Wren"}]


async def test_read_one_card_of_a_grid_by_its_title(run: Runner, hotels: Site) -> None:
    hotels.state["query"] = {"ss": "Lisbon"}
    result = await run(
        {
            "vars": {"best": ""},
            "steps": [
                {"browse": hotels.url("/searchresults")},
                {"click": "Load more results"},
                {"verify": {"shows": "The Wren"}},
                {"read": "The Wren: name, score and price", "as": "best"},
            ],
        }
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    best = str(result.changed["best"])
    assert "9.4" in best and "$275" in best


async def test_calendar_with_a_delegated_click_listener(run: Runner) -> None:
    async with serve(travel.build(delegated=True)) as site:
        result = await run(
            [
                {"browse": site.url("/")},
                {"enter": "Lisbon", "into": "Where are you going?"},
                {"choose": "14 October", "in": "Check-in date"},
                {"choose": "18 October", "in": "Check-out date"},
                {"click": "Search"},
            ],
            settings=SEPT,
        )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert site.sent("/searchresults")[0]["checkin"] == "2026-10-14"


async def test_a_form_field_named_children(run_open: Opener, pages: Pages) -> None:
    url = pages.add(
        "/general/children",
        """
<form action="/general/children">
  <p><label for="a">Adults</label> <input id="a" name="adults" type="number" value="2"></p>
  <p><label for="c">Children</label> <input id="c" name="children" type="number" value="0"></p>
  <button>Search</button>
</form>""",
    )
    async with run_open([{"browse": url}, {"enter": "1", "into": "Children"}]) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("#c").input_value() == "1"
        assert await done.page.locator("#a").input_value() == "2"
