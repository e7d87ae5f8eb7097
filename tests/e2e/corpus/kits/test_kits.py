"""Every widget kind of a trip request on seventeen component kits as sites ship them, run as
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

IONIC_DATETIME = (
    "ion-datetime-button is a button showing a date ('Dec 7, 2026') that opens the ion-datetime "
    "calendar in an ion-modal, its label an ion-label tied to nothing: gofer looks for a date "
    "field and says 'there is no date field on the screen'"
)

KNOWN: dict[str, str] = {
    "ionic-date": IONIC_DATETIME,
    "ionic-date-bare": IONIC_DATETIME,
    "ionic-time": "ion-datetime-button is a button showing a time ('05:14') that opens an "
    "ion-datetime of hour and minute wheels in a popover: gofer looks for a time field and says "
    "'there is no time field on the screen'",
    "ionic-multi-select": "ion-select multiple opens an ion-alert of checkbox buttons: gofer "
    "finds no option in it ('no option matches 'Food' (there are: Interests)')",
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
