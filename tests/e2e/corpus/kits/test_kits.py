"""Every widget kind of a trip request on nine component kits as sites ship them, run as
a user writes the flow, judged by what each form posted. These families were added
with their first run recorded before any engine change for them (the closing note of
the session that added them); a task that fails has its cause written beside it."""

from __future__ import annotations

import pytest

from ...conftest import Opener
from ..bundles import Library, judge
from ..tasks import expect_known
from .conftest import KITS
from .tasks import BARE_KINDS, KINDS, task

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

KNOWN: dict[str, str] = {
    "elementplus-time": "Element Plus's time-select is a list of times: the time is typed into its "
    "filter box, which keeps nothing, instead of picked from the list",
    "primevue-time": "PrimeVue 4.5's time-only DatePicker throws away every typed time (its parser "
    "reads an AM/PM that a 24-hour time lacks); its panel sets the time only by stepping the hour "
    "and minute with buttons, which no rule does yet",
}
"""Tasks that fail today, each with its cause (strict: one that passes must leave)."""

CASES = [(kit, kind, False) for kit in KITS for kind in KINDS] + [
    (kit, kind, True) for kit in KITS for kind in BARE_KINDS
]


@pytest.mark.parametrize(
    ("kit", "kind", "bare"),
    CASES,
    ids=[f"{kit}-{kind}{'-bare' if bare else ''}" for kit, kind, bare in CASES],
)
async def test_a_trip_request_field(
    kit: str,
    kind: str,
    bare: bool,
    run_open: Opener,
    kits: Library,
    request: pytest.FixtureRequest,
) -> None:
    name = f"{kit}-{kind}{'-bare' if bare else ''}"
    expect_known(request, KNOWN, name)
    await judge(task(kit, kind, bare), run_open, kits)
