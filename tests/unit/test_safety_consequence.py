"""consequence(): how grave pressing a control is, from its words alone."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gofer.safety import Consequence, consequence

P = Consequence.PAYMENT
I = Consequence.IRREVERSIBLE  # noqa: E741
R = Consequence.REVERSIBLE

LABELS: list[tuple[str, Consequence]] = [
    # Payment: money moves, or the next press is the one that charges.
    ("Pay", P),
    ("Pay now", P),
    ("Pay ₹7,346 now", P),
    ("Pay $12.00", P),
    ("PAY INR 7,346", P),
    ("Pay Rs. 499/-", P),
    ("Pay securely", P),
    ("🔒 Pay securely", P),
    ("Pay with UPI", P),
    ("Pay at hotel", P),
    ("Place order", P),
    ("Place your order", P),
    ("Express checkout", P),
    ("1-Click checkout", P),
    ("Complete checkout", P),
    ("Buy now", P),
    ("Buy", P),
    ("Buy tickets", P),
    ("Purchase", P),
    ("Complete purchase", P),
    ("Complete your purchase", P),
    ("Complete order", P),
    ("Confirm order", P),
    ("Submit order", P),
    ("Confirm and pay", P),
    ("Confirm & Pay ₹7,346", P),
    ("Confirm payment", P),
    ("Confirm payment details", P),
    ("Make payment", P),
    ("Make a payment", P),
    ("Submit payment", P),
    ("Subscribe & pay", P),
    ("Donate", P),
    ("Donate now", P),
    ("Book and pay", P),
    ("Review and pay", P),
    ("Order now", P),
    ("Continue to payment", P),
    ("Proceed to pay", P),
    ("Go to payment", P),
    ("Apple Pay", P),
    ("Buy with Google Pay", P),
    ("Place bid", P),
    ("Payment", P),
    ("Retry payment", P),
    ("Confirm and pay ₹7,346", P),
    ("Check out with Apple Pay", P),
    # Irreversible: something leaves or is destroyed.
    ("Send", I),
    ("Send message", I),
    ("Send money", I),
    ("Send ₹500", I),
    ("Delete", I),
    ("Yes, delete", I),
    ("Delete account", I),
    ("Permanently delete", I),
    ("Delete history", I),
    ("Remove account", I),
    ("Remove", I),
    ("Publish", I),
    ("Post", I),
    ("Post comment", I),
    ("Confirm booking", I),
    ("Confirm", I),
    ("Confirm reservation", I),
    ("Complete booking", I),
    ("Submit", I),
    ("Submit application", I),
    ("Sign and submit", I),
    ("Transfer", I),
    ("Transfer now", I),
    ("Cancel booking", I),
    ("Cancel my subscription", I),
    ("Cancel order", I),
    ("Unsubscribe", I),
    ("Subscribe", I),
    ("Close account", I),
    ("Deactivate", I),
    ("Withdraw", I),
    ("Start free trial", I),
    ("Approve", I),
    ("Void", I),
    ("Void invoice", I),
    ("Void transaction", I),
    # Reversible: looks, chooses, or leads to more forms (a checkout's address and
    # delivery forms included).
    ("Checkout", R),
    ("Check out", R),
    ("Check out now", R),
    ("Proceed to checkout", R),
    ("Go to checkout", R),
    ("Continue to checkout", R),
    ("Secure checkout", R),
    ("Back to checkout", R),
    ("Proceed to Check-out", R),
    ("Avoid tolls", R),
    ("Avoid fees", R),
    ("Display order", R),
    ("Book", R),
    ("Book now", R),
    ("Reserve", R),
    ("Select", R),
    ("Select flight", R),
    ("Continue", R),
    ("Next", R),
    ("Search", R),
    ("Search flights", R),
    ("Save", R),
    ("Save changes", R),
    ("Add to cart", R),
    ("View details", R),
    ("Details", R),
    ("Back", R),
    ("Cancel", R),
    ("No, cancel", R),
    ("Close", R),
    ("No thanks", R),
    ("Not now", R),
    ("Apply", R),
    ("Apply now", R),
    ("Sign in", R),
    ("Log in", R),
    ("Sign up", R),
    ("Send code", R),
    ("Resend code", R),
    ("Send OTP", R),
    ("Get OTP", R),
    ("Send verification code", R),
    ("Payment options", R),
    ("Payment methods", R),
    ("Payment details", R),
    ("Payments", R),
    ("Pay later info", R),
    ("Checkout guide", R),
    ("How to pay", R),
    ("Add payment method", R),
    ("Select payment method", R),
    ("Change payment method", R),
    ("Order history", R),
    ("Order summary", R),
    ("Transfer details", R),
    ("Airport transfer", R),
    ("Check-out", R),
    ("Check-out date", R),
    ("Check-in", R),
    ("Check out our deals", R),
    ("Check availability", R),
    ("Continue without paying", R),
    # words that lead on are reversible whatever step they name
    ("Continue with your order", R),
    ("Continue with the order process", R),
    ("Proceed with order", R),
    ("Proceed with payment", R),
    ("Next: payment", R),
    ("Next: Review order", R),
    ("Continue to order review", R),
    ("Proceed with placing the order", P),
    ("Next: pay now", P),
    ("Continue with order and pay", P),
    ("Order and pay", P),
    ("Don't send", R),
    ("Remove from cart", R),
    ("Remove filter", R),
    ("Confirm password", R),
    ("Buying guide", R),
    ("PayPal", R),
    ("Send money FAQ", R),
    ("Order by: price", R),
    ("arrow_forward Continue", R),
    ("₹7,346", R),
    ("", R),
    ("🛒", R),
]

# A record's number after its noun names the record ("Order #1042" is a link to it);
# a quantity is still an order. Kept out of LABELS: an amount put between the noun
# and the number ("Order ₹7,346 #1042") reads as an order for that amount.
RECORD_LABELS: list[tuple[str, Consequence]] = [
    ("Order 1042", R),
    ("Order #1042", R),
    ("Order no. 7", R),
    ("Order ORD-55A", R),
    ("Invoice #55 (paid)", R),
    ("Payment 2024-118", R),
    ("Order 2 pizzas", P),
    ("Pay invoice #55", P),
    ("Place order #1042", P),
    ("Cancel order #1042", I),
    ("Delete order 1042", I),
]

# A stop_before phrase is classified the same way as a label.
PHRASES: list[tuple[str, Consequence]] = [
    ("paying for the booking", P),
    ("the Pay button", P),
    ("placing the order", P),
    ("checking out", R),
    ("making the payment", P),
    ("the final payment", P),
    ("sending the message", I),
    ("deleting the account", I),
    ("submitting the application", I),
    ("confirming the booking", I),
    ("publishing the post", I),
    ("cancelling the reservation", I),
    ("selecting a seat", R),
    ("searching for flights", R),
]


def test_the_table_is_large_enough() -> None:
    assert len(LABELS) >= 60
    assert {c for _, c in LABELS} == set(Consequence)


@pytest.mark.parametrize(("label", "expected"), LABELS, ids=[repr(x) for x, _ in LABELS])
def test_label(label: str, expected: Consequence) -> None:
    assert consequence(label) is expected


@pytest.mark.parametrize(
    ("label", "expected"), RECORD_LABELS, ids=[repr(x) for x, _ in RECORD_LABELS]
)
def test_a_record_named_by_its_number(label: str, expected: Consequence) -> None:
    assert consequence(label) is expected


@pytest.mark.parametrize(("phrase", "expected"), PHRASES, ids=[p for p, _ in PHRASES])
def test_stop_before_phrase(phrase: str, expected: Consequence) -> None:
    assert consequence(phrase) is expected


def test_values_are_plain_strings() -> None:
    assert Consequence.PAYMENT == "payment"
    assert Consequence.IRREVERSIBLE == "irreversible"
    assert Consequence.REVERSIBLE == "reversible"
    assert consequence("Delete") == "irreversible"


# Labels whose words have spaces to slip an amount or an emoji between.
_WORDED = [(label, c) for label, c in LABELS if label.strip() and any(ch.isalpha() for ch in label)]

_AMOUNTS = st.sampled_from(
    ["₹7,346", "$12.00", "€ 9,99", "£5", "INR 1,200", "Rs. 99/-", "12.50 USD", "¥300", "(₹1,000)"]
)
_EMOJI = st.sampled_from(["🔒", "✅", "➡️", "🛒", "💳", "⚠️", "→", "›", "★", "✓"])


def _insert(label: str, extra: str, where: int) -> str:
    words = label.split(" ")
    at = where % (len(words) + 1)
    return " ".join([*words[:at], extra, *words[at:]])


@settings(max_examples=300, deadline=None)
@given(case=st.sampled_from(_WORDED), amount=_AMOUNTS, where=st.integers(0, 10))
def test_an_amount_never_changes_the_class(
    case: tuple[str, Consequence], amount: str, where: int
) -> None:
    label, expected = case
    assert consequence(_insert(label, amount, where)) is expected


@settings(max_examples=300, deadline=None)
@given(case=st.sampled_from(_WORDED), emoji=_EMOJI, where=st.integers(0, 10))
def test_an_emoji_or_icon_never_changes_the_class(
    case: tuple[str, Consequence], emoji: str, where: int
) -> None:
    label, expected = case
    assert consequence(_insert(label, emoji, where)) is expected


@settings(max_examples=300, deadline=None)
@given(
    case=st.sampled_from(_WORDED),
    style=st.sampled_from([str.upper, str.lower, str.title, str.swapcase, str.capitalize]),
    punctuation=st.sampled_from(["", "!", ".", " →", " »", "...", " ?"]),
    padding=st.sampled_from(["", " ", "  \n ", "\t"]),
)
def test_case_punctuation_and_spacing_never_change_the_class(
    case: tuple[str, Consequence],
    style: Callable[[str], str],
    punctuation: str,
    padding: str,
) -> None:
    label, expected = case
    assert consequence(f"{padding}{style(label)}{punctuation}{padding}") is expected


def test_the_gravest_joined_action_wins() -> None:
    assert consequence("Save and continue") is R
    assert consequence("Sign and submit") is I
    assert consequence("Confirm booking and pay") is P
    assert consequence("Book + Pay") is P
    assert consequence("Terms and conditions") is R


def test_a_commit_verb_pays_for_an_order_named_after_its_adjectives() -> None:
    # A ticket shop's last step: "Place binding order" commits the order as "Place order" does.
    for words in ("Place binding order", "Submit final order", "Place a binding order"):
        assert consequence(words) is Consequence.PAYMENT, words
    # The object ends at a preposition: the order is not what is submitted here.
    assert consequence("Submit review for order") is not Consequence.PAYMENT
    assert consequence("Save draft order") is Consequence.REVERSIBLE
