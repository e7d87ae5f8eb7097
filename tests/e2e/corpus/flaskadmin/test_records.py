"""Tasks on Flask-Admin's model views, judged by the app's SQLite file (tasks.py)."""

from __future__ import annotations

import pytest

from gofer.runtime import RunResult, RunStatus

from ...conftest import Opener, Runner
from ..tasks import Task, judge
from .conftest import FlaskAdmin

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def _titles(result: RunResult) -> list[str]:
    got = result.variables.get("titles")
    if not isinstance(got, list):
        return []
    return sorted(str(r.get("Title", "")) if isinstance(r, dict) else str(r) for r in got)


GONE = ("Old draft on tapes", "Old draft on drums")

TASKS: dict[str, Task[FlaskAdmin]] = {
    "create-post-with-author-status-number-and-date": Task(
        lambda url: [
            {"browse": f"{url}/admin/post/"},
            {"click": "Create"},
            {"enter": "Timesharing explained", "into": "Title"},
            {"enter": "Many users, one machine.", "into": "Body"},
            {"choose": "Grace Hopper", "in": "Author"},
            {"choose": "review", "in": "Status"},
            {"enter": "42", "into": "Views"},
            {"enter": "2027-03-15", "into": "Publish on"},
            {"click": "Save"},
        ],
        lambda app, _: app.one(
            "SELECT p.body, u.name, p.status, p.views, p.publish_on FROM post p "
            "LEFT JOIN user u ON u.id = p.author_id WHERE p.title = ?",
            "Timesharing explained",
        ),
        lambda _: ("Many users, one machine.", "Grace Hopper", "review", 42, "2027-03-15"),
    ),
    "edit-post-tick-featured-and-publish": Task(
        lambda url: [
            {"browse": f"{url}/admin/post/"},
            {"click": "Edit Record", "within": "The first bug"},
            {"choose": "Featured", "in": "Featured"},
            {"choose": "published", "in": "Status"},
            {"click": "Save"},
        ],
        lambda app, _: app.one(
            "SELECT featured, status FROM post WHERE title = ?", "The first bug"
        ),
        lambda _: (1, "published"),
    ),
    "search-users-and-read-an-email": Task(
        lambda url: {
            "vars": {"email": ""},
            "steps": [
                {"browse": f"{url}/admin/user/"},
                {"enter": "Hopper", "into": "Search", "submit": True},
                {"read": "the Email of Grace Hopper", "as": "email"},
            ],
        },
        lambda _, result: result.variables.get("email"),
        lambda app: app.rows("SELECT email FROM user WHERE name = ?", "Grace Hopper")[0][0],
    ),
    "create-user-with-role-and-unticked-active": Task(
        lambda url: [
            {"browse": f"{url}/admin/user/new/"},
            {"enter": "Barbara Liskov", "into": "Name"},
            {"enter": "barbara@example.org", "into": "Email"},
            {"choose": "editor", "in": "Role"},
            {"choose": "not Is Active", "in": "Is Active"},
            {"enter": "1939-11-07", "into": "Birthday"},
            {"click": "Save"},
        ],
        lambda app, _: app.one(
            "SELECT name, role, is_active, birthday FROM user WHERE email = ?",
            "barbara@example.org",
        ),
        lambda _: ("Barbara Liskov", "editor", 0, "1939-11-07"),
    ),
    "delete-a-post-confirming-the-question": Task(
        lambda url: [
            {"browse": f"{url}/admin/post/"},
            {"click": "Delete record", "within": "A case against the GO TO"},
        ],
        lambda app, _: (
            app.rows("SELECT id FROM post WHERE title = ?", "A case against the GO TO"),
            len(app.rows("SELECT id FROM post WHERE title = ?", "On computable numbers")),
        ),
        lambda _: ([], 1),
        allow_destructive=True,
    ),
    "event-time-in-the-datetime-picker": Task(
        lambda url: [
            {"browse": f"{url}/admin/post/new/"},
            {"enter": "Launch party", "into": "Title"},
            {"enter": "2027-06-01 18:30", "into": "Event at"},
            {"click": "Save"},
        ],
        lambda app, _: app.one("SELECT event_at FROM post WHERE title = ?", "Launch party"),
        lambda _: ("2027-06-01 18:30:00.000000",),
    ),
    "bulk-delete-two-selected-posts": Task(
        lambda url: [
            {"browse": f"{url}/admin/post/"},
            {"choose": "Select record", "in": "Select record", "within": GONE[0]},
            {"choose": "Select record", "in": "Select record", "within": GONE[1]},
            {"click": "With selected"},
            {"click": "Delete"},
        ],
        lambda app, _: (
            app.rows("SELECT title FROM post WHERE title IN (?, ?)", *GONE),
            len(app.rows("SELECT id FROM post WHERE title = ?", "Notes on the Analytical Engine")),
        ),
        lambda _: ([], 1),
        allow_destructive=True,
    ),
    "filter-posts-by-status-and-read-the-titles": Task(
        lambda url: {
            "vars": {"titles": ""},
            "steps": [
                {"browse": f"{url}/admin/post/"},
                {"click": "Add Filter"},
                {"click": "Status"},
                {"choose": "review", "in": "Status"},
                {"click": "Apply"},
                {"read": "the Title of every post", "as": "titles", "list": True},
            ],
        },
        lambda _, result: _titles(result),
        lambda app: sorted(t for (t,) in app.rows("SELECT title FROM post WHERE status='review'")),
    ),
}

KNOWN: dict[str, str] = {
    "filter-posts-by-status-and-read-the-titles": (
        "the filter row 'Add Filter' adds ('× Status', an operator and a value, both select2 "
        "boxes named only by what they show) has no control the words 'Status' name: they "
        "ground to the table's Status sort link, which shows no options to choose 'review' from"
    ),
}


@pytest.mark.parametrize(
    "task",
    [
        pytest.param(task, id=name, marks=[pytest.mark.xfail(reason=why, strict=True)])
        if (why := KNOWN.get(name))
        else pytest.param(task, id=name)
        for name, task in TASKS.items()
    ],
)
async def test_flaskadmin_task(
    task: Task[FlaskAdmin], run_open: Opener, flask_admin: FlaskAdmin
) -> None:
    await judge(task, run_open, flask_admin)


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
