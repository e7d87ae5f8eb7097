"""Normalising screen text and scoring how well words name it."""

from __future__ import annotations

from decimal import Decimal

import pytest

from gofer.decide import amounts, normalise
from gofer.decide.text import stem_tokens, text_score


@pytest.mark.parametrize(
    ("raw", "norm"),
    [
        ("  Search   flights ", "search flights"),
        ("SIGN IN", "sign in"),
        ("First name *", "first name"),
        ("✈️ Book now!", "book now"),
        ("Café au lait", "cafe au lait"),
        ("Pay now ₹4,599.50", "pay now 4599.50"),
        ("Departs 10:30", "departs 10:30"),
        ("Price: low to high", "price low to high"),
        ("Forgot password?", "forgot password"),
        ("\ue5cd Close", "close"),  # an icon-font glyph from the private use area
        ("", ""),
    ],
)
def test_normalise(raw: str, norm: str) -> None:
    assert normalise(raw) == norm


def test_amounts_keep_currency_and_value() -> None:
    found = amounts("Total ₹4,599 (was ₹5,120), or USD 54.99; 3 adults")
    assert [(a.currency, a.value) for a in found] == [
        ("₹", Decimal("4599")),
        ("₹", Decimal("5120")),
        ("USD", Decimal("54.99")),
    ]


def test_amounts_ignore_plain_numbers() -> None:
    assert amounts("Flight 6E 2031 at 06:10, 2 stops") == ()


def _score(q: str, f: str) -> tuple[float, str]:
    nq, nf = normalise(q), normalise(f)
    return text_score(nq, stem_tokens(nq), nf, stem_tokens(nf))


def test_exact_beats_prefix_beats_contains_beats_fuzzy() -> None:
    exact, how = _score("Search flights", "Search flights")
    assert (exact, how) == (1.0, "exact")
    prefix, how = _score("Search flights", "Search flights help")
    assert how == "starts with"
    inside, how = _score("flights", "Search flights help")
    assert how == "contains"
    fuzzy, how = _score("Serch flihgts", "Search flights")
    assert how.startswith("fuzzy")
    assert exact > prefix > inside
    assert prefix > fuzzy


def test_all_words_in_any_order_and_plurals() -> None:
    score, how = _score("adults 2", "2 Adult passengers")
    assert how == "all words"
    assert score > 0.6


def test_unrelated_words_score_nothing() -> None:
    assert _score("Pay now", "Manage preferences") == (0.0, "")
    assert _score("", "Anything") == (0.0, "")
