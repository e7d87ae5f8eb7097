"""The demo booking written by hand with Playwright: the benchmark's baseline.

What a competent Playwright engineer would write for the SkyLark demo site:
fast CSS and role selectors, waits on elements and navigations, no sleeps. It
books the cheapest Delhi to Srinagar flight on 14 October up to the payment page
and stops there without paying.
"""

from __future__ import annotations

import re

from playwright.async_api import Page, expect

__all__ = ["book_by_hand"]


async def _pick_city(page: Page, label: str, name: str) -> None:
    box = page.get_by_role("combobox", name=label)
    await box.fill(name)
    await page.get_by_role("option", name=re.compile(rf"^{re.escape(name)} \(")).click()


async def book_by_hand(page: Page, base_url: str, facts: dict[str, str]) -> str:
    """Book up to the payment page; return the cheapest flight as "airline, time, price".

    ``facts`` holds ``first name``, ``last name``, ``email`` and ``mobile number``.
    """
    await page.goto(base_url)
    await _pick_city(page, "From", "Delhi")
    await _pick_city(page, "To", "Srinagar")

    await page.get_by_label("Departure date", exact=True).click()
    calendar = page.get_by_role("dialog", name="Calendar")
    day = calendar.get_by_role("button", name="Wednesday, 14 October 2026")
    while not await day.is_visible():
        await calendar.get_by_role("button", name="Next month").click()
    await day.click()

    async with page.expect_navigation():
        await page.get_by_role("button", name="Search flights").click()

    await page.get_by_label("Sort by").select_option(label="Lowest price")
    first = page.locator("#flight-list > li.flight-card").first
    airline = await first.locator(".airline-name").inner_text()
    departs = await first.locator(".leg .time").first.inner_text()
    price = await first.locator(".price strong").inner_text()

    await first.get_by_role("button", name="Select").click()
    async with page.expect_navigation():
        await first.locator(".fare-economy .btn").click()

    await page.get_by_label("First name").fill(facts["first name"])
    await page.get_by_label("Last name").fill(facts["last name"])
    await page.get_by_placeholder("Email").fill(facts["email"])
    await page.get_by_label("Mobile number").fill(facts["mobile number"])
    async with page.expect_navigation():
        await page.get_by_role("button", name="Continue").click()

    if await page.get_by_role("heading", name="Add extras").is_visible():
        async with page.expect_navigation():
            await page.get_by_text("No thanks", exact=True).click()

    await expect(page.get_by_role("button", name=re.compile(r"^Pay now"))).to_be_visible()
    return f"{airline}, {departs}, {price}"
