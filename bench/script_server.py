"""The hand-written booking behind the three calls bench/concurrent.py makes of gofer.

    .venv/bin/python bench/script_server.py --site URL

A process of its own with one Chromium (launched as gofer launches it), serving
``start_task`` (a booking by :func:`handwritten.book_by_hand` in a fresh context),
``await_task`` (its end: ``checkpoint`` in front of "Pay now", or ``failed``) and
``cancel_task`` (its context closed: until then it stays open, as a gofer task's browser
does at its checkpoint). It prints ``gofer serving on <url>`` once it listens, so that
bench/concurrent.py runs it as it runs ``gofer serve``: the script's CPU and memory,
measured the same way, side by side with gofer's.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import signal
import sys

from handwritten import book_by_hand
from playwright.async_api import Browser, BrowserContext, Error
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from gofer.cli import DEMO_FACTS
from gofer.serving import Listening
from gofer.surfaces import OPERATOR, BrowserEngine, BrowserOptions


class Bookings:
    """The bookings started, each a task that ends with its context still open."""

    def __init__(self, browser: Browser, site: str) -> None:
        self.browser = browser
        self.site = site
        self.ids = itertools.count(1)
        self.running: dict[str, asyncio.Task[str]] = {}
        self.contexts: dict[str, BrowserContext] = {}

    async def book(self, task_id: str) -> str:
        width, height = BrowserOptions().viewport
        context = await self.browser.new_context(viewport={"width": width, "height": height})
        self.contexts[task_id] = context
        context.set_default_timeout(10_000)
        try:
            await book_by_hand(await context.new_page(), self.site, dict(DEMO_FACTS))
        except (Error, AssertionError):
            return "failed"
        return "checkpoint"

    async def start(self, request: Request) -> JSONResponse:
        task_id = f"script-{next(self.ids)}"
        self.running[task_id] = asyncio.create_task(self.book(task_id))
        return JSONResponse({"id": task_id, "status": {"state": "running"}})

    async def wait(self, request: Request) -> JSONResponse:
        task_id = str((await request.json())["id"])
        state = await self.running[task_id]
        return JSONResponse({"id": task_id, "status": {"state": state}})

    async def cancel(self, request: Request) -> JSONResponse:
        task_id = str((await request.json())["id"])
        context = self.contexts.pop(task_id, None)
        if context is not None:
            await context.close()
        self.running.pop(task_id, None)
        return JSONResponse({"id": task_id, "status": {"state": "cancelled"}})


async def serve(site: str) -> None:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    async with BrowserEngine(policy=OPERATOR) as engine:
        session = await engine.new_session(BrowserOptions())
        browser = session.context.browser
        await session.close()
        if browser is None:
            raise SystemExit("the engine's session has no browser")
        bookings = Bookings(browser, site)
        app = Starlette(
            routes=[
                Route("/v1/calls/start_task", bookings.start, methods=["POST"]),
                Route("/v1/calls/await_task", bookings.wait, methods=["POST"]),
                Route("/v1/calls/cancel_task", bookings.cancel, methods=["POST"]),
            ]
        )
        async with Listening(app, port=0) as listening:
            print(f"gofer serving on {listening.url}", flush=True)
            await stop.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--site", required=True, help="the demo airline's address")
    args = parser.parse_args()
    try:
        asyncio.run(serve(args.site))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
