"""Screenshots of the task pages for the README: the list of tasks and one task's page,
at desktop and phone widths, saved as PNG in docs/.

Runs everything in this process: the demo airline, a real browser runner, the task
controller in memory and gofer's server; hands it five tasks (one asking for a value,
one waiting for "Confirm booking", one at the payment checkpoint, one finished, one at
the site's sign-in wall) and photographs the pages a person signed in with a token
sees, in headless Chromium, the sign-in wall taken over in the live view.

    .venv/bin/python tools/page_shots.py [--out docs]
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from playwright.async_api import Page, async_playwright

from gofer.api import CreateTask, GoferServer, MemoryTokenStore
from gofer.cli import DEMO_FACTS, demo_flow
from gofer.demo import DemoServer
from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.surfaces import OPERATOR, find_chromium
from gofer.tasks import Tasks
from gofer.tasks.contract import AwaitTaskRequest

ROOT = Path(__file__).resolve().parent.parent
SIZES = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
OWNER = "asha"


def _booking(
    site: DemoServer, variant: str, *, ask_mobile: bool = False, confirm: bool = False
) -> dict[str, Any]:
    flow = demo_flow(f"{site.url}?variant={variant}")
    if confirm:
        flow["steps"] = [*flow["steps"][:-1], {"stop_before": "confirming the booking"}]
    facts = {k: v for k, v in DEMO_FACTS.items() if not (ask_mobile and k == "mobile number")}
    return {"flow": flow, "facts": facts, "constraints": {"origins": [site.url.rstrip("/")]}}


async def _hand_over(server: GoferServer, site: DemoServer) -> dict[str, str]:
    """Start the five tasks and wait until each stops; their ids by what they show."""
    service = server.service
    asks = {
        "finished": CreateTask(
            flow={"steps": [{"browse": site.url}]}, title="Open the SkyLark home page"
        ),
        "checkpoint": CreateTask.model_validate(
            _booking(site, "") | {"title": "Book the cheapest Delhi–Srinagar flight on 14 October"}
        ),
        "approval": CreateTask.model_validate(
            _booking(site, "confirm", confirm=True)
            | {"title": "Book the pay-at-the-counter fare to Srinagar"}
        ),
        "wall": CreateTask.model_validate(
            _booking(site, "login")
            | {"title": "Book a Delhi–Srinagar flight where the site asks you to sign in"}
        ),
        "question": CreateTask.model_validate(
            _booking(site, "", ask_mobile=True)
            | {"title": "Book a Delhi–Srinagar flight, mobile number to come"}
        ),
    }
    ids: dict[str, str] = {}
    for name, ask in asks.items():
        record = await service.create(OWNER, ask)
        await service.await_task(OWNER, AwaitTaskRequest(id=record.id, timeout_ms=120_000))
        ids[name] = record.id
    return ids


async def _shoot(page: Page, url: str, path: Path) -> None:
    await page.goto(url)
    await page.wait_for_load_state("networkidle")
    await page.screenshot(path=str(path), full_page=True)
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


async def _take_over(page: Page, url: str, path: Path) -> None:
    """The live view of a task's browser, taken over, with its first frame showing."""
    await page.goto(url)
    await page.get_by_role("button", name="Take over", exact=True).click()
    await page.wait_for_function(
        "() => document.querySelector('[data-live-image]').naturalWidth > 0"
    )
    await page.screenshot(path=str(path), full_page=True)
    print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    tokens = MemoryTokenStore()
    token = (await tokens.create(OWNER, "page screenshots")).token
    async with (
        DemoServer(seed=7) as site,
        WorkspaceRunner(chromium=find_chromium(), policy=OPERATOR) as runner,
        Tasks(runner, source="screenshots") as tasks,
        GoferServer(tasks, tokens) as server,
    ):
        ids = await _hand_over(server, site)
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=find_chromium(), headless=True)
            try:
                for size, viewport in SIZES.items():
                    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
                    page = await context.new_page()
                    await page.goto(f"{server.url}/login")
                    await page.get_by_label("Access token").fill(token)
                    await page.get_by_role("button", name="Sign in").click()
                    await page.wait_for_url(f"{server.url}/tasks")
                    await _shoot(page, f"{server.url}/tasks", out / f"task-list-{size}.png")
                    await _shoot(
                        page,
                        f"{server.url}/tasks/{ids['checkpoint']}",
                        out / f"task-page-{size}.png",
                    )
                    await _shoot(
                        page,
                        f"{server.url}/tasks/{ids['approval']}",
                        out / f"task-approval-{size}.png",
                    )
                    await _shoot(
                        page,
                        f"{server.url}/tasks/{ids['question']}",
                        out / f"task-question-{size}.png",
                    )
                    await _take_over(
                        page,
                        f"{server.url}/tasks/{ids['wall']}/live",
                        out / f"task-take-over-{size}.png",
                    )
                    await context.close()
            finally:
                await browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out", type=Path, default=ROOT / "docs", help="where the PNG files go (default: docs/)"
    )
    asyncio.run(main(parser.parse_args().out))
