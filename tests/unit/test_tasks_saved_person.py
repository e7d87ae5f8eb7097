"""A person's take-over steps in a flow saved from its task: at the place they
happened, in place of the flow's steps they did, asking for their ``${names}``."""

from __future__ import annotations

from typing import Any

from gofer.api.page_flows import person_params
from gofer.tasks.contract import PersonStepInfo
from gofer.tasks.saved import flow_params, with_person

FLOW: dict[str, Any] = {
    "steps": [
        {"browse": "https://shop.test/orders"},
        {"click": "View order 1042"},
        {"click": "Track package"},
    ]
}


def did(step: dict[str, Any], before: int | None, done: int = 0) -> PersonStepInfo:
    return PersonStepInfo(step=step, url="https://shop.test/orders", before=before, did=done)


def test_a_sign_in_goes_before_the_step_that_met_the_wall() -> None:
    person = [
        did({"enter": "${username}", "into": "Username"}, 1),
        did({"enter": "${password}", "into": "Password"}, 1),
        did({"click": "Sign in"}, 1),
    ]
    assert with_person(FLOW, person)["steps"] == [
        {"browse": "https://shop.test/orders"},
        {"enter": "${username}", "into": "Username"},
        {"enter": "${password}", "into": "Password"},
        {"click": "Sign in"},
        {"click": "View order 1042"},
        {"click": "Track package"},
    ]
    assert flow_params(FLOW, person) == ["username", "password"]
    assert person_params(person) == ["username", "password"]


def test_steps_the_person_did_of_the_flow_are_not_kept_twice() -> None:
    person = [did({"click": "Sign in"}, 1, 1), did({"click": "View order 1042"}, 1, 1)]
    assert with_person(FLOW, person)["steps"] == [
        {"browse": "https://shop.test/orders"},
        {"click": "Sign in"},
        {"click": "View order 1042"},
        {"click": "Track package"},
    ]


def test_two_take_overs_each_at_its_place_and_one_after_the_end() -> None:
    person = [
        did({"click": "Accept cookies"}, 0),
        did({"click": "Sign in"}, 2),
        did({"click": "Log out"}, None),
    ]
    assert with_person(FLOW, person)["steps"] == [
        {"click": "Accept cookies"},
        {"browse": "https://shop.test/orders"},
        {"click": "View order 1042"},
        {"click": "Sign in"},
        {"click": "Track package"},
        {"click": "Log out"},
    ]


def test_no_person_leaves_the_flow_as_it_is() -> None:
    assert with_person(FLOW, []) is FLOW
    assert flow_params(FLOW) == []
    assert flow_params(None, [did({"click": "Sign in"}, 0)]) is None
