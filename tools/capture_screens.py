"""(Re)capture the grounder's saved screen snapshots with the real browser.

Loads every ``tests/unit/screens/html/*.html`` in Chromium and saves its snapshot as
``tests/unit/screens/<name>.json``; then, on the bundled demo site, captures the
search page, the results page and the pages after choosing the first flight
(``demo_home``, ``demo_results``, ``demo_passengers``, ...); and pages of the widget
corpus (``tests/e2e/widgets``, real widget libraries) with their pickers open
(``widget_jqui_datepicker``, ``widget_flatpickr``, ``widget_cally``, ...).

    .venv/bin/python tools/capture_screens.py [--only NAME ...]

Pages of a running real application (the corpus's, ``tests/e2e/corpus``) are captured
with ``--live NAME URL [WORDS ...]``: load URL, click each WORDS in turn (as the
grounder finds them), and save the screen as NAME; repeat ``--live`` to walk on in the
same browser session (a basket, a checkout), and pass ``--no-demo``/``--only`` to skip
the rest. The application's address is saved as ``http://app.test/``.

The HTML pages are served from a throw-away local HTTP server on 127.0.0.1; saved
addresses are rewritten to ``http://pages.test/`` and ``http://demo.test/`` so that a
recapture changes only what the pages show.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from gofer.decide import Query, Want, ground
from gofer.demo import DemoServer
from gofer.surfaces import OPERATOR, BrowserEngine, BrowserSurface, Screen, screen_to_dict

ROOT = Path(__file__).resolve().parent.parent
SCREENS = ROOT / "tests" / "unit" / "screens"
HTML = SCREENS / "html"
DEMO_TODAY = date(2026, 10, 1)
PAGES_URL = "http://pages.test/"
APP_URL = "http://app.test/"
DEMO_URL = "http://demo.test/"


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


@contextlib.contextmanager
def _serve(directory: Path) -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_QuietHandler, directory=directory))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


def _save(name: str, screen: Screen, base: str, stable: str) -> None:
    # The servers listen on a free port; a fixed address keeps the saved files stable.
    screen = replace(
        screen,
        url=screen.url.replace(base, stable, 1),
        elements=tuple(replace(e, href=e.href.replace(base, stable, 1)) for e in screen.elements),
    )
    path = SCREENS / f"{name}.json"
    path.write_text(json.dumps(screen_to_dict(screen), ensure_ascii=False, indent=1) + "\n")
    print(
        f"saved {path.relative_to(ROOT)}: {len(screen.elements)} elements, "
        f"{len(screen.lines)} lines, {sum(len(g.records) for g in screen.records)} records"
    )


async def _snap(surface: BrowserSurface, url: str) -> Screen:
    await surface.goto(url)
    await surface.settle(5_000)
    return await surface.snapshot()


async def capture_html(engine: BrowserEngine, only: set[str]) -> None:
    """Snapshot every hand-written page in ``html/``."""
    with _serve(HTML) as base:
        surface = await engine.new_session()
        try:
            for page in sorted(HTML.glob("*.html")):
                if only and page.stem not in only:
                    continue
                _save(page.stem, await _snap(surface, base + page.name), base, PAGES_URL)
        finally:
            await surface.close()


async def capture_demo(engine: BrowserEngine, only: set[str]) -> None:
    """Snapshot the demo site's pages along one booking."""
    async with DemoServer(seed=7, today=DEMO_TODAY) as site:
        surface = await engine.new_session()
        try:
            pages = [
                ("demo_home", site.url),
                ("demo_results", site.url + "flights?from=DEL&to=SXR&date=2026-10-14&adults=1"),
            ]
            for name, url in pages:
                screen = await _snap(surface, url)
                if not only or name in only:
                    _save(name, screen, site.url, DEMO_URL)
            # Walk on with the grounder itself: open the first result's fares, then
            # take its Economy fare, which leads to the passenger details page.
            steps = [
                ("demo_fares", Query("Select", Want.CLICK, within="the first result")),
                ("demo_passengers", Query("Select", Want.CLICK, within="Economy")),
            ]
            for name, query in steps:
                target = ground(query, screen).element
                if target is None:
                    raise SystemExit(f"could not find {query.words!r} to reach {name}")
                await surface.click(target.ref)
                await surface.settle(5_000)
                screen = await surface.snapshot()
                if not only or name in only:
                    _save(name, screen, site.url, DEMO_URL)
        finally:
            await surface.close()


WIDGETS = ROOT / "tests" / "e2e" / "widgets"
WIDGET_SHOTS = [
    # (snapshot name, corpus page, the words of the control to click first, or "")
    ("widget_jqui_datepicker", "jqui-datepicker", "Return date"),
    ("widget_flatpickr", "flatpickr", "Check-in"),
    ("widget_litepicker_range", "litepicker-range", "Check-in"),
    ("widget_cally", "cally", "Choose date"),
    ("widget_daterangepicker", "daterangepicker", "Due date"),
    ("widget_split_date", "split-date", ""),
    ("widget_segments", "segments", ""),
]


def _widget_handler(pages: dict[str, str]) -> type[SimpleHTTPRequestHandler]:
    class Handler(_QuietHandler):
        def do_GET(self) -> None:
            if self.path.startswith("/w/") and self.path[3:] in pages:
                body = pages[self.path[3:]].encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            super().do_GET()

    return Handler


async def capture_widgets(engine: BrowserEngine, only: set[str]) -> None:
    """Snapshot widget corpus pages, each with its picker opened by a click."""
    sys.path.insert(0, str(ROOT))
    from tests.e2e.widgets.pages import PAGES as WIDGET_PAGES

    handler = partial(_widget_handler(WIDGET_PAGES), directory=WIDGETS)
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    surface = await engine.new_session()
    try:
        for name, page, opener in WIDGET_SHOTS:
            if only and name not in only:
                continue
            screen = await _snap(surface, base + "w/" + page)
            if opener:
                target = ground(Query(opener, Want.CLICK), screen).element
                if target is None:
                    raise SystemExit(f"could not find {opener!r} on {page}")
                await surface.click(target.ref)
                await surface.settle(5_000)
                screen = await surface.snapshot()
            _save(name, screen, base, PAGES_URL)
    finally:
        await surface.close()
        server.shutdown()
        thread.join()
        server.server_close()


async def capture_live(engine: BrowserEngine, shots: list[list[str]]) -> None:
    """Snapshot pages of a running application, in one browser session: each shot is
    NAME URL [WORDS ...] (load URL unless it is "-", click each WORDS, save NAME)."""
    surface = await engine.new_session()
    base = ""
    try:
        for name, url, *clicks in shots:
            if url != "-":
                parts = url.split("/")
                base = "/".join(parts[:3]) + "/"
                await surface.goto(url)
                await surface.settle(5_000)
            for words in clicks:
                target = ground(Query(words, Want.CLICK), await surface.snapshot()).element
                if target is None:
                    raise SystemExit(f"could not find {words!r} for {name}")
                await surface.click(target.ref)
                await surface.settle(5_000)
            _save(name, await surface.snapshot(), base, APP_URL)
    finally:
        await surface.close()


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], help="names of snapshots to capture")
    parser.add_argument("--no-demo", action="store_true", help="skip the demo site's pages")
    parser.add_argument(
        "--live",
        nargs="+",
        action="append",
        default=[],
        metavar="NAME URL [WORDS]",
        help="a running application's page: load URL ('-': stay), click WORDS, save NAME",
    )
    args = parser.parse_args(argv)
    only = set(args.only)
    async with BrowserEngine(policy=OPERATOR) as engine:
        if args.live:
            await capture_live(engine, args.live)
            return 0
        await capture_html(engine, only)
        await capture_widgets(engine, only)
        if not args.no_demo:
            await capture_demo(engine, only)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
