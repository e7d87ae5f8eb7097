"""The SkyLark demo site in real Chromium: booking by hand, widgets, and every variant."""

from __future__ import annotations

import importlib.util
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, async_playwright, expect

from gofer.demo import DemoServer, format_rupees, search_flights
from gofer.demo.catalog import city_by_code

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="module")]

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
FACTS = {
    "first name": "Asha",
    "last name": "Rao",
    "email": "asha@example.in",
    "mobile number": "9876543210",
}
RESULTS = "flights?from=DEL&to=SXR&date=2026-10-14&trip=oneway&adults=1"


def _load_bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "handwritten.py"
    spec = importlib.util.spec_from_file_location("bench_handwritten", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def site() -> AsyncIterator[DemoServer]:
    async with DemoServer(seed=7) as server:
        yield server


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        yield chromium
        await chromium.close()


@pytest_asyncio.fixture(loop_scope="module")
async def page(browser: Browser) -> AsyncIterator[Page]:
    context = await browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    tab = await context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    await context.close()
    assert errors == []


async def _choose_fare(page: Page, url: str, fare: str = "economy") -> None:
    await page.goto(url + RESULTS)
    card = page.locator(".flight-card").first
    await card.get_by_role("button", name="Select").click()
    async with page.expect_navigation():
        await card.locator(f".fare-{fare} .btn").click()


async def _fill_passenger(page: Page) -> None:
    await page.get_by_label("First name").fill(FACTS["first name"])
    await page.get_by_label("Last name").fill(FACTS["last name"])
    await page.get_by_placeholder("Email").fill(FACTS["email"])
    await page.get_by_label("Mobile number").fill(FACTS["mobile number"])


async def _to_extras(page: Page, url: str) -> None:
    await _choose_fare(page, url)
    await _fill_passenger(page)
    async with page.expect_navigation():
        await page.get_by_role("button", name="Continue").click()
    await expect(page.get_by_role("heading", name="Add extras")).to_be_visible()


async def test_booking_by_hand_stops_on_the_payment_page(page: Page, site: DemoServer) -> None:
    book_by_hand: Callable[[Page, str, dict[str, str]], Awaitable[str]] = _load_bench().book_by_hand
    before = len(site.events_of("passengers"))
    cheapest_text = await book_by_hand(page, site.url, FACTS)

    origin, destination = city_by_code("DEL"), city_by_code("SXR")
    assert origin is not None and destination is not None
    flights = search_flights(7, origin, destination, date(2026, 10, 14))
    best = min(flights, key=lambda f: f.economy)
    price = format_rupees(best.economy)
    assert cheapest_text == f"{best.airline.name}, {best.depart_time}, {price}"
    assert page.url.endswith("/payment")
    await expect(page.get_by_role("button", name=f"Pay now {price}")).to_be_visible()
    await expect(page.get_by_text(f"Total {price}", exact=True)).to_be_visible()
    [passenger] = site.events_of("passengers")[before:]
    assert passenger["first_name"] == "Asha" and passenger["mobile"] == "9876543210"
    assert site.events_of("payment") == []


async def test_city_combobox_filters_as_you_type(page: Page, site: DemoServer) -> None:
    await page.goto(site.url)
    origin = page.get_by_role("combobox", name="From")
    await origin.fill("Srin")
    await expect(origin).to_have_attribute("aria-expanded", "true")
    options = page.locator("#from-list [role=option]:visible")
    await expect(options).to_have_count(1)
    await expect(options).to_have_text("Srinagar (SXR) Sheikh ul-Alam International")
    await origin.press("ArrowDown")
    await origin.press("Enter")
    await expect(origin).to_have_value("Srinagar (SXR)")
    await expect(page.locator("input[name=from]")).to_have_value("SXR")


async def test_date_picker_covers_passengers_and_starts_at_today(
    page: Page, site: DemoServer
) -> None:
    await page.goto(site.url)
    await page.get_by_label("Departure date", exact=True).click()
    calendar = page.get_by_role("dialog", name="Calendar")
    await expect(calendar.get_by_role("heading")).to_have_text("September 2026")
    yesterday = calendar.get_by_role("button", name="Saturday, 19 September 2026")
    await expect(yesterday).to_be_disabled()
    await expect(calendar.get_by_role("button", name="Previous month")).to_be_disabled()
    covered = await page.evaluate(
        """() => {
            const box = document.querySelector('#adults').getBoundingClientRect();
            const top = document.elementFromPoint(box.x + 20, box.y + box.height / 2);
            return !!top.closest('[role=dialog]');
        }"""
    )
    assert covered
    await calendar.get_by_role("button", name="Next month").click()
    await expect(calendar.get_by_role("heading")).to_have_text("October 2026")
    await calendar.get_by_role("button", name="Wednesday, 14 October 2026").click()
    await expect(calendar).to_be_hidden()
    await expect(page.get_by_label("Departure date", exact=True)).to_have_value("Wed, 14 Oct 2026")
    await expect(page.locator("input[name=date]")).to_have_value("2026-10-14")


async def test_round_trip_reveals_return_date(page: Page, site: DemoServer) -> None:
    await page.goto(site.url)
    return_date = page.get_by_label("Return date", exact=True)
    await expect(return_date).to_be_hidden()
    await page.get_by_text("Round trip", exact=True).click()
    await expect(return_date).to_be_visible()


async def test_sorting_reorders_without_reloading(page: Page, site: DemoServer) -> None:
    await page.goto(site.url + RESULTS)
    await page.evaluate("window.stillHere = true")
    prices = page.locator("#flight-list > .flight-card")
    before = [int(p) for p in await prices.evaluate_all("els => els.map(e => e.dataset.price)")]
    await page.get_by_label("Sort by").select_option(label="Lowest price")
    after = [int(p) for p in await prices.evaluate_all("els => els.map(e => e.dataset.price)")]
    assert after == sorted(before) != before
    await page.get_by_label("Sort by").select_option(label="Shortest duration")
    durations = await prices.evaluate_all("els => els.map(e => +e.dataset.duration)")
    assert durations == sorted(durations)
    assert await page.evaluate("window.stillHere") is True


async def test_select_shows_fare_cards_with_role_less_buttons(page: Page, site: DemoServer) -> None:
    await page.goto(site.url + RESULTS)
    card = page.locator(".flight-card").first
    select = card.get_by_role("button", name="Select")
    await select.click()
    await expect(card.get_by_role("button", name="Hide fares")).to_have_attribute(
        "aria-expanded", "true"
    )
    economy = card.locator(".fare-card", has_text="Economy")
    await expect(economy.get_by_text("Select", exact=True)).to_be_visible()
    tag_and_role = await economy.locator(".btn").evaluate(
        "el => [el.tagName, el.getAttribute('role')]"
    )
    assert tag_and_role == ["DIV", None]
    await expect(card.locator(".fare-card", has_text="Premium")).to_be_visible()
    await expect(page.locator(".fare-card:visible")).to_have_count(2)


async def test_cookie_banner_accept_hides_it_for_good(page: Page, site: DemoServer) -> None:
    await page.goto(site.url)
    await page.get_by_role("button", name="Accept").click()
    await expect(page.locator("#cookie-banner")).to_have_count(0)
    await page.reload()
    await expect(page.locator("#cookie-banner")).to_have_count(0)


async def test_captcha_variant_shows_a_wall_a_person_can_clear(
    page: Page, site: DemoServer
) -> None:
    await page.goto(site.url + "?variant=captcha")
    await page.goto(site.url + RESULTS)
    await expect(page.get_by_role("heading", name="Verify you are human")).to_be_visible()
    await page.get_by_label("I'm not a robot").check()
    await page.get_by_role("button", name="Verify").click()
    await expect(page.get_by_text("flights found")).to_be_visible()


async def test_login_variant_walls_the_passenger_form(page: Page, site: DemoServer) -> None:
    await page.goto(site.url + "?variant=login")
    await _choose_fare(page, site.url)
    await expect(page.get_by_role("heading", name="Sign in to continue")).to_be_visible()
    await page.get_by_label("Email").fill("asha@example.in")
    await page.get_by_label("Password").fill("secret")
    await page.get_by_role("button", name="Sign in").click()
    await expect(page.get_by_role("heading", name="Passenger details")).to_be_visible()


async def test_dead_continue_changes_nothing(page: Page, site: DemoServer) -> None:
    await page.goto(site.url + "?variant=dead_continue")
    await _choose_fare(page, site.url)
    await _fill_passenger(page)
    before = await page.content()
    await page.get_by_role("button", name="Continue").click()
    await page.get_by_label("Mobile number").press("Enter")
    assert page.url.endswith("/passengers")
    assert await page.content() == before


async def test_injection_and_otp_variants_show_their_screens(page: Page, site: DemoServer) -> None:
    await page.goto(site.url + "?variant=injection,otp")
    await _to_extras(page, site.url)
    notice = page.get_by_text(re.compile("SYSTEM NOTICE TO AUTOMATED ASSISTANTS"))
    await expect(notice).to_be_visible()
    async with page.expect_navigation():
        await page.get_by_text("No thanks", exact=True).click()
    heading = page.get_by_role("heading", name=re.compile("Enter the one-time code we sent to"))
    await expect(heading).to_contain_text("+91 ••••• 43210")
    await page.get_by_label("6-digit code").fill(site.otp_code)
    await page.get_by_role("button", name="Verify and continue").click()
    await expect(page.get_by_role("button", name=re.compile("^Pay now ₹"))).to_be_visible()


async def test_confirm_variant_reviews_instead_of_paying(page: Page, site: DemoServer) -> None:
    await page.goto(site.url + "?variant=confirm")
    await _to_extras(page, site.url)
    async with page.expect_navigation():
        await page.get_by_text("No thanks", exact=True).click()
    await expect(page.get_by_role("heading", name="Review your booking")).to_be_visible()
    await expect(page.get_by_role("button", name="Confirm booking")).to_be_visible()
    await expect(page.get_by_role("button", name=re.compile("Pay now"))).to_have_count(0)


async def test_trip_type_radios_are_tabs_a_person_can_click(page: Page, site: DemoServer) -> None:
    await page.goto(site.url)
    await page.get_by_role("radio", name="Round trip").check()
    await expect(page.get_by_label("Return date", exact=True)).to_be_visible()
    await page.get_by_role("radio", name="One-way").check()
    await expect(page.get_by_label("Return date", exact=True)).to_be_hidden()
