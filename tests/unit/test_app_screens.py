"""The grounder on screens captured from real applications of the corpus (Flask-Admin,
pretalx): each test is a failure class those pages exposed."""

from __future__ import annotations

from screens.decide_build import load

from gofer.decide import Query, Want, ground
from gofer.decide.regions import resolve_regions
from gofer.flow import parse_flow
from gofer.runtime import RunRequest, RunStatus, RuntimeSettings, Workspace, run_flow
from gofer.surfaces.testing import FakeSurface

FAST = RuntimeSettings(
    target_timeout_ms=50, settle_timeout_ms=50, wait_timeout_ms=50, change_grace_ms=10
)


def test_a_record_titled_like_a_position_is_that_record_not_the_position() -> None:
    # Flask-Admin's list of posts: the sixth row's title is "The first bug".
    screen = load("app_flaskadmin_posts")
    region = resolve_regions("The first bug", screen)[0]
    assert region.kind == "record"
    found = ground(Query("Edit Record", Want.ACTION, "The first bug"), screen)
    assert found.element is not None
    assert found.element.record == region.record
    row = next(r for r in screen.records[region.record[0]].records if "The first bug" in r.text)
    assert row.box.contains(found.element.box)
    # A position still counts where no record shows the words as a line.
    first = resolve_regions("the first row", screen)[0]
    assert first.record is not None and first.record[1] == 0


async def test_a_click_whose_are_you_sure_was_answered_no_is_not_done() -> None:
    # Flask-Admin's row "Delete" button asks confirm('Are you sure ...?') before it posts.
    screen = load("app_flaskadmin_posts")
    title = "A case against the GO TO"
    row = next(r for r in screen.records[1].records if title in r.text)
    delete = next(
        e for e in screen.elements if e.name == "Delete Record" and row.box.contains(e.box)
    )
    question = "Are you sure you want to delete this record?"
    page = FakeSurface(screen, confirms={delete.ref: question})
    steps = [{"click": "Delete record", "within": title}]
    result = await run_flow(
        RunRequest(flow=parse_flow(steps), allow_destructive=True),
        Workspace.on(page),
        settings=FAST,
    )
    assert page.clicked == [delete.ref]
    assert result.status == RunStatus.FAILED
    assert result.failure is not None and question in result.failure.reason
