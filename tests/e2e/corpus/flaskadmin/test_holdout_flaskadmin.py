"""Holdout tasks on Flask-Admin's model views (run only before resolving), judged by
the app's SQLite file."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Runner
from .conftest import FlaskAdmin

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session"), pytest.mark.holdout]


async def test_holdout_change_a_users_email(run: Runner, flask_admin: FlaskAdmin) -> None:
    result = await run(
        [
            {"browse": f"{flask_admin.url}/admin/user/"},
            {"click": "Edit Record", "within": "Alan Turing"},
            {"enter": "turing@example.org", "into": "Email"},
            {"click": "Save"},
        ]
    )
    row = flask_admin.one("SELECT email FROM user WHERE name = ?", "Alan Turing")
    if result.status == RunStatus.COMPLETED:
        assert row == ("turing@example.org",)
    assert result.status == RunStatus.COMPLETED, result.failure
    assert row == ("turing@example.org",)


async def test_holdout_read_a_posts_views(run: Runner, flask_admin: FlaskAdmin) -> None:
    result = await run(
        {
            "vars": {"views": ""},
            "steps": [
                {"browse": f"{flask_admin.url}/admin/post/"},
                {"read": "the Views of Go to statement considered harmful", "as": "views"},
            ],
        }
    )
    row = flask_admin.one(
        "SELECT views FROM post WHERE title = ?", "Go to statement considered harmful"
    )
    assert row is not None
    if result.status == RunStatus.COMPLETED:
        assert str(result.variables["views"]).strip() == str(row[0])
    assert result.status == RunStatus.COMPLETED, result.failure
    assert str(result.variables["views"]).strip() == str(row[0])


async def test_holdout_new_post_by_an_author_with_a_date(
    run: Runner, flask_admin: FlaskAdmin
) -> None:
    result = await run(
        [
            {"browse": f"{flask_admin.url}/admin/post/"},
            {"click": "Create"},
            {"enter": "Structured programming", "into": "Title"},
            {"choose": "Edsger Dijkstra", "in": "Author"},
            {"enter": "7", "into": "Views"},
            {"enter": "2026-12-24", "into": "Publish on"},
            {"click": "Save"},
        ]
    )
    row = flask_admin.one(
        "SELECT u.name, p.views, p.publish_on FROM post p LEFT JOIN user u "
        "ON u.id = p.author_id WHERE p.title = ?",
        "Structured programming",
    )
    want = ("Edsger Dijkstra", 7, "2026-12-24")
    if result.status == RunStatus.COMPLETED:
        assert row == want
    assert result.status == RunStatus.COMPLETED, result.failure
    assert row == want


async def test_holdout_new_admin_user(run: Runner, flask_admin: FlaskAdmin) -> None:
    result = await run(
        [
            {"browse": f"{flask_admin.url}/admin/user/new/"},
            {"enter": "Frances Allen", "into": "Name"},
            {"enter": "frances@example.org", "into": "Email"},
            {"choose": "admin", "in": "Role"},
            {"click": "Save"},
        ]
    )
    row = flask_admin.one(
        "SELECT name, role, is_active FROM user WHERE email = ?", "frances@example.org"
    )
    want = ("Frances Allen", "admin", 1)
    if result.status == RunStatus.COMPLETED:
        assert row == want
    assert result.status == RunStatus.COMPLETED, result.failure
    assert row == want
