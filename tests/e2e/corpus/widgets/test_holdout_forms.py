"""The widget holdout: tasks of the same kinds as test_forms.py on the same libraries,
kept out of sight while the engine changes and run before the issue is resolved."""

from __future__ import annotations

import pytest

from ...conftest import Opener
from .conftest import Library
from .tasks import SUBMIT, Task, judge

pytestmark = [pytest.mark.holdout, pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

TASKS: dict[str, Task] = {
    # a mobile date picker in a dialog that keeps its pick until its own OK
    "mui-deadline-and-tickets": Task(
        "mui",
        [
            {"enter": "14 January 2027", "into": "Registration deadline"},
            {"enter": "0", "into": "Tickets"},
            SUBMIT,
        ],
        {"deadline": "2027-01-14", "tickets": "0"},
    ),
    # suggestions from a debounced lookup
    "antd-late-city": Task(
        "antd",
        [{"choose": "Lisbon", "in": "City"}, {"enter": "25", "into": "Tickets"}, SUBMIT],
        {"city": "Lisbon", "tickets": "25"},
    ),
    # the second field's picker, not the first's
    "datepicker-second-date-field": Task(
        "datepicker",
        [
            {"choose": "January 10, 2027", "in": "Event date"},
            {"choose": "January 12, 2027", "in": "End date"},
            SUBMIT,
        ],
        {"date": "2027-01-10", "end": "2027-01-12"},
    ),
    # a date beyond the calendar's last offered day is a clear failure
    "datepicker-beyond-the-calendar": Task(
        "datepicker",
        [{"choose": "June 1, 2027", "in": "Event date"}, SUBMIT],
        None,
        query="min=2026-12-01&max=2027-02-28",
    ),
    "vuetify-city": Task(
        "vuetify",
        [{"choose": "Oslo", "in": "City"}, SUBMIT],
        {"city": "Oslo"},
    ),
    # an inline calendar whose month and year are separate buttons
    "vuetify-inline-calendar": Task(
        "vuetify",
        [{"choose": "9 March 2027", "in": "Rehearsal day"}, SUBMIT],
        {"rehearsal": "2027-03-09"},
    ),
    # written after the seen tasks' fixes, before their first run: a date chosen (not
    # typed) in Ant Design's DatePicker, with a select beside it
    "antd-choose-end-date": Task(
        "antd",
        [
            {"choose": "March 15, 2027", "in": "End date"},
            {"choose": "Workshop", "in": "Category"},
            SUBMIT,
        ],
        {"end": "2027-03-15", "category": "Workshop"},
    ),
    # Vuetify's v-select and v-autocomplete, a city whose name begins another's
    "vuetify-select-and-near-city": Task(
        "vuetify",
        [
            {"choose": "Webinar", "in": "Category"},
            {"choose": "Bern", "in": "City"},
            SUBMIT,
        ],
        {"category": "Webinar", "city": "Bern"},
    ),
    # MUI X's 24-hour time field given a 12-hour time
    "mui-time-written-am": Task(
        "mui",
        [
            {"enter": "Breakfast talk", "into": "Event name"},
            {"enter": "7:05 AM", "into": "Start time"},
            SUBMIT,
        ],
        {"name": "Breakfast talk", "time": "07:05"},
    ),
}

# The holdout's last run (2026-12-04) did 8 of its 9 tasks right; the one it failed
# (mui-time-written-am: MUI X's time sections hidden until focused) was fixed after,
# through a seen task of the same kind (test_forms.py, mui-time-first). Each task that
# fails its step must never post a wrong value (judge checks that first).
KNOWN: dict[str, str] = {}


@pytest.mark.parametrize("name", list(TASKS))
async def test_holdout_widget_form(
    name: str, run_open: Opener, library: Library, request: pytest.FixtureRequest
) -> None:
    if name in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[name], strict=True))
    await judge(TASKS[name], run_open, library)
