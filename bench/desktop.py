"""Time the desktop surface: a tree walk and one action's round trip, on real apps.

    .venv/bin/python bench/desktop.py [--rounds N]

Starts a virtual desktop, opens mousepad (GTK3) and gnome-calculator (GTK4), and for each
reports the walk's node count and its time (the agent's own and the surface's, JSON
included), then the round trip of one action (a click through AT-SPI, until the desktop
is quiet again) and of one read.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from gofer.surfaces.desktop import DesktopSurface


def ms(samples: list[float]) -> str:
    low, high = min(samples), max(samples)
    return f"median {statistics.median(samples):.1f} ms (min {low:.1f}, max {high:.1f})"


async def bench(rounds: int) -> None:
    desktop = await DesktopSurface.start()
    try:
        for app, click in (("Mousepad", "View"), ("Calculator", "7")):
            started = time.perf_counter()
            await desktop.open(app)
            print(f"{app}: open {1000 * (time.perf_counter() - started):.0f} ms")
            walks, agent, nodes = [], [], 0
            for _ in range(rounds):
                started = time.perf_counter()
                screen = await desktop.snapshot()
                walks.append(1000 * (time.perf_counter() - started))
                agent.append(desktop.walk_ms)
                nodes = (await desktop._ask({"op": "walk"}))["nodes"].__len__()
            print(f"  walk of {nodes} nodes: {ms(walks)}; in the agent {ms(agent)}")
            target = next(el for el in screen.elements if el.name == click)
            actions, reads = [], []
            for _ in range(rounds):
                started = time.perf_counter()
                await desktop.click(target.ref)
                actions.append(1000 * (time.perf_counter() - started))
                if app == "Mousepad":
                    await desktop.press("Escape")  # close the menu the click opened
                screen = await desktop.snapshot()
                target = next(el for el in screen.elements if el.name == click)
                field = next(el for el in screen.elements if el.role == "textbox")
                started = time.perf_counter()
                await desktop.read_value(field.ref)
                reads.append(1000 * (time.perf_counter() - started))
            print(f"  click '{click}' round trip: {ms(actions)}")
            print(f"  read a field: {ms(reads)}")
    finally:
        await desktop.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    asyncio.run(bench(parser.parse_args().rounds))


if __name__ == "__main__":
    main()
