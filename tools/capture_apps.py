"""(Re)capture the screens of the corpus's real applications that the unit tests use.

Starts Misago (``tools/corpus/misago.sh`` installs it) on a fresh database of the
PostgreSQL server at ``GOFER_TEST_PG_URL`` (``source tools/pg.sh; pg_start`` gives one),
walks to each page with a gofer flow on the real browser, and saves the screen as
``tests/unit/screens/app_<name>.json``, its addresses rewritten to ``http://misago.test/``.

    GOFER_TEST_PG_URL=postgresql://... .venv/bin/python tools/capture_apps.py [--only NAME ...]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunStatus, Workspace, run_flow
from gofer.surfaces import OPERATOR, BrowserEngine, BrowserOptions, Screen, screen_to_dict

ROOT = Path(__file__).resolve().parent.parent
SCREENS = ROOT / "tests" / "unit" / "screens"
STABLE = "http://misago.test/"


def _shots(url: str) -> list[tuple[str, list[dict[str, Any]]]]:
    from tests.e2e.corpus.misago.conftest import admin_sign_in_steps, sign_in_steps

    forum, admin = sign_in_steps(url), admin_sign_in_steps(url)
    thread = [*forum, {"click": "Selling my old bike"}, {"wait": {"shows": "Add poll"}}]
    return [
        (
            "app_misago_composer",
            [
                *forum,
                {"click": "Start thread"},
                {"enter": "Lost keys near the library", "into": "Thread title"},
                {"enter": "Found a set of keys.", "into": "the message box"},
            ],
        ),
        ("app_misago_thread", thread),
        ("app_misago_thread_options", [*thread, {"click": "Thread options"}]),
        ("app_misago_new_category", [*admin, {"click": "Categories"}, {"click": "New category"}]),
        ("app_misago_users", [*admin, {"click": "Users"}]),
    ]


def _save(name: str, screen: Screen, base: str) -> None:
    screen = replace(
        screen,
        url=screen.url.replace(base, STABLE, 1),
        elements=tuple(replace(e, href=e.href.replace(base, STABLE, 1)) for e in screen.elements),
    )
    path = SCREENS / f"{name}.json"
    path.write_text(json.dumps(screen_to_dict(screen), ensure_ascii=False, indent=1) + "\n")
    print(f"saved {path.relative_to(ROOT)}: {len(screen.elements)} elements")


async def capture(url: str, only: set[str]) -> None:
    async with BrowserEngine(policy=OPERATOR) as engine:
        for name, steps in _shots(url):
            if only and name not in only:
                continue
            async with Workspace(engine, BrowserOptions()) as workspace:
                result = await run_flow(RunRequest(flow=parse_flow(steps)), workspace)
                if result.status is not RunStatus.COMPLETED:
                    raise SystemExit(f"could not reach {name}: {result.failure}")
                surface = await workspace.browser()
                await surface.settle(5_000)
                _save(name, await surface.snapshot(), url)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], help="names of screens to capture")
    args = parser.parse_args(argv)
    pg = os.environ.get("GOFER_TEST_PG_URL")
    if not pg:
        raise SystemExit("GOFER_TEST_PG_URL is not set (source tools/pg.sh; pg_start)")
    sys.path.insert(0, str(ROOT))
    from tests.e2e.corpus.misago.conftest import running_misago

    with running_misago(pg) as forum:
        asyncio.run(capture(forum.url, set(args.only)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
