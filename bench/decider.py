"""What the model decider's rounds of votes cost against asking every vote, and what
voting buys against one vote.

    .venv/bin/python bench/decider.py [--decisions N] [--latency-ms MS]

A function model answers each vote for the right element with probability ``p``
(else for one of the others), after ``--latency-ms`` of simulated latency, from a
seeded random source. For each ``p``, N decisions on a screen of four candidates are
made by :class:`gofer.decider.VotingDecider` (7 votes, rounds that stop once a majority
is reached, each round's votes side by side) and by a baseline that asks all 7 votes
one after another. Prints the calls per decision and their ratio to the baseline,
the wall time ratio, and how often the decision was right, beside a single vote's
accuracy. The figures are printed, never asserted on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from collections.abc import Sequence

from gofer.decide import Query, Want, ground
from gofer.decider import Tally, VotingDecider, choice_messages, read_choice
from gofer.models import FunctionModel, Message
from gofer.surfaces.screen import Box, Element, Screen

SCREEN = Screen(
    "https://shop.example.com/",
    "Shop",
    (),
    tuple(
        Element(f"e{i}", "button", f"Continue {word}", box=Box(0, 40 * i, 200, 30))
        for i, word in enumerate(("shopping", "to delivery", "later", "as guest"), 1)
    ),
)
QUERY = Query("Continue", Want.CLICK, kind="click")
RIGHT = "Continue to delivery"


def voter(p: float, rng: random.Random, latency_s: float) -> FunctionModel:
    async def answer(messages: Sequence[Message]) -> str:
        await asyncio.sleep(latency_s)
        user = messages[-1].content
        numbers = {
            line.split(". ", 1)[1]: int(line.split(".", 1)[0])
            for line in user.splitlines()
            if line[:1].isdigit() and ". button" in line
        }
        right = next(n for label, n in numbers.items() if RIGHT in label)
        others = [n for n in numbers.values() if n != right]
        return json.dumps({"choice": right if rng.random() < p else rng.choice(others)})

    return FunctionModel(answer)


async def baseline(model: FunctionModel) -> tuple[int, bool]:
    """All 7 votes, one after another: (calls, right)."""
    grounding = ground(QUERY, SCREEN)
    elements = [c.element for c in grounding.candidates]
    messages = choice_messages(QUERY, SCREEN, elements)
    tally = Tally(tuple(range(1, len(elements) + 1)))
    for _ in range(7):
        tally.add(read_choice((await model.complete(messages)).text, len(elements)))
    chosen = tally.outcome(7).choice
    return 7, chosen is not None and chosen > 0 and RIGHT in elements[chosen - 1].name


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decisions", type=int, default=200)
    parser.add_argument("--latency-ms", type=float, default=5.0)
    args = parser.parse_args()
    latency = args.latency_ms / 1000
    print(f"{args.decisions} decisions per row, 7 votes, {args.latency_ms:.0f} ms a call")
    print(f"{'p':>5} {'calls':>6} {'base':>5} {'ratio':>6} {'time':>6} {'right':>6} {'1 vote':>7}")
    for p in (1.0, 0.9, 0.75, 0.6, 0.45):
        rng = random.Random(7)
        calls: list[int] = []
        right = 0
        t0 = time.perf_counter()
        decider = VotingDecider(voter(p, rng, latency))
        grounding = ground(QUERY, SCREEN)
        for _ in range(args.decisions):
            decision = await decider.choose(QUERY, SCREEN, grounding)
            calls.append(decision.calls)
            right += decision.element is not None and RIGHT in decision.element.name
        ours = time.perf_counter() - t0
        rng = random.Random(7)
        model = voter(p, rng, latency)
        t0 = time.perf_counter()
        base_right = 0
        for _ in range(args.decisions):
            _, ok = await baseline(model)
            base_right += ok
        theirs = time.perf_counter() - t0
        mean = statistics.fmean(calls)
        print(
            f"{p:>5.2f} {mean:>6.2f} {7:>5} {mean / 7:>6.2f} {ours / theirs:>6.2f} "
            f"{right / args.decisions:>6.0%} {p:>7.0%}"
        )
    print(
        "calls/ratio: calls per decision and its ratio to asking all 7; time: wall time "
        "ratio to 7 votes in a row; right: decisions that chose the right element"
    )


if __name__ == "__main__":
    asyncio.run(main())
