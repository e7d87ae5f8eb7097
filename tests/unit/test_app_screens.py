"""The grounder on screens captured from real applications of the corpus (Flask-Admin,
pretalx): each test is a failure class those pages exposed."""

from __future__ import annotations

from screens.decide_build import load

from gofer.decide import Query, Want, ground
from gofer.decide.reading import read_value
from gofer.decide.regions import resolve_regions
from gofer.flow import parse_flow
from gofer.runtime import (
    RunRequest,
    RunResult,
    RunStatus,
    RuntimeSettings,
    StepOutcome,
    Workspace,
    run_flow,
)
from gofer.surfaces.screen import Screen
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


def test_an_unlabelled_search_box_is_the_field_its_search_button_submits() -> None:
    # Flask-Admin's list views: a search box named only by its placeholder (the columns
    # it searches, "name, email" or "title") beside its form's "Search" button.
    for name, placeholder in (
        ("app_flaskadmin_users", "name, email"),
        ("app_flaskadmin_posts", "title"),
    ):
        screen = load(name)
        found = ground(Query("Search", Want.FIELD, kind="enter"), screen)
        assert found.element is not None and not found.low_confidence
        assert (found.element.role, found.element.placeholder) == ("textbox", placeholder)
        # Clicking "Search" is still the button.
        click = ground(Query("Search", Want.CLICK, kind="click"), screen)
        assert click.element is not None and click.element.role == "button"


def test_a_button_far_from_a_field_names_no_field() -> None:
    # The posts form's "Save" stands under its fields, not beside one: "Save" names none.
    form = load("app_flaskadmin_new_post")
    found = ground(Query("Save", Want.FIELD, kind="enter"), form)
    assert found.element is None or found.element.role == "button"


def test_words_asked_after_opening_a_menu_mean_its_item() -> None:
    # Flask-Admin's "Add Filter" opens a menu of columns ("Status", "Featured", ...)
    # while the table's header shows the same words as sort links.
    menu = load("app_flaskadmin_filter_menu")
    found = ground(Query("Status", Want.CLICK, kind="click"), menu)
    opener = next(e for e in menu.elements if e.name == "Add Filter")
    assert opener.expanded
    assert found.element is not None and not found.low_confidence, found.reason
    assert (
        found.element.box.y > opener.box.y and found.element.box.x < opener.box.x + opener.box.width
    )
    # With the menu closed, the one "Status" on the page is the column's link.
    closed = ground(Query("Status", Want.CLICK, kind="click"), load("app_flaskadmin_posts"))
    assert closed.element is not None and closed.element.box.y > opener.box.y + 40


def test_a_login_box_without_labels() -> None:
    # Roundup's classic tracker: under a "Login" heading, a bare text box, a password
    # box, "Remember me?" and an <input type=submit value="Login">.
    screen = load("app_roundup_home")
    login = ground(Query("Username", Want.FIELD, kind="enter"), screen)
    secret = ground(Query("Password", Want.FIELD, kind="enter"), screen)
    assert login.element is not None and secret.element is not None
    assert login.element.input_type == "text" and secret.element.input_type == "password"
    assert 0 < secret.element.box.y - login.element.box.y < 40
    # The submit input is named by its value, not by the checkbox's label beside it.
    button = ground(Query("Login", Want.CLICK, kind="click"), screen)
    assert button.element is not None and button.element.input_type == "submit"
    assert button.element.label == ""
    # The search box at the top has no password after it: it is no account's name.
    assert login.element.box.y > 100


async def test_an_allowed_delete_answers_its_are_you_sure_yes() -> None:
    # Flask-Admin's row "Delete" button asks confirm('Are you sure ...?') before it posts.
    screen = load("app_flaskadmin_posts")
    title = "A case against the GO TO"
    row = next(r for r in screen.records[1].records if title in r.text)
    delete = next(
        e for e in screen.elements if e.name == "Delete Record" and row.box.contains(e.box)
    )
    question = "Are you sure you want to delete this record?"
    after = load("app_flaskadmin_new_post")  # any other page: the list without the row
    steps = [{"click": "Delete record", "within": title}]

    allowed = FakeSurface(screen, confirms={delete.ref: question}, after_click={delete.ref: after})
    result = await run_flow(
        RunRequest(flow=parse_flow(steps), allow_destructive=True),
        Workspace.on(allowed),
        settings=FAST,
    )
    assert result.status == RunStatus.COMPLETED, result.failure
    assert allowed.confirmed == [question]

    guarded = FakeSurface(screen, confirms={delete.ref: question})
    result = await run_flow(
        RunRequest(flow=parse_flow(steps)), Workspace.on(guarded), settings=FAST
    )
    assert result.status == RunStatus.GATED
    assert guarded.clicked == [] and guarded.confirmed == []


async def test_a_click_whose_are_you_sure_was_answered_no_is_not_done() -> None:
    # A control the guard does not take for irreversible ("Cancel") asks a question; with
    # what cannot be undone not allowed, it is answered no and the step is not done.
    form = load("app_flaskadmin_new_post")
    cancel = _ref(form, "Cancel")
    question = "Discard this post?"
    page = FakeSurface(form, confirms={cancel: question}, after_click={cancel: form})
    result = await _run(page, [{"click": "Cancel"}])
    assert page.clicked == [cancel] and page.confirmed == []
    assert result.status == RunStatus.FAILED
    assert result.failure is not None and question in result.failure.reason


def _ref(screen: Screen, name: str) -> str:
    return next(e.ref for e in screen.elements if e.name == name)


async def _run(page: FakeSurface, steps: list[dict[str, str]]) -> RunResult:
    return await run_flow(RunRequest(flow=parse_flow(steps)), Workspace.on(page), settings=FAST)


async def test_a_field_only_close_to_the_words_is_not_overwritten() -> None:
    # Flask-Admin's new post form has no "Subtitle": the nearest label is "Title", which
    # an earlier step filled. Typing there would overwrite it.
    form = load("app_flaskadmin_new_post")
    page = FakeSurface(form)
    result = await _run(
        page,
        [
            {"enter": "Launch party", "into": "Title"},
            {"enter": "A new era", "into": "Subtitle"},
        ],
    )
    assert result.status == RunStatus.FAILED
    assert result.failure is not None and result.failure.path == "1"
    assert "Launch party" in result.failure.reason and "overwrite" in result.failure.reason
    assert await page.read_value(_ref(form, "Title *")) == "Launch party"


async def test_the_same_field_entered_again_by_the_same_words_is_a_correction() -> None:
    form = load("app_flaskadmin_new_post")
    page = FakeSurface(form)
    result = await _run(
        page,
        [
            {"enter": "Launch", "into": "Title"},
            {"enter": "Launch party", "into": "Title"},
        ],
    )
    assert result.status == RunStatus.COMPLETED, result.failure
    assert await page.read_value(_ref(form, "Title *")) == "Launch party"


async def test_a_field_cleared_by_a_widget_fails_before_the_form_is_sent() -> None:
    # A control that redraws the form (modelled: "Cancel" shows the empty form again)
    # leaves "Title" empty; the click on "Save" must not send it so.
    form = load("app_flaskadmin_new_post")
    page = FakeSurface(form, after_click={_ref(form, "Cancel"): form})
    result = await _run(
        page,
        [
            {"enter": "Launch party", "into": "Title"},
            {"click": "Cancel"},
            {"click": "Save"},
        ],
    )
    assert result.status == RunStatus.FAILED
    assert result.failure is not None and result.failure.path == "2"
    assert "'Title *' no longer holds 'Launch party'" in result.failure.reason
    assert _ref(form, "Save") not in page.clicked


async def test_a_field_that_lost_its_value_by_the_end_fails_the_step_that_set_it() -> None:
    form = load("app_flaskadmin_new_post")
    page = FakeSurface(form, after_click={_ref(form, "Cancel"): form})
    result = await _run(
        page,
        [
            {"enter": "Launch party", "into": "Title"},
            {"enter": "12", "into": "Views"},
            {"click": "Cancel"},
        ],
    )
    assert result.status == RunStatus.FAILED
    assert result.failure is not None and result.failure.path == "0"
    assert result.steps[0].outcome == StepOutcome.FAILED
    assert "at the end of the run" in result.failure.reason


def test_a_quantity_stepper_is_named_by_its_fieldset_legend_within_its_product_row() -> None:
    # pretix's shop: each product row (drawn wider than its category's card by a negative
    # margin) holds a -/number/+ stepper in a fieldset whose visually hidden legend says
    # "Quantity"; the number field's own name is the product's heading.
    screen = load("app_pretix_shop")
    for product in ("Day Pass", "Weekend Pass", "Student Day Pass"):
        region = resolve_regions(product, screen)[0]
        assert region.kind == "record"
        row = screen.records[region.record[0]].records[region.record[1]]  # type: ignore[index]
        assert row.text.split(" · ")[0] == product
        found = ground(Query("Quantity", Want.FIELD, product, kind="enter"), screen)
        assert found.element is not None and not found.low_confidence
        assert (found.element.role, found.element.name) == ("spinbutton", product)


def test_a_variant_row_inside_its_product_card_is_the_record_its_name_means() -> None:
    # pretix's shop with a T-shirt's sizes shown: "Large" is a line of the product's card and
    # of its own row inside it; the row, whose controls are a part of the card's, is meant.
    screen = load("app_pretix_variants")
    for size in ("Small", "Medium", "Large"):
        found = ground(Query("Quantity", Want.FIELD, size, kind="enter"), screen)
        assert found.element is not None and not found.low_confidence
        assert (found.element.role, found.element.name) == (
            "spinbutton",
            f"{size} Festival T-Shirt",
        )


def test_a_label_read_inside_the_place_a_possessive_names() -> None:
    # pretix's event page with a Day Pass in the cart: "Total | €45.00" sits under the
    # "Your cart" heading; "the cart's total" names that label inside that place.
    screen = load("app_pretix_cart")
    for words in ("the cart's total", "the total in the cart", "the total of the cart"):
        assert read_value(words, screen) == "€45.00", words
    # A place that holds no such label reads nothing rather than a label elsewhere.
    assert read_value("the voucher's total", screen) is None
