"""MediaWiki as its editors use it: a new page, preferences (a checkbox among many, a
real name), a page protected, an account made for a colleague; each task signs in
first, judged by the wiki's own SQLite database. Added with its first run recorded
before any engine change for it (the closing note of the session that added it)."""

from __future__ import annotations

from typing import Any

import pytest

from ..app_process import SQLiteApp
from ..tasks import Task, expect_known, judge, signing_in
from .conftest import ADMIN, ADMIN_PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

PREFERENCES = "/index.php?title=Special:Preferences"


def signed_in(url: str, *steps: dict[str, Any]) -> list[dict[str, Any]]:
    return signing_in(url + "/index.php?title=Special:UserLogin", ADMIN, ADMIN_PASSWORD, "Log in")(
        *steps
    )


def preference(name: str) -> Any:
    return lambda app, _r: app.rows(
        "SELECT up_value FROM user_properties JOIN user ON user_id = up_user "
        "WHERE user_name = ? AND up_property = ?",
        ADMIN,
        name,
    )


TASKS: dict[str, Task[SQLiteApp]] = {
    "a-new-page-with-a-summary": Task(
        lambda url: signed_in(
            url,
            {"browse": url + "/index.php?title=Opening_hours&action=edit"},
            {"enter": "The library opens at 9 and closes at 17.", "into": "the text of the page"},
            {"enter": "first version", "into": "Summary"},
            {"click": "Save page"},
        ),
        got=lambda app, _r: app.rows(
            "SELECT p.page_title, r.rev_id IS NOT NULL, c.comment_text FROM page p "
            "JOIN revision r ON r.rev_page = p.page_id "
            "JOIN comment c ON c.comment_id = r.rev_comment_id "
            "WHERE p.page_title = 'Opening_hours'"
        ),
        want=lambda app: [("Opening_hours", 1, "first version")],
        allow_destructive=True,
    ),
    "minor-edits-by-default": Task(
        lambda url: signed_in(
            url,
            {"browse": url + PREFERENCES},
            {"click": "Editing"},
            {"choose": "ticked", "in": "Mark all edits minor by default"},
            {"click": "Save"},
        ),
        got=preference("minordefault"),
        want=lambda app: [(1,)],
    ),
    "a-real-name": Task(
        lambda url: signed_in(
            url,
            {"browse": url + PREFERENCES},
            {"enter": "Ada Admin", "into": "Real name"},
            {"click": "Save"},
        ),
        got=lambda app, _r: app.rows("SELECT user_real_name FROM user WHERE user_name = ?", ADMIN),
        want=lambda app: [("Ada Admin",)],
    ),
    "protect-the-main-page": Task(
        lambda url: signed_in(
            url,
            {"browse": url + "/index.php?title=Main_Page&action=protect"},
            {"choose": "Allow only administrators", "in": "Edit"},
            {"enter": "Vandalism", "into": "Reason"},
            {"click": "Confirm"},
        ),
        got=lambda app, _r: app.rows(
            "SELECT pr_type, pr_level FROM page_restrictions JOIN page ON page_id = pr_page "
            "WHERE page_title = 'Main_Page' ORDER BY pr_type"
        ),
        want=lambda app: [("edit", "sysop"), ("move", "sysop")],
    ),
    "an-account-for-a-colleague": Task(
        lambda url: signed_in(
            url,
            {"browse": url + "/index.php?title=Special:CreateAccount"},
            {"enter": "Bea Librarian", "into": "Username"},
            {"enter": "Shelf-8831-canary", "into": "Password"},
            {"enter": "Shelf-8831-canary", "into": "Confirm password"},
            {"enter": "Bea L.", "into": "Real name"},
            {"click": "Create account"},
        ),
        got=lambda app, _r: app.rows(
            "SELECT user_name, user_real_name FROM user WHERE user_name = 'Bea Librarian'"
        ),
        want=lambda app: [("Bea Librarian", "Bea L.")],
        allow_destructive=True,
    ),
}

KNOWN: dict[str, str] = {
    "a-new-page-with-a-summary": "the edit box has no visible caption (its accessible name is "
    "'Wikitext source editor'): 'the text of the page' ties a link 'Page' and 'Search'",
    "protect-the-main-page": "'Reason' names a select of reasons and the text box after it: the "
    "text is typed at the select ('could not type into Other reason')",
}
"""Tasks that fail today, each with its cause (strict: one that passes must leave)."""


@pytest.mark.parametrize("name", list(TASKS))
async def test_mediawiki_task(
    name: str, run_open: Any, mediawiki: SQLiteApp, request: pytest.FixtureRequest
) -> None:
    expect_known(request, KNOWN, name)
    await judge(TASKS[name], run_open, mediawiki)
