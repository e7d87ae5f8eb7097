"""The suite-wide canary check (tests/conftest.py) finds a fact value in a model
request however the request spells it, and nothing where there is none."""

from __future__ import annotations

import json
from collections.abc import Callable

Find = Callable[[list[str], set[str]], list[str]]


def body(text: str, *, ascii_only: bool) -> str:
    return json.dumps(
        {"model": "m", "messages": [{"role": "user", "content": text}]}, ensure_ascii=ascii_only
    )


def test_a_value_sent_as_it_is_or_json_escaped_is_found(find_canaries: Find) -> None:
    name = "Zoë Ŕaina-Ørsted"
    for ascii_only in (True, False):
        assert find_canaries([body(f"book for {name}", ascii_only=ascii_only)], {name}) == [name]


def test_a_card_or_phone_number_written_another_way_is_found(find_canaries: Find) -> None:
    card, phone = "4111 1111 1111 1111", "98765 43210"
    sent = [
        body("card 4111111111111111", ascii_only=True),
        body("call 9876543210", ascii_only=True),
    ]
    assert find_canaries(sent, {card, phone}) == sorted([card, phone])


def test_bodies_without_a_canary_pass(find_canaries: Find) -> None:
    sent = [body("card ${card number}, name ‹first name›", ascii_only=True), "not json"]
    assert find_canaries(sent, {"4111 1111 1111 1111", "Ashqorina"}) == []
    assert find_canaries(sent, set()) == []
