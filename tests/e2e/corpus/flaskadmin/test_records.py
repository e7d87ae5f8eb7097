"""Tasks on Flask-Admin's model views, judged by the app's SQLite file.

Each task works on records of its own, so the tasks share one app instance. Every test
first checks that a run that says it is done left exactly the asked values (a ``done``
with a wrong value is the worst outcome), then that the run is done.
"""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Opener, Runner
from .conftest import FlaskAdmin

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def claims_done(status: RunStatus) -> bool:
    return status == RunStatus.COMPLETED


async def test_create_post_with_author_status_number_and_date(
    run: Runner, flask_admin: FlaskAdmin
) -> None:
    result = await run(
        [
            {"browse": f"{flask_admin.url}/admin/post/"},
            {"click": "Create"},
            {"enter": "Timesharing explained", "into": "Title"},
            {"enter": "Many users, one machine.", "into": "Body"},
            {"choose": "Grace Hopper", "in": "Author"},
            {"choose": "review", "in": "Status"},
            {"enter": "42", "into": "Views"},
            {"enter": "2027-03-15", "into": "Publish on"},
            {"click": "Save"},
        ]
    )
    row = flask_admin.one(
        "SELECT p.body, u.name, p.status, p.views, p.publish_on FROM post p "
        "LEFT JOIN user u ON u.id = p.author_id WHERE p.title = ?",
        "Timesharing explained",
    )
    want = ("Many users, one machine.", "Grace Hopper", "review", 42, "2027-03-15")
    if claims_done(result.status):
        assert row == want
    assert result.status == RunStatus.COMPLETED, result.failure
    assert row == want


async def test_edit_post_tick_featured_and_publish(run: Runner, flask_admin: FlaskAdmin) -> None:
    result = await run(
        [
            {"browse": f"{flask_admin.url}/admin/post/"},
            {"click": "Edit Record", "within": "The first bug"},
            {"choose": "Featured", "in": "Featured"},
            {"choose": "published", "in": "Status"},
            {"click": "Save"},
        ]
    )
    row = flask_admin.one("SELECT featured, status FROM post WHERE title = ?", "The first bug")
    if claims_done(result.status):
        assert row == (1, "published")
    assert result.status == RunStatus.COMPLETED, result.failure
    assert row == (1, "published")


@pytest.mark.xfail(
    strict=True,
    reason="the search box has no label (its placeholder lists the searchable columns); "
    "'Search' grounds to its form's submit button, not to the field that button submits",
)
async def test_search_users_and_read_an_email(run: Runner, flask_admin: FlaskAdmin) -> None:
    result = await run(
        {
            "vars": {"email": ""},
            "steps": [
                {"browse": f"{flask_admin.url}/admin/user/"},
                {"enter": "Hopper", "into": "Search", "submit": True},
                {"read": "the Email of Grace Hopper", "as": "email"},
            ],
        }
    )
    row = flask_admin.one("SELECT email FROM user WHERE name = ?", "Grace Hopper")
    assert row is not None
    if claims_done(result.status):
        assert result.variables["email"] == row[0]
    assert result.status == RunStatus.COMPLETED, result.failure
    assert result.variables["email"] == row[0]


@pytest.mark.xfail(
    strict=True,
    reason="a typed ISO date in Flask-Admin's daterangepicker field is set by stepping its "
    "calendar month by month, and 1939 is beyond what the run steps ('could not reach "
    "November 1939 in the calendar')",
)
async def test_create_user_with_role_and_unticked_active(
    run: Runner, flask_admin: FlaskAdmin
) -> None:
    result = await run(
        [
            {"browse": f"{flask_admin.url}/admin/user/new/"},
            {"enter": "Barbara Liskov", "into": "Name"},
            {"enter": "barbara@example.org", "into": "Email"},
            {"choose": "editor", "in": "Role"},
            {"choose": "not Is Active", "in": "Is Active"},
            {"enter": "1939-11-07", "into": "Birthday"},
            {"click": "Save"},
        ]
    )
    row = flask_admin.one(
        "SELECT name, role, is_active, birthday FROM user WHERE email = ?", "barbara@example.org"
    )
    want = ("Barbara Liskov", "editor", 0, "1939-11-07")
    if claims_done(result.status):
        assert row == want
    assert result.status == RunStatus.COMPLETED, result.failure
    assert row == want


async def test_delete_a_post_confirming_the_question(run: Runner, flask_admin: FlaskAdmin) -> None:
    title = "A case against the GO TO"
    result = await run(
        [
            {"browse": f"{flask_admin.url}/admin/post/"},
            {"click": "Delete record", "within": title},
        ],
        allow_destructive=True,
    )
    left = flask_admin.rows("SELECT id FROM post WHERE title = ?", title)
    others = flask_admin.rows("SELECT id FROM post WHERE title = ?", "On computable numbers")
    if claims_done(result.status):
        assert left == [] and len(others) == 1
    assert result.status == RunStatus.COMPLETED, result.failure
    assert left == [] and len(others) == 1


@pytest.mark.xfail(
    strict=True,
    reason="Flask-Admin's datetime field (daterangepicker with a time picker) is redrawn "
    "while the date is set and the run loses the field ('element ... is no longer on the page')",
)
async def test_event_time_in_the_datetime_picker(run: Runner, flask_admin: FlaskAdmin) -> None:
    result = await run(
        [
            {"browse": f"{flask_admin.url}/admin/post/new/"},
            {"enter": "Launch party", "into": "Title"},
            {"enter": "2027-06-01 18:30", "into": "Event at"},
            {"click": "Save"},
        ]
    )
    row = flask_admin.one("SELECT event_at FROM post WHERE title = ?", "Launch party")
    want = ("2027-06-01 18:30:00.000000",)
    if claims_done(result.status):
        assert row == want
    assert result.status == RunStatus.COMPLETED, result.failure
    assert row == want


async def test_stop_before_deleting_keeps_the_record(run: Runner, flask_admin: FlaskAdmin) -> None:
    title = "Compilers for everyone"
    result = await run(
        [
            {"browse": f"{flask_admin.url}/admin/post/"},
            {"stop_before": "deleting a record"},
        ]
    )
    assert flask_admin.rows("SELECT id FROM post WHERE title = ?", title) != []
    assert result.status == RunStatus.GATED, result.failure


async def test_a_field_only_close_to_the_words_is_not_overwritten(
    run_open: Opener, flask_admin: FlaskAdmin
) -> None:
    # The post form has no "Subtitle"; its nearest label, "Title", holds what the first
    # step entered. The run must fail naming it rather than overwrite it and save.
    async with run_open(
        [
            {"browse": f"{flask_admin.url}/admin/post/new/"},
            {"enter": "Ledger keeps this", "into": "Title"},
            {"enter": "A subtitle", "into": "Subtitle"},
            {"click": "Save"},
        ]
    ) as done:
        assert await done.page.input_value("#title") == "Ledger keeps this"
    result = done.result
    assert flask_admin.rows("SELECT id FROM post WHERE title LIKE 'A subtitle%'") == []
    assert flask_admin.rows("SELECT id FROM post WHERE title = 'Ledger keeps this'") == []
    assert result.status == RunStatus.FAILED
    assert result.failure is not None and result.failure.path == "2"
    assert "'Ledger keeps this'" in result.failure.reason
