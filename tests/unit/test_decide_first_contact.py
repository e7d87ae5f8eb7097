"""The classes of grounding failures found on first contact with real pages (issue 28),
on screens captured from pages built the way such pages are (tests/unit/screens/html/
fc_*.html; the same pages run end to end in tests/e2e/grounding/test_first_contact.py)."""

from __future__ import annotations

from dataclasses import replace

from screens.decide_build import load

from gofer.decide import (
    Query,
    Want,
    choice_members,
    form_errors,
    ground,
    hint_for,
    judge,
    label_of,
    learn_hint,
    learns,
    offering_beside,
    openers,
    read_value,
    tick_state,
    too_weak,
)
from gofer.safety import Consequence
from gofer.surfaces.screen import Box, Element, Screen, TextLine


def _named(screen: Screen, name: str) -> str:
    return next(e.ref for e in screen.elements if label_of(e) == name)


def test_a_value_button_is_named_by_its_value_before_its_title() -> None:
    screen = load("fc_wiki_edit")
    save = screen.element(_named(screen, "Save page"))
    assert save is not None and save.title == "Save your changes [alt-shift-s]"
    query = Query("Save page", Want.CLICK, kind="click")
    found = ground(query, screen)
    assert found.element is save and not too_weak(found, query)


def test_a_pick_that_holds_only_part_of_the_words_is_too_weak_to_act_on() -> None:
    screen = load("fc_wiki_edit")
    query = Query("Publish page", Want.CLICK, kind="click")
    found = ground(query, screen)
    assert found.element is not None and found.element.name == "Page"
    assert "weak" in too_weak(found, query)


def test_state_words_act_on_the_checkbox_the_words_name() -> None:
    assert tick_state("ticked", "Mark all edits minor by default") is True
    assert tick_state("off", "Show edit toolbar") is False
    assert tick_state("Show edit toolbar", "Show edit toolbar") is True
    assert tick_state("not Show edit toolbar", "Show edit toolbar") is False
    # an option that names neither the box nor a state: never "already done"
    assert tick_state("Mentions", "Show edit toolbar") is None


def test_a_caption_over_pressed_buttons_names_their_group_past_a_sidebar() -> None:
    screen = load("fc_booking")
    found = ground(Query("Cabin class", Want.CONTROL, kind="choose", option="Business"), screen)
    assert found.element is not None and found.element.name == "Business"
    assert [label_of(m) for m in choice_members(screen, found.element, "Business")] == [
        "Economy",
        "Premium",
        "Business",
    ]


def test_a_hidden_slider_is_named_by_its_caption_not_a_neighbour_alike() -> None:
    screen = load("fc_booking")
    found = ground(Query("Number of nights", Want.CONTROL, kind="choose", option="5"), screen)
    assert found.element is not None and found.element.role == "slider"
    assert found.element.visible  # drawn by its thumb


def test_a_radio_covered_by_its_drawn_box_is_reached_through_its_label() -> None:
    screen = load("fc_booking")
    deluxe = screen.element(_named(screen, "Deluxe"))
    assert deluxe is not None and not deluxe.on_top
    found = ground(Query("Room type", Want.CONTROL, kind="choose", option="Deluxe"), screen)
    assert found.element is deluxe


def test_icon_only_buttons_are_named_by_their_icon_set_words() -> None:
    screen = load("fc_booking")
    plus = ground(Query("+", Want.CLICK, kind="click"), screen)
    minus = ground(Query("−", Want.CLICK, kind="click"), screen)
    assert plus.element is not None and plus.element.name == "plus"
    assert minus.element is not None and minus.element.name == "minus"


def test_glyph_words_are_hints_of_their_own() -> None:
    screen = load("fc_booking")
    plus = ground(Query("+", Want.CLICK, kind="click"), screen).element
    assert plus is not None
    hint = learn_hint(Query("+", Want.CLICK, kind="click"), plus, "http://pages.test")
    assert hint_for(Query("+", Want.CLICK, kind="click"), screen, [hint]) is hint
    assert hint_for(Query("−", Want.CLICK, kind="click"), screen, [hint]) is None


def test_a_hint_never_remembers_a_box_found_through_its_option() -> None:
    screen = load("fc_booking")
    query = Query("Extras", Want.CONTROL, kind="choose", option="Breakfast")
    found = ground(query, screen)
    assert found.element is not None and found.element.name == "Breakfast"
    assert not learns(query, found.element)
    named = Query("Breakfast", Want.CONTROL, kind="choose", option="ticked")
    assert learns(named, found.element)


def test_a_dropdown_labelled_by_its_own_pick_takes_the_caption_beside_it() -> None:
    screen = load("fc_booking")
    query = Query("Expiration", Want.CONTROL, kind="choose", option="1 month")
    found = ground(query, screen)
    assert found.element is not None and found.element.role == "combobox"
    assert found.element.label == "Never"


def test_a_bare_confirm_is_judged_by_the_act_its_form_performs() -> None:
    protect, block = load("fc_protect"), load("fc_block")
    assert judge(protect.element(_named(protect, "Confirm")), protect) is (  # type: ignore[arg-type]
        Consequence.REVERSIBLE
    )
    assert judge(block.element(_named(block, "Confirm")), block) is (  # type: ignore[arg-type]
        Consequence.IRREVERSIBLE
    )


def test_looking_never_opens_a_stepper() -> None:
    screen = load("fc_stepper")
    assert all("value" not in label_of(e) for e in openers(screen))


def test_an_alert_over_a_form_that_came_back_refuses_the_send() -> None:
    before = load("fc_booking")
    alert = TextLine("Please choose a room type before booking.", Box(208, 8, 500, 20))
    after = replace(before, lines=(alert, *before.lines))
    assert form_errors(before, after, reloaded=True) == [alert.text]


def test_the_order_total_reads_the_total_a_summary_shows() -> None:
    assert read_value("the order total", load("app_pretix_cart")) == "€45.00"
    assert read_value("the order total", load("cartridge_cart")) == "£5.00"
    # where the page says "Order total" itself, that line is read
    assert read_value("the order total", load("oscar_basket")) == "£26.24"


def _calculator() -> Screen:
    def button(ref: str, name: str, title: str, x: float) -> Element:
        return Element(ref, "button", name, title=title, box=Box(x, 200, 40, 40))

    return Screen(
        "desktop://gnome-calculator",
        "Calculator",
        (),
        (
            button("e1", "Close", "", 380),
            Element("e2", "textbox", "", value="21", editable=True, box=Box(10, 60, 400, 80)),
            button("e3", "7", "", 10),
            button("e4", "×", "Multiply", 60),
            button("e5", "=", "Calculate Result", 110),
            button("e6", "−", "Subtract", 160),
        ),
    )


def test_a_control_is_named_by_the_glyph_it_shows() -> None:
    screen = _calculator()
    for glyph, ref in (("×", "e4"), ("=", "e5"), ("−", "e6")):
        found = ground(Query(glyph, Want.CLICK, kind="click"), screen)
        assert found.element is not None and found.element.ref == ref, glyph
        assert not found.low_confidence


def test_the_result_reads_the_main_display() -> None:
    assert read_value("the result", _calculator()) == "21"


def test_a_field_named_by_the_last_words_alone_is_no_weak_pick() -> None:
    screen = Screen(
        "http://pages.test/user",
        "New user",
        (),
        (
            Element("e1", "textbox", "Name", label="Name", editable=True, box=Box(10, 10, 200, 20)),
            Element(
                "e2", "textbox", "Email", label="Email", editable=True, box=Box(10, 40, 200, 20)
            ),
        ),
    )
    query = Query("Real name", Want.FIELD, kind="enter")
    found = ground(query, screen)
    assert found.element is not None and found.element.ref == "e1" and found.confidence < 0.55
    assert too_weak(found, query) == ""
    # a click's missing words are what it does: "Publish" is not "Page"
    click = Query("Publish name", Want.CLICK, kind="click")
    assert too_weak(ground(click, screen), click)


def test_a_select_beside_a_text_box_under_one_label_offers_the_option() -> None:
    screen = load("fc_move")
    box = ground(Query("New title", Want.CONTROL, kind="choose", option="Help"), screen).element
    assert box is not None and box.role == "textbox"
    select = offering_beside(screen, box, "Help")
    assert select is not None and select.name == "Namespace:"
    assert offering_beside(screen, box, "Sandbox 2") is None


def test_a_field_named_by_the_head_of_the_words_before_a_preposition_is_no_weak_pick() -> None:
    screen = Screen(
        "http://pages.test/milestone",
        "New milestone",
        (),
        (
            Element(
                "e1", "textbox", "Name:", label="Name:", editable=True, box=Box(10, 10, 200, 20)
            ),
            Element("e2", "textbox", "Due:", label="Due:", editable=True, box=Box(10, 40, 200, 20)),
        ),
    )
    query = Query("Name of the milestone", Want.FIELD, kind="enter")
    found = ground(query, screen)
    assert found.element is not None and found.element.ref == "e1"
    assert too_weak(found, query) == ""
    other = Query("Milestone name", Want.FIELD, kind="enter")
    assert too_weak(ground(other, screen), other) == ""


def test_a_bare_confirm_on_an_order_or_a_page_naming_no_act_still_stops() -> None:
    protect = load("fc_protect")
    confirm = protect.element(_named(protect, "Confirm"))
    assert confirm is not None
    for title in ("Review your order - Shop", "Checkout", "Step 3 of 4"):
        page = replace(protect, title=title)
        section = replace(confirm, section="")
        assert judge(section, page) is not Consequence.REVERSIBLE, title
