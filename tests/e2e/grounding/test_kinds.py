"""Controls named by their kind, on a page whose controls have no labels: the flow is
judged by what the server received."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ..conftest import Runner
from .conftest import Site

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_an_unlabelled_form_is_filled_by_naming_each_control_by_its_kind(
    run: Runner, site: Site
) -> None:
    before = len(site.posted.get("quick-order", []))
    result = await run(
        [
            {"browse": site.url("quick-order")},
            {"enter": "Ada", "into": "the first text field"},
            {"enter": "Lovelace", "into": "the second text field"},
            {"choose": "Large", "in": "the list"},
            {"choose": "Blue", "in": "the dropdown"},
            {"choose": "Text me", "in": "the checkboxes"},
            {"choose": "Express", "in": "the options"},
            {"choose": "Gift wrap", "in": "the list"},
            {"enter": "Leave at the door", "into": "the text area"},
            {"click": "Save"},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    posted = site.posted["quick-order"][before:]
    assert posted == [
        {
            "first": "Ada",
            "last": "Lovelace",
            "size": "Large",
            "colour": "Blue",
            "contact": "sms",
            "speed": "express",
            "wrap": "Gift wrap",
            "note": "Leave at the door",
        }
    ]
