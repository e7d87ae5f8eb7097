"""redact and mask: finding values however written, longest first, nothing left behind."""

from __future__ import annotations

import random
import string

import pytest

from gofer.facts import Facts

CARD = "4111 1111 1111 1111"


@pytest.fixture
def booking() -> Facts:
    return Facts(
        {
            "first name": "Asha",
            "last name": "Raina",
            "full name": "Asha Raina",
            "email": "asha@example.com",
            "mobile number": "+91 98765 43210",
            "card number": CARD,
            "cvv": "123",
            "date of birth": "1990-10-14",
        }
    )


@pytest.mark.parametrize(
    "written",
    [
        "4111-1111-1111-1111",
        "4111111111111111",
        "4111 1111 1111 1111",
        "4111\u00a01111 1111-1111",
        "4111 - 1111 - 1111 - 1111",
        "4111.1111.1111.1111",
    ],
)
def test_card_number_vanishes_however_written(booking: Facts, written: str) -> None:
    text = f"Paid with {written}."
    assert booking.redact(text) == "Paid with ‹card number›."
    assert booking.mask(text) == "Paid with ${card number}."


@pytest.mark.parametrize(
    "written",
    [
        "+91 98765 43210",
        "+919876543210",
        "0091 98765 43210",
        "0091-9876543210",
        "09876543210",
        "9876543210",
        "98765-43210",
        "98765 43210",
        "+91-98765-43210",
        "+91 (98765) 43210",
    ],
)
def test_phone_number_vanishes_with_or_without_country_code(booking: Facts, written: str) -> None:
    assert booking.redact(f"Call {written} today") == "Call ‹mobile number› today"


def test_a_national_phone_fact_also_takes_the_country_code() -> None:
    facts = Facts({"phone": "(555) 123-4567"})
    for written in ["+1 (555) 123-4567", "555.123.4567", "5551234567", "001 555 123 4567"]:
        assert facts.redact(f"[{written}]") == "[‹phone›]"


def test_text_values_match_any_case_and_whitespace(booking: Facts) -> None:
    text = "ASHA\u00a0\n raina wrote from Asha@Example.COM"
    assert booking.redact(text) == "‹full name› wrote from ‹email›"


def test_longest_value_wins_and_parts_still_redact(booking: Facts) -> None:
    assert booking.redact("Asha Raina; Asha; Raina") == "‹full name›; ‹first name›; ‹last name›"


def test_number_values_match_with_other_separators(booking: Facts) -> None:
    redacted = booking.redact("born 1990 10 14 or 19901014")
    assert redacted == "born ‹date of birth› or ‹date of birth›"


def test_mask_replaces_only_secrets(booking: Facts) -> None:
    text = "Asha paid with 4111111111111111 (CVV 123) from +91 98765 43210"
    assert booking.mask(text) == "Asha paid with ${card number} (CVV ${cvv}) from +91 98765 43210"


def test_secrets_are_replaced_even_inside_other_text(booking: Facts) -> None:
    # A secret is always found, even as part of a longer number or word.
    assert booking.mask("ref 51234 and x123y") == "ref 5${cvv}4 and x${cvv}y"


def test_short_shared_values_only_match_whole_tokens_as_written() -> None:
    facts = Facts({"age": "34", "initial": "A", "seat": "7C"})
    text = "A traveller aged 34 in seat 7C (not 7c), born 2034, a bag of 34kg, Alpha, 17C"
    assert facts.redact(text) == (
        "‹initial› traveller aged ‹age› in seat ‹seat› (not 7c), born 2034, a bag of 34kg, "
        "Alpha, 17C"
    )


def test_short_secrets_match_anywhere() -> None:
    facts = Facts({"code": "7C"}, secret=["code"])
    assert facts.mask("seat 17C and 7c") == "seat 1${code} and ${code}"


def test_overlapping_values_are_replaced_together_without_a_tail() -> None:
    facts = Facts({"hotel": "Green Park", "password": "Park Lane 99"})
    text = "at Green Park Lane 99 tonight"
    assert facts.redact(text) == "at ‹password› tonight"
    assert facts.mask(text) == "at Green ${password} tonight"
    assert facts.leaks(facts.redact(text)) == []


def test_repeated_secret_leaves_no_overlapping_remainder() -> None:
    facts = Facts({"pin": "1212"})
    assert facts.mask("121212") == "${pin}"


def test_markers_are_never_shredded_and_redact_is_idempotent() -> None:
    # "card" is the value of one fact and part of another fact's name.
    facts = Facts({"card number": CARD, "kind": "card", "word": "number"})
    once = facts.redact("card 4111111111111111, number")
    assert once == "‹kind› ‹card number›, ‹word›"
    assert facts.redact(once) == once
    assert facts.redact(facts.mask("card 4111111111111111")) == "‹kind› ${card number}"


def test_empty_values_are_never_looked_for() -> None:
    facts = Facts({"note": "", "blank": "   "})
    assert facts.redact("nothing to hide") == "nothing to hide"


def test_values_with_pattern_characters_are_literal() -> None:
    facts = Facts({"password": "a+b (c)*?"})
    assert facts.mask("use a+b (c)*? or ab c") == "use ${password} or ab c"


def test_many_facts_over_a_long_text() -> None:
    # A quick check that one store handles 100 facts over 20 KB (not a timing assertion).
    rng = random.Random(7)
    values = {
        f"fact {i}": "".join(rng.choices(string.ascii_letters, k=rng.randint(5, 20)))
        for i in range(90)
    }
    values.update({f"account {i}": "".join(rng.choices("123456789", k=12)) for i in range(10)})
    facts = Facts(values)
    pieces: list[str] = []
    while sum(map(len, pieces)) < 20_000:
        if rng.random() < 0.1:
            pieces.append(rng.choice(list(values.values())))
        else:
            pieces.append("".join(rng.choices(string.punctuation + " ", k=8)))
    text = " ".join(pieces)
    redacted = facts.redact(text)
    assert redacted.count("‹") >= text.count(" ") // 20
    for value in values.values():
        assert value not in redacted


def test_text_whose_case_folding_changes_length_is_still_searched() -> None:
    # "ß" folds to "ss" and "İ" to two characters, so positions no longer line up.
    facts = Facts({"first name": "Asha", "city": "Émile Straße"})
    text = "Straße İstanbul: asha and ÉMILE STRAßE"
    assert facts.redact(text) == "Straße İstanbul: ‹first name› and ‹city›"
