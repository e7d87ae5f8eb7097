"""Event forms built from MUI X, Ant Design, react-datepicker and Vuetify, filled as a
user writes the values, judged by what each form posted."""

from __future__ import annotations

import pytest

from ...conftest import Opener
from .conftest import Library
from .tasks import SUBMIT, Task, judge

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

TASKS: dict[str, Task] = {
    # MUI X on a British page: a numeric date is day first; a 24-hour time in sections
    "mui-event-date-and-time": Task(
        "mui",
        [
            {"enter": "Board games night", "into": "Event name"},
            {"enter": "03/04/2027", "into": "Event date"},
            {"enter": "19:30", "into": "Start time"},
            SUBMIT,
        ],
        {"name": "Board games night", "date": "2027-04-03", "time": "19:30"},
    ),
    # a mobile date picker: a dialog with its own month arrows and its own OK, while the
    # page's inline calendar shows further down
    "mui-mobile-deadline": Task(
        "mui",
        [{"enter": "2 February 2027", "into": "Registration deadline"}, SUBMIT],
        {"deadline": "2027-02-02", "rehearsal": ""},
    ),
    # a sectioned time field that shows its sections only once focused, set first
    "mui-time-first": Task(
        "mui",
        [{"enter": "20:15", "into": "Start time"}, SUBMIT],
        {"time": "20:15", "date": ""},
    ),
    "mui-select-and-autocomplete": Task(
        "mui",
        [
            {"choose": "Workshop", "in": "Category"},
            {"choose": "Berlin", "in": "City"},
            SUBMIT,
        ],
        {"category": "Workshop", "city": "Berlin"},
    ),
    # a static calendar whose only name is its container's caption
    "mui-inline-calendar": Task(
        "mui",
        [
            {"enter": "Spring rehearsal", "into": "Event name"},
            {"choose": "20 February 2027", "in": "Rehearsal day"},
            SUBMIT,
        ],
        {"name": "Spring rehearsal", "rehearsal": "2027-02-20"},
    ),
    # typed text left in an autocomplete is not a choice
    "mui-city-not-offered": Task("mui", [{"choose": "Gotham", "in": "City"}, SUBMIT], None),
    # Ant Design on an American page: a numeric date is month first
    "antd-two-date-fields": Task(
        "antd",
        [
            {"enter": "04/03/2027", "into": "Event date"},
            {"enter": "April 5, 2027", "into": "End date"},
            SUBMIT,
        ],
        {"date": "2027-04-03", "end": "2027-04-05"},
    ),
    # a time picker that keeps its pick until its own OK; a number input at 10 set to 0
    "antd-time-and-tickets": Task(
        "antd",
        [
            {"enter": "18:45", "into": "Start time"},
            {"enter": "0", "into": "Tickets"},
            SUBMIT,
        ],
        {"time": "18:45", "tickets": "0"},
    ),
    "antd-category": Task(
        "antd",
        [
            {"enter": "Design review", "into": "Event name"},
            {"choose": "Meetup", "in": "Category"},
            SUBMIT,
        ],
        {"name": "Design review", "category": "Meetup"},
    ),
    # react-datepicker on an American page
    "datepicker-date-and-time": Task(
        "datepicker",
        [
            {"enter": "Summer party", "into": "Event name"},
            {"enter": "07/08/2027", "into": "Event date"},
            {"choose": "2:30 PM", "in": "Start time"},
            SUBMIT,
        ],
        {"name": "Summer party", "date": "2027-07-08", "time": "14:30"},
    ),
    # suggestions that arrive late, plain elements behind one click handler
    "datepicker-late-suggestions": Task(
        "datepicker",
        [
            {"choose": "Grace Hopper", "in": "Host"},
            {"choose": "Webinar", "in": "Category"},
            SUBMIT,
        ],
        {"host": "Grace Hopper", "category": "Webinar"},
    ),
    "datepicker-inline-calendar": Task(
        "datepicker",
        [{"choose": "15 March 2027", "in": "Preferred day"}, SUBMIT],
        {"preferred": "2027-03-15", "name": ""},
    ),
    # Vuetify on a British page
    "vuetify-event-date": Task(
        "vuetify",
        [
            {"enter": "Quiz night", "into": "Event name"},
            {"enter": "05/06/2027", "into": "Event date"},
            SUBMIT,
        ],
        {"name": "Quiz night", "date": "2027-06-05"},
    ),
    "vuetify-tickets-and-category": Task(
        "vuetify",
        [
            {"enter": "0", "into": "Tickets"},
            {"choose": "Conference", "in": "Category"},
            SUBMIT,
        ],
        {"tickets": "0", "category": "Conference"},
    ),
    "vuetify-city-not-offered": Task(
        "vuetify", [{"choose": "Springfield", "in": "City"}, SUBMIT], None
    ),
}

KNOWN: dict[str, str] = {}


@pytest.mark.parametrize("name", list(TASKS))
async def test_widget_form(
    name: str, run_open: Opener, library: Library, request: pytest.FixtureRequest
) -> None:
    if name in KNOWN:
        request.applymarker(pytest.mark.xfail(reason=KNOWN[name], strict=True))
    await judge(TASKS[name], run_open, library)
