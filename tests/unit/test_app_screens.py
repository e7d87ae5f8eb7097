"""The grounder on screens captured from real applications of the corpus (Flask-Admin,
pretalx): each test is a failure class those pages exposed."""

from __future__ import annotations

from screens.decide_build import load

from gofer.decide import Query, Want, ground
from gofer.decide.regions import resolve_regions


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
