"""The Facts store: checking input, secret and shared names, merging, JSON, leaks."""

from __future__ import annotations

import pytest

from gofer.errors import InvalidRequest, UnknownSecret
from gofer.facts import Facts

BOOKING = {
    "first name": "Asha",
    "last name": "Raina",
    "email": "asha@example.com",
    "mobile number": "9876543210",
    "card number": "4111 1111 1111 1111",
    "nickname": "5500 0000 0000 0004",
}


def test_secret_and_shared_names_follow_rules_and_marks() -> None:
    facts = Facts(BOOKING, secret=["email"])
    assert facts.secret_names == {"card number", "nickname", "email"}
    assert facts.shared_names == {"first name", "last name", "mobile number"}
    assert facts.is_secret("card number")
    assert facts.is_secret("nickname")  # its value is a card number
    assert facts.is_secret("email")  # the caller marked it
    assert not facts.is_secret("first name")
    assert not facts.is_secret("no such fact")


def test_a_single_string_names_one_secret() -> None:
    facts = Facts({"first name": "Asha", "email": "a@b.c"}, secret="email")
    assert facts.secret_names == {"email"}


def test_unknown_secret_is_refused_with_its_names() -> None:
    with pytest.raises(UnknownSecret) as caught:
        Facts({"first name": "Asha"}, secret=["pin", "first name", "cvv"])
    assert caught.value.code == "UNKNOWN_SECRET"
    assert caught.value.details == {"names": ["cvv", "pin"]}


def test_basic_accessors_keep_order_and_values() -> None:
    facts = Facts(BOOKING)
    assert facts.names == tuple(BOOKING)
    assert len(facts) == 6
    assert "email" in facts and "phone" not in facts
    assert facts.get("email") == "asha@example.com"
    assert facts.get("phone") is None
    assert facts.as_dict() == BOOKING
    facts.as_dict()["email"] = "changed"
    assert facts.get("email") == "asha@example.com"


def test_numbers_become_text_and_other_values_are_refused() -> None:
    facts = Facts({"mobile number": 9876543210, "age": 34, "height": 1.65})  # type: ignore[dict-item]
    assert facts.as_dict() == {"mobile number": "9876543210", "age": "34", "height": "1.65"}
    for bad in (None, True, ["a"], {"a": "b"}):
        with pytest.raises(InvalidRequest) as caught:
            Facts({"x": bad})  # type: ignore[dict-item]
        assert caught.value.code == "INVALID_FACTS"
        assert caught.value.details["name"] == "x"


@pytest.mark.parametrize("name", ["", "   ", "a.b", "first$name", "${x}", "--", "x\ny", "a/b"])
def test_bad_names_are_refused(name: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        Facts({name: "v"})
    assert caught.value.code == "INVALID_FACTS"


@pytest.mark.parametrize("name", ["first name", "first_name", "first-name", "Naam 2", "prénom"])
def test_good_names_are_accepted(name: str) -> None:
    assert Facts({name: "v"}).names == (name,)


def test_facts_must_be_a_mapping() -> None:
    with pytest.raises(InvalidRequest) as caught:
        Facts([("a", "b")])  # type: ignore[arg-type]
    assert caught.value.code == "INVALID_FACTS"


def test_store_is_immutable() -> None:
    facts = Facts(BOOKING)
    with pytest.raises(AttributeError):
        facts._values = {}
    with pytest.raises(AttributeError):
        del facts._values


def test_repr_shows_names_never_values() -> None:
    text = repr(Facts(BOOKING))
    assert "card number" in text
    assert "4111" not in text and "Asha" not in text


def test_merged_adds_replaces_and_keeps_secret_marks() -> None:
    facts = Facts({"first name": "Asha", "hotel": "Taj", "note": "4111111111111111"}, ["hotel"])
    merged = facts.merged({"hotel": "Oberoi", "otp": "482913", "note": "call me"}, ["first name"])
    assert merged.as_dict() == {
        "first name": "Asha",
        "hotel": "Oberoi",
        "note": "call me",
        "otp": "482913",
    }
    assert merged.secret_names == {"hotel", "otp", "note", "first name"}
    assert facts.get("hotel") == "Taj"  # the old store is unchanged


def test_merged_refuses_unknown_secret() -> None:
    with pytest.raises(UnknownSecret):
        Facts({"a": "1"}).merged({"b": "2"}, ["c"])


def test_equality_and_hash() -> None:
    assert Facts({"a": "xyz"}, ["a"]) == Facts({"a": "xyz"}, ["a"])
    assert Facts({"a": "xyz"}) != Facts({"a": "xyz"}, ["a"])
    assert hash(Facts({"a": "xyz"})) == hash(Facts({"a": "xyz"}))


def test_redact_json_and_mask_json_cover_keys_lists_and_nesting() -> None:
    facts = Facts(BOOKING)
    value = {
        "Asha": ["hello Asha", {"card": "4111-1111-1111-1111"}, 3, None, True],
        "plain": ("Raina", 1.5),
    }
    assert facts.redact_json(value) == {
        "‹first name›": ["hello ‹first name›", {"card": "‹card number›"}, 3, None, True],
        "plain": ["‹last name›", 1.5],
    }
    assert facts.mask_json(value) == {
        "Asha": ["hello Asha", {"card": "${card number}"}, 3, None, True],
        "plain": ["Raina", 1.5],
    }


def test_leaks_names_secrets_still_in_text() -> None:
    facts = Facts(BOOKING, secret=["email"])
    text = "Asha paid with 4111111111111111; mail ASHA@example.com; nick 5500-0000-0000-0004"
    assert facts.leaks(text) == ["email", "card number", "nickname"]
    assert facts.leaks(facts.mask(text)) == []
    assert facts.leaks(facts.redact(text)) == []
    assert facts.leaks("Asha Raina, 9876543210") == []  # shared values are no leak
