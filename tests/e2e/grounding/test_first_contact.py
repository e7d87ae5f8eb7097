"""The classes of grounding failures found on first contact with real pages (issue 28),
each on a page built the way such pages are, judged by the page's own state or what its
server received."""

from __future__ import annotations

from typing import Any

import pytest

from gofer.runtime import RunStatus, StepOutcome

from ..conftest import Opener
from .conftest import Site

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def _browse(site: Site, name: str, *steps: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"browse": site.url(name)}, *steps]


async def test_a_value_button_is_named_by_its_value_not_its_tooltip(
    run_open: Opener, site: Site
) -> None:
    sent = len(site.posted.get("fc_wiki_edit", []))
    flow = _browse(
        site,
        "fc_wiki_edit",
        {"enter": "Hello sandbox", "into": "Page text"},
        {"click": "Save page"},
    )
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
    posted = site.posted["fc_wiki_edit"][sent:]
    assert [p.get("save") for p in posted] == ["Save page"]
    assert posted[0]["text"] == "Hello sandbox"


async def test_a_click_on_part_of_the_words_fails_and_presses_nothing(
    run_open: Opener, site: Site
) -> None:
    sent = len(site.posted.get("fc_wiki_edit", []))
    async with run_open(_browse(site, "fc_wiki_edit", {"click": "Publish page"})) as done:
        assert done.result.status is RunStatus.FAILED
        assert await done.page.evaluate("location.hash") == ""
    assert site.posted.get("fc_wiki_edit", [])[sent:] == []


async def test_a_lone_checkbox_in_a_fieldset_takes_state_words(
    run_open: Opener, site: Site
) -> None:
    sent = len(site.posted.get("fc_preferences", []))
    flow = _browse(
        site,
        "fc_preferences",
        {"choose": "ticked", "in": "Mark all edits minor by default"},
        {"choose": "off", "in": "Show edit toolbar"},
        {"click": "Save"},
    )
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
    posted = site.posted["fc_preferences"][sent:]
    assert len(posted) == 1
    assert posted[0].get("minordefault") == "on"
    assert "toolbar" not in posted[0] and posted[0].get("sections") == "on"


async def test_a_choose_whose_option_names_neither_the_box_nor_a_state_fails(
    run_open: Opener, site: Site
) -> None:
    flow = _browse(site, "fc_preferences", {"choose": "Mentions", "in": "Show edit toolbar"})
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.FAILED
        assert done.result.steps[-1].outcome is not StepOutcome.ALREADY_DONE


async def test_a_multiple_select_holds_exactly_what_was_chosen(
    run_open: Opener, site: Site
) -> None:
    flow = _browse(
        site,
        "fc_preferences",
        {"choose": "python", "in": "Tags"},
        {"choose": "go", "in": "Tags"},
    )
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        chosen = await done.page.evaluate("[...tags.selectedOptions].map(o => o.text)")
        assert chosen == ["python", "go"]


async def test_a_bare_confirm_on_a_reversible_form_is_pressed(run_open: Opener, site: Site) -> None:
    sent = len(site.posted.get("fc_protect", []))
    flow = _browse(
        site,
        "fc_protect",
        {"choose": "Allow only administrators", "in": "Edit"},
        {"click": "Confirm"},
    )
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
    assert site.posted["fc_protect"][sent:] == [{"edit": "Allow only administrators", "reason": ""}]


async def test_a_bare_confirm_that_blocks_a_user_still_stops(run_open: Opener, site: Site) -> None:
    sent = len(site.posted.get("fc_block", []))
    async with run_open(_browse(site, "fc_block", {"click": "Confirm"})) as done:
        assert done.result.status is RunStatus.GATED, done.result.failure
    assert site.posted.get("fc_block", [])[sent:] == []


async def test_a_pressed_button_row_under_a_caption_is_one_choice(
    run_open: Opener, site: Site
) -> None:
    flow = _browse(site, "fc_booking", {"choose": "Business", "in": "Cabin class"})
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("cabin.value") == "business"


async def test_a_hidden_slider_under_a_caption_is_set_and_read_back(
    run_open: Opener, site: Site
) -> None:
    flow = _browse(site, "fc_booking", {"choose": "5", "in": "Number of nights"})
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("nights.value") == "5"
        assert await done.page.evaluate("guests.value") == "2"


async def test_a_radio_covered_by_its_drawn_box_is_chosen_through_its_label(
    run_open: Opener, site: Site
) -> None:
    flow = _browse(site, "fc_booking", {"choose": "Deluxe", "in": "Room type"})
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("document.querySelector('#room-deluxe').checked")


async def test_two_boxes_of_one_captioned_group_are_both_ticked(
    run_open: Opener, site: Site
) -> None:
    flow = _browse(
        site,
        "fc_booking",
        {"choose": "Breakfast", "in": "Extras"},
        {"choose": "Parking", "in": "Extras"},
    )
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        ticked = await done.page.evaluate(
            "[...document.querySelectorAll('[name=extras]')].filter(b => b.checked)"
            ".map(b => b.value)"
        )
        assert ticked == ["breakfast", "parking"]


async def test_an_icon_only_button_is_named_by_its_icon(run_open: Opener, site: Site) -> None:
    flow = _browse(site, "fc_booking", {"click": "+"}, {"click": "+"}, {"click": "−"})
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("rooms.value") == "2"


async def test_a_dropdown_labelled_by_its_own_pick_takes_its_caption(
    run_open: Opener, site: Site
) -> None:
    flow = _browse(site, "fc_booking", {"choose": "1 month", "in": "Expiration"})
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("expiration.value") == "1 month"


async def test_a_time_in_a_combobox_is_picked_from_its_list(run_open: Opener, site: Site) -> None:
    flow = _browse(site, "fc_booking", {"choose": "07:00", "in": "Pickup time"})
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("document.querySelector('#pickup-time').value") == (
            "7:00am"
        )


async def test_a_page_level_alert_refuses_the_send(run_open: Opener, site: Site) -> None:
    flow = _browse(site, "fc_booking", {"click": "Book"})
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.FAILED
        assert done.result.failure is not None
        assert "Please choose a room type" in done.result.failure.reason


async def test_looking_for_a_control_never_presses_a_stepper(run_open: Opener, site: Site) -> None:
    flow = _browse(
        site,
        "fc_stepper",
        {"enter": "3", "into": "Quantity"},
        {"click": "Apply voucher"},
    )
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.FAILED
        assert await done.page.evaluate("qty.value") == "3"


@pytest.mark.parametrize("last", [True, False])
async def test_a_value_a_controlled_field_threw_away_is_typed_key_by_key(
    run_open: Opener, site: Site, last: bool
) -> None:
    sent = len(site.posted.get("fc_react_price", []))
    typing = [{"enter": "Lamp", "into": "Title"}, {"enter": "86.40", "into": "Price"}]
    flow = _browse(site, "fc_react_price", *(typing if last else typing[::-1]), {"click": "Save"})
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
    assert site.posted["fc_react_price"][sent:] == [{"title": "Lamp", "price": "86.40"}]


async def test_a_choice_redrawn_under_the_click_is_found_again(
    run_open: Opener, site: Site
) -> None:
    sent = len(site.posted.get("fc_shipping", []))
    flow = _browse(
        site, "fc_shipping", {"choose": "Express", "in": "Shipping method"}, {"click": "Continue"}
    )
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
    assert site.posted["fc_shipping"][sent:] == [{"shipping": "express"}]


async def test_a_read_only_date_field_drawn_over_opens_its_calendar_where_it_shows(
    run_open: Opener, site: Site
) -> None:
    flow = _browse(site, "fc_masked_date", {"choose": "14 October 2016", "in": "Visit date"})
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("visit.value") == "2016-10-14"


async def test_choose_takes_the_select_that_offers_the_option_beside_a_text_box(
    run_open: Opener, site: Site
) -> None:
    flow = _browse(site, "fc_move", {"choose": "Help", "in": "New title"})
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("document.querySelector('select').value") == "Help"
        assert await done.page.evaluate("title.value") == "Sandbox"


async def test_a_link_that_leaves_what_the_form_held_fails_the_click(
    run_open: Opener, site: Site
) -> None:
    flow = _browse(
        site, "fc_wiki_edit", {"enter": "Hello sandbox", "into": "Page text"}, {"click": "Read"}
    )
    async with run_open(flow) as done:
        assert done.result.status is RunStatus.FAILED
        assert done.result.failure is not None
        assert "without sending what was typed into 'Page text'" in done.result.failure.reason
