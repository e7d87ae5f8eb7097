"""A person's take-over kept as flow steps, and which of a flow's steps it already did,
on screens as the grounder reads them (no browser)."""

from __future__ import annotations

from dataclasses import replace

from gofer.flow import parse_flow
from gofer.flow.parse import step_to_json
from gofer.flow.steps import Step
from gofer.runtime.takeover import Recorder, done_by_person, element_at
from gofer.surfaces.screen import Box, Element, Screen, TextLine

WALL = "https://shop.example/orders"
USERNAME = Element(
    ref="u", role="textbox", name="Username", editable=True, box=Box(100, 160, 320, 40)
)
PASSWORD = Element(
    ref="p",
    role="textbox",
    name="Password",
    editable=True,
    input_type="password",
    box=Box(100, 240, 320, 40),
)
SIGN_IN = Element(ref="s", role="button", name="Sign in", box=Box(100, 310, 120, 40))
ORDER = Element(ref="o", role="link", name="View order 1042", box=Box(100, 160, 320, 40))
OTHER = Element(ref="o2", role="link", name="View order 1043", box=Box(100, 240, 320, 40))
TRACK = Element(ref="t", role="button", name="Track package", box=Box(100, 160, 200, 40))
PASSWORD_VALUE = "Kq2-canary-recorded-pw"


def wall(user: str = "", password: str = "") -> Screen:
    return Screen(
        WALL,
        "Sign in",
        (TextLine("Sign in to continue", Box(100, 40, 300, 30), heading=1),),
        (
            replace(USERNAME, value=user),
            replace(PASSWORD, value=password),
            SIGN_IN,
        ),
    )


ORDERS = Screen(WALL, "Orders", (), (ORDER, OTHER))
ORDER_PAGE = Screen("https://shop.example/orders/1042", "Order 1042", (), (TRACK,))
TRACKED = Screen(
    "https://shop.example/orders/1042/track",
    "Tracking",
    (TextLine("Out for delivery", Box(0, 0, 200, 20)),),
    (),
)


def steps(*raw: dict[str, object]) -> tuple[Step, ...]:
    return parse_flow({"steps": list(raw)}).steps


REST = steps(
    {"click": "View order 1042"},
    {"click": "Track package"},
    {"verify": {"shows": "Out for delivery"}},
)


def signed_in_then(*clicks: tuple[Screen, Element]) -> Recorder:
    """A person who signs in at the wall (typing, then pressing Sign in), then clicks."""
    rec = Recorder()
    rec.look(wall())
    rec.look(wall("asha", PASSWORD_VALUE), SIGN_IN)
    for screen, el in clicks:
        rec.look(screen, el)
    return rec


def test_a_take_over_is_kept_as_steps_in_the_pages_own_words_with_no_secret() -> None:
    rec = signed_in_then((ORDERS, ORDER))
    rec.look(ORDER_PAGE)
    facts = {"account password": PASSWORD_VALUE, "user": "asha"}
    kept = [step_to_json(p.step) for p in rec.steps(facts)]
    assert kept == [
        {"enter": "${user}", "into": "Username"},
        {"enter": "${account password}", "into": "Password"},
        {"click": "Sign in"},
        {"click": "View order 1042"},
    ]
    unknown = rec.steps()
    assert [p.secret for p in unknown] == [True, True, False, False]
    assert step_to_json(unknown[0].step) == {"enter": "${username}", "into": "Username"}
    assert step_to_json(unknown[1].step) == {"enter": "${password}", "into": "Password"}
    assert PASSWORD_VALUE not in repr(unknown) and "asha" not in repr(unknown)
    assert element_at(ORDERS, 200, 180) == ORDER and element_at(ORDERS, 5, 5) is None


def test_nothing_done_on_a_captcha_is_kept() -> None:
    captcha = Screen(
        WALL,
        "Check",
        (TextLine("Select all images with traffic lights", Box(0, 0, 300, 20)),),
        (Element(ref="v", role="button", name="Verify", box=Box(0, 40, 80, 30)),),
    )
    rec = Recorder()
    rec.look(captcha)
    rec.look(captcha, captcha.elements[0])
    rec.look(ORDERS, ORDER)
    assert [step_to_json(p.step) for p in rec.steps()] == [{"click": "View order 1042"}]


def test_the_steps_the_person_did_are_counted_and_the_rest_are_not() -> None:
    both = signed_in_then((ORDERS, ORDER), (ORDER_PAGE, TRACK))
    both.look(TRACKED)
    assert done_by_person(both, REST, {}, TRACKED).done == 2

    one = signed_in_then((ORDERS, ORDER))
    one.look(ORDER_PAGE)
    assert done_by_person(one, REST, {}, ORDER_PAGE).done == 1

    none = signed_in_then()
    none.look(ORDERS)
    found = done_by_person(none, REST, {}, ORDERS)
    assert (found.done, found.moved_on) == (0, False)

    # the same value into the same field counts; another value does not
    typing = steps({"enter": "${user}", "into": "Username"}, {"click": "Sign in"})
    assert done_by_person(none, typing, {"user": "asha"}, ORDERS).done == 2
    assert done_by_person(none, typing, {"user": "ravi"}, ORDERS).done == 0


def test_a_page_that_moved_on_past_a_step_the_person_did_not_press_asks() -> None:
    # The person went to the other order: the step's control is gone, nothing later is
    # on the page, and the page is another than the one taken over.
    elsewhere = Screen("https://shop.example/orders/1043", "Order 1043", (), ())
    rec = signed_in_then((ORDERS, OTHER))
    rec.look(elsewhere)
    found = done_by_person(rec, REST, {}, elsewhere)
    assert (found.done, found.moved_on) == (0, True)

    # Arrived by another way where the step leads: the next step's control is showing.
    there = signed_in_then((ORDERS, OTHER))
    there.look(ORDER_PAGE)
    assert done_by_person(there, REST, {}, ORDER_PAGE).done == 1
