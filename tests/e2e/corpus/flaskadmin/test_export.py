"""Flask-Admin's own CSV export, downloaded and read: the file kept is the bytes the
app serves, and what a ``read`` takes from it is what the app's database holds; the
same in a remote browser over DevTools, whose downloads are on its side."""

from __future__ import annotations

import hashlib

import httpx
import pytest

from gofer.runtime import FileLimits, RunStatus

from ...conftest import Opener
from .conftest import FlaskAdmin

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

POST = "Notes on the Analytical Engine"


async def test_the_post_export_is_kept_and_read(run_open: Opener, flask_admin: FlaskAdmin) -> None:
    await export_kept_and_read(run_open, flask_admin)


async def test_the_post_export_is_kept_from_a_remote_browser(
    remote_open: Opener, flask_admin: FlaskAdmin
) -> None:
    await export_kept_and_read(remote_open, flask_admin)


async def export_kept_and_read(open_run: Opener, flask_admin: FlaskAdmin) -> None:
    flow = [
        {"browse": f"{flask_admin.url}/admin/post/"},
        {"download": "Export", "as": "posts"},
        {"read": f"the Views of {POST}", "from": "posts", "as": "views"},
        {"read": "each post", "from": "posts", "as": "rows", "list": True},
    ]
    async with open_run(flow) as done:
        result = done.result
    assert result.status is RunStatus.COMPLETED, (result.failure, result.steps)
    [kept] = result.kept
    async with httpx.AsyncClient() as http:
        served = await http.get(f"{flask_admin.url}/admin/post/export/csv/")
    assert kept.sha256 == hashlib.sha256(served.content).hexdigest()
    assert kept.media_type == "text/csv"
    stored = flask_admin.one("SELECT views FROM post WHERE title = ?", POST)
    assert stored is not None and result.variables["views"] == str(stored[0])
    titles = {r["Title"] for r in result.variables["rows"] if isinstance(r, dict)}
    assert {t for (t,) in flask_admin.rows("SELECT title FROM post")} == titles


async def test_an_export_past_the_file_limit_fails_and_nothing_is_kept(
    run_open: Opener, flask_admin: FlaskAdmin
) -> None:
    flow = [
        {"browse": f"{flask_admin.url}/admin/post/"},
        {"download": "Export", "as": "posts"},
    ]
    async with run_open(flow, file_limits=FileLimits(bytes=100)) as done:
        result = done.result
    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert "more than the 100 a task may keep" in result.failure.reason, result.failure
    assert result.kept == [] and "posts" not in result.variables
