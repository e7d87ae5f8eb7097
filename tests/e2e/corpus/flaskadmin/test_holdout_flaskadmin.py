"""Holdout tasks on Flask-Admin's model views (run only before resolving), judged by
the app's SQLite file (tasks.py)."""

from __future__ import annotations

import pytest

from ...conftest import Opener
from ..tasks import Task, judge
from .conftest import FlaskAdmin

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session"), pytest.mark.holdout]

HARMFUL = "Go to statement considered harmful"

TASKS: dict[str, Task[FlaskAdmin]] = {
    "change-a-users-email": Task(
        lambda url: [
            {"browse": f"{url}/admin/user/"},
            {"click": "Edit Record", "within": "Alan Turing"},
            {"enter": "turing@example.org", "into": "Email"},
            {"click": "Save"},
        ],
        lambda app, _: app.one("SELECT email FROM user WHERE name = ?", "Alan Turing"),
        lambda _: ("turing@example.org",),
    ),
    "read-a-posts-views": Task(
        lambda url: {
            "vars": {"views": ""},
            "steps": [
                {"browse": f"{url}/admin/post/"},
                {"read": f"the Views of {HARMFUL}", "as": "views"},
            ],
        },
        lambda _, result: str(result.variables.get("views")).strip(),
        lambda app: str(app.rows("SELECT views FROM post WHERE title = ?", HARMFUL)[0][0]),
    ),
    "new-post-by-an-author-with-a-date": Task(
        lambda url: [
            {"browse": f"{url}/admin/post/"},
            {"click": "Create"},
            {"enter": "Structured programming", "into": "Title"},
            {"choose": "Edsger Dijkstra", "in": "Author"},
            {"enter": "7", "into": "Views"},
            {"enter": "2026-12-24", "into": "Publish on"},
            {"click": "Save"},
        ],
        lambda app, _: app.one(
            "SELECT u.name, p.views, p.publish_on FROM post p LEFT JOIN user u "
            "ON u.id = p.author_id WHERE p.title = ?",
            "Structured programming",
        ),
        lambda _: ("Edsger Dijkstra", 7, "2026-12-24"),
    ),
    "new-admin-user": Task(
        lambda url: [
            {"browse": f"{url}/admin/user/new/"},
            {"enter": "Frances Allen", "into": "Name"},
            {"enter": "frances@example.org", "into": "Email"},
            {"choose": "admin", "in": "Role"},
            {"click": "Save"},
        ],
        lambda app, _: app.one(
            "SELECT name, role, is_active FROM user WHERE email = ?", "frances@example.org"
        ),
        lambda _: ("Frances Allen", "admin", 1),
    ),
}


@pytest.mark.parametrize("name", list(TASKS))
async def test_flaskadmin_holdout_task(
    name: str, run_open: Opener, flask_admin: FlaskAdmin
) -> None:
    await judge(TASKS[name], run_open, flask_admin)
