"""What the take-over tests share (test_api_takeover*.py): a person's page at a task
paused for them, opening its live view and taking over, and reading and clicking the
streamed picture of the task's page."""

from __future__ import annotations

from collections.abc import Callable

from playwright.async_api import BrowserContext, Page, expect

from .test_api_pages import WAIT_MS, seen_by, sign_in
from .test_api_serve import Serving

VIEWPORT = (1280, 800)
"""The task's browser's viewport (gofer's default)."""

PIXEL = """([fx, fy]) => {
  const img = document.querySelector('[data-live-image]');
  const canvas = document.createElement('canvas');
  canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0);
  return Array.from(g.getImageData(Math.round(fx * img.naturalWidth),
                                   Math.round(fy * img.naturalHeight), 1, 1).data.slice(0, 3));
}"""
"""The colour of the live picture at a point, as fractions of its size."""


def middle(box: tuple[int, int, int, int]) -> tuple[float, float]:
    """The middle of a box on the task's page, as fractions of its viewport."""
    x, y, width, height = box
    return (x + width / 2) / VIEWPORT[0], (y + height / 2) / VIEWPORT[1]


async def click_in_picture(page: Page, where: tuple[float, float]) -> None:
    """Click the live picture at a point of the task's page, as the person sees it."""
    shown = await page.get_by_role(
        "img", name="The task's browser page as it is now"
    ).bounding_box()
    assert shown is not None and shown["width"] > 100
    await page.mouse.click(
        shown["x"] + where[0] * shown["width"], shown["y"] + where[1] * shown["height"]
    )


async def a_frame_is_shown(page: Page) -> None:
    await page.wait_for_function(
        "() => { const i = document.querySelector('[data-live-image]');"
        " return !!i && i.complete && i.naturalWidth > 0; }",
        timeout=30_000,
    )


async def at_paused_task(
    context: BrowserContext,
    serving: Serving,
    task_id: str,
    served: Callable[[str | bytes], None] | None = None,
) -> tuple[Page, list[str]]:
    """alice's page of her task once it waits for a person past a wall, and the bodies
    it was sent (kept when ``served`` sees them too)."""
    page = await context.new_page()
    bodies: list[str] = []
    if served is not None:
        seen_by(page, served, bodies)
    await sign_in(page, serving, serving.alice, f"/tasks/{task_id}")
    await expect(page.locator("#status-line")).to_have_text(
        "Needs you: a step only a person can do", timeout=WAIT_MS
    )
    return page, bodies


async def open_live_view(page: Page, server_url: str, task_id: str) -> None:
    """From the task's page to its live view's page, on the server at ``server_url``."""
    await page.get_by_role("link", name="Take over its browser").click()
    await page.wait_for_url(f"{server_url}/tasks/{task_id}/live")


async def start_live_view(page: Page) -> None:
    """Take over on the live view's page, until the picture shows a frame."""
    await page.get_by_role("button", name="Take over", exact=True).click()
    await a_frame_is_shown(page)
