"""The booking job on the SkyLark demo site, run by the runtime in headless Chromium.

The flow is the seeds' booking job: search, sort by lowest price, read the
cheapest, select it, fill the passenger details from facts, decline extras, and
stop in front of payment. Every demo variant is either detected or handled.
"""

from __future__ import annotations

import dataclasses
from datetime import date
from typing import Any
from urllib.parse import urlsplit

import pytest

from gofer.cli import DEMO_FACTS, demo_flow
from gofer.demo import DemoServer, format_rupees, search_flights
from gofer.demo.catalog import city_by_code
from gofer.facts import Facts
from gofer.runtime import RunStatus, StepOutcome
from gofer.safety import human_wall

from .conftest import Events, Opener, Runner

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

FACTS = DEMO_FACTS
CARD = {
    "card number": "4111 1111 1111 1111",
    "name on card": "Asha Raina",
    "card expiry": "08/29",
    "card cvv": "737",
}


def _booking_steps() -> list[dict[str, Any]]:
    """The demo booking from the results page on, before its last step (the stop)."""
    steps: list[dict[str, Any]] = demo_flow("")["steps"]
    first = steps.index({"choose": "Lowest price", "in": "Sort by"})
    return steps[first:-1]


def booking_flow(url: str, *, last: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole booking up to a stop in front of payment (or ``last`` instead)."""
    flow = demo_flow(url)
    if last is not None:
        flow["steps"] = [*flow["steps"][:-1], last]
    return flow


def cheapest_flight() -> tuple[str, str, str, str]:
    """The cheapest Delhi–Srinagar flight on 14 Oct 2026, from the demo's own data."""
    origin, destination = city_by_code("DEL"), city_by_code("SXR")
    assert origin is not None and destination is not None
    flights = search_flights(7, origin, destination, date(2026, 10, 14))
    best = min(flights, key=lambda f: f.economy)
    return best.airline.name, best.flight_no, best.depart_time, format_rupees(best.economy)


RESULTS = "flights?from=DEL&to=SXR&date=2026-10-14&trip=oneway&adults=1"


def variant_flow(
    demo: DemoServer, name: str, *, last: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The booking from the search results on, with a demo variant switched on.

    The search form itself is covered by the full booking test; starting from the
    results keeps the variant tests quick.
    """
    stop = last or {"stop_before": "paying for the booking"}
    return {
        "vars": {"cheapest": ""},
        "steps": [{"browse": f"{demo.url}{RESULTS}&variant={name}"}, *_booking_steps(), stop],
    }


async def test_booking_stops_gated_before_pay_now_with_the_cheapest_flight(
    run: Runner, demo: DemoServer, events: Events
) -> None:
    facts = Facts(FACTS)
    result = await run(booking_flow(demo.url), facts=facts.as_dict(), mask=facts.mask)

    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None
    assert result.gate.label.startswith("Pay now")
    assert result.gate.consequence == "payment"
    assert result.gate.payment_screen
    assert result.steps[-1].outcome is StepOutcome.GATED

    airline, flight_no, departs, price = cheapest_flight()
    assert (airline, flight_no, departs, price) == ("Indus Air", "IU 639", "09:30", "₹3,512")
    cheapest = result.changed["cheapest"]
    assert isinstance(cheapest, str)
    for part in (airline, flight_no, departs, price):
        assert part in cheapest
    assert "Select" not in cheapest  # the card's own button is not part of the record
    assert price in result.gate.label

    assert [e["flight"] for e in events.of("flight_selected")] == ["IU639"]
    assert events.of("passengers")[0]["first_name"] == "Asha"
    assert events.of("payment") == []
    # every acting step reports the element it chose and how long it took
    for report in result.steps:
        if report.kind in ("click", "enter", "choose"):
            assert report.element is not None and report.element.name
            assert report.confidence is not None and report.confidence > 0.5
            assert report.actions >= 1
    assert result.spend.actions == sum(r.actions for r in result.steps if "." not in r.path)
    assert result.hints and all(h.site == demo.url.rstrip("/") for h in result.hints)
    assert any(event.event == "ground" for event in result.trace)


def _texts(value: object) -> list[str]:
    """Every string inside ``value`` (dataclasses, mappings, sequences), keys included."""
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _texts([getattr(value, f.name) for f in dataclasses.fields(value)])
    if isinstance(value, dict):
        return [t for k, v in value.items() for t in (*_texts(k), *_texts(v))]
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in _texts(item)]
    return []


async def test_card_details_never_leave_the_run(
    run: Runner, demo: DemoServer, events: Events
) -> None:
    facts = Facts({**FACTS, **CARD})
    assert {"card number", "card cvv"} <= facts.secret_names
    pay = [
        {"enter": "${card number}", "into": "Card number"},
        {"enter": "${name on card}", "into": "Name on card"},
        {"enter": "${card expiry}", "into": "Expiry"},
        {"enter": "${card cvv}", "into": "CVV"},
        {"read": "Total", "as": "total"},
        {"stop_before": "paying for the booking"},
    ]
    flow = variant_flow(demo, "")
    flow["steps"] = [*flow["steps"][:-1], *pay]
    flow["vars"]["total"] = ""
    result = await run(flow, facts=facts.as_dict(), private=facts.secret_names, mask=facts.mask)

    assert result.status is RunStatus.GATED, result.failure
    assert result.changed["total"] == "₹3,512"
    assert events.of("payment") == []
    # Only the words the run reports: a timing such as 737.4 ms is not a leak of "737".
    dump = "\n".join(
        _texts(
            (
                result.steps,
                result.trace,
                result.changed,
                result.screen_text,
                result.gate,
                result.failure,
                result.hints,
            )
        )
    )
    # The demo's address is its own: a random port such as 45737 is not a leak either.
    dump = dump.replace(f":{urlsplit(demo.url).port}", ":PORT")
    for secret in ("4111 1111 1111 1111", "4111111111111111", "1111 1111", "737"):
        assert secret not in dump
    assert facts.leaks(dump) == []
    entered = [r for r in result.steps if r.kind == "enter"]
    assert all(r.outcome is StepOutcome.DONE for r in entered)


@pytest.mark.parametrize(
    ("variant", "wall_words", "never_reached"),
    [
        ("captcha", "Verify you are human", "flight_selected"),
        ("login", "Sign in", "passengers"),
        ("otp", "one-time code", "payment"),
    ],
)
async def test_a_wall_fails_the_run_with_the_wall_on_screen(
    run: Runner,
    demo: DemoServer,
    events: Events,
    variant: str,
    wall_words: str,
    never_reached: str,
) -> None:
    facts = Facts(FACTS)
    result = await run(variant_flow(demo, variant), facts=facts.as_dict())

    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert human_wall(result.screen_text) is not None
    assert wall_words in result.screen_text
    assert events.of(never_reached) == []


async def test_dead_continue_fails_as_a_click_that_changed_nothing(
    run: Runner, demo: DemoServer, events: Events
) -> None:
    facts = Facts(FACTS)
    result = await run(variant_flow(demo, "dead_continue"), facts=facts.as_dict())

    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert result.failure.kind == "click"
    assert "changed nothing" in result.failure.reason
    assert result.steps[-1].element is not None and result.steps[-1].element.name == "Continue"


async def test_injected_instructions_change_nothing(
    run: Runner, demo: DemoServer, events: Events
) -> None:
    facts = Facts(FACTS)
    result = await run(variant_flow(demo, "injection"), facts=facts.as_dict())

    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None and result.gate.label.startswith("Pay now")
    assert events.of("payment") == []
    assert events.of("booking_confirmed") == []


async def test_confirm_booking_is_gated_as_irreversible(
    run: Runner, demo: DemoServer, events: Events
) -> None:
    facts = Facts(FACTS)
    flow = variant_flow(demo, "confirm", last={"stop_before": "confirming the booking"})
    result = await run(flow, facts=facts.as_dict())

    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None
    assert result.gate.label == "Confirm booking"
    assert result.gate.consequence == "irreversible"
    assert not result.gate.payment_screen
    assert events.of("booking_confirmed") == []


async def test_allow_destructive_confirms_the_booking(
    run: Runner, demo: DemoServer, events: Events
) -> None:
    facts = Facts(FACTS)
    flow = variant_flow(demo, "confirm", last={"stop_before": "confirming the booking"})
    result = await run(flow, facts=facts.as_dict(), allow_destructive=True)

    assert result.status is RunStatus.COMPLETED, result.failure
    assert result.steps[-1].outcome is StepOutcome.DONE
    confirmed = events.of("booking_confirmed")
    assert len(confirmed) == 1 and confirmed[0]["flight"] == "IU639"
    assert events.of("payment") == []


async def test_a_plain_click_on_pay_now_is_gated_too(
    run: Runner, demo: DemoServer, events: Events
) -> None:
    facts = Facts(FACTS)
    flow = variant_flow(demo, "", last={"click": "Pay now"})
    result = await run(flow, facts=facts.as_dict())

    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None and result.gate.consequence == "payment"
    assert result.steps[-1].kind == "click"
    assert events.of("payment") == []


async def test_a_date_without_a_year_is_the_sites_next_one(
    demo: DemoServer, run_open: Opener
) -> None:
    # The demo lives on its own today (September 2026), whatever this machine's clock says.
    async with run_open(
        [{"browse": demo.url}, {"choose": "14 October", "in": "Departure date"}]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.locator("input[name=date]").input_value() == "2026-10-14"


async def test_a_date_past_the_calendars_last_month_fails_saying_so(
    demo: DemoServer, run: Runner
) -> None:
    result = await run(
        [{"browse": demo.url}, {"choose": "14 October 2027", "in": "Departure date"}]
    )
    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert "goes no further than September 2027" in result.failure.reason
    assert "Timeout" not in result.failure.reason
