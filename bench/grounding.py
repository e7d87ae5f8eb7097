"""How long one grounding decision takes on the demo results page.

    .venv/bin/python bench/grounding.py [N]

Grounds a mix of queries on the saved demo results snapshot N times (default 200)
and prints the median and 95th percentile milliseconds per decision, both for a
fresh screen object each time (nothing cached) and for a screen already seen.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from gofer.decide import Query, Want, ground
from gofer.surfaces import screen_from_dict

SNAPSHOT = Path(__file__).resolve().parent.parent / "tests/unit/screens/demo_results.json"
QUERIES = (
    Query("Select", Want.CLICK, within="the first result"),
    Query("Select", Want.CLICK, within="Indus Air IU 639"),
    Query("Sort by", Want.CONTROL),
    Query("Lowest price", Want.OPTION),
    Query("Non-stop", Want.OPTION, within="Stops"),
    Query("Modify search", Want.CLICK),
)


def _ms(samples: list[float]) -> str:
    samples.sort()
    p95 = samples[int(len(samples) * 0.95) - 1]
    return f"median {statistics.median(samples):.2f} ms, p95 {p95:.2f} ms"


def _bigger(data: dict[str, Any], times: int) -> dict[str, Any]:
    """The same page with its elements repeated, as a heavier page would have."""
    out = dict(data)
    out["elements"] = [
        {**e, "ref": f"{e['ref']}x{k}"} for k in range(times) for e in data["elements"]
    ]
    return out


def main(n: int) -> None:
    for label, data in (
        ("demo results page", json.loads(SNAPSHOT.read_text())),
        ("same, elements x5", _bigger(json.loads(SNAPSHOT.read_text()), 5)),
    ):
        print(f"== {label}")
        run(data, n)


def run(data: dict[str, Any], n: int) -> None:
    warm_screen = screen_from_dict(data)
    cold: list[float] = []
    warm: list[float] = []
    for i in range(n):
        query = QUERIES[i % len(QUERIES)]
        fresh = screen_from_dict(data)
        t = time.perf_counter()
        ground(query, fresh)
        cold.append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        ground(query, warm_screen)
        warm.append((time.perf_counter() - t) * 1000)
    print(f"{len(warm_screen.elements)} elements, {len(warm_screen.lines)} lines, {n} runs")
    print(f"fresh screen: {_ms(cold)}")
    print(f"seen screen:  {_ms(warm)}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
