"""screen_payment_evidence(): is this screen a card form?"""

from __future__ import annotations

import pytest

from gofer.safety import screen_payment_evidence

CARD_PAGE = """
Secure payment
Amount to pay ₹7,346
Credit / Debit card   UPI   Net banking
Card number
1234 5678 9012 3456
Expiry (MM/YY)
CVV
Name on card
Pay ₹7,346
"""

CARD_PAGE_US = """
Payment information
Cardholder name
Credit card number
Expiration date
Month  Year
Security code
What's this?
Place order
"""

CARD_PAGE_TERSE = """
Card No.
Valid thru
CVC2
Card holder's name
Continue
"""

FLIGHT_RESULTS = """
Delhi → Srinagar  ·  Tue, 14 Oct  ·  1 adult
Sort by: Lowest price
IndiGo 6E 2231  08:00 → 09:35  1h 35m  Non-stop  ₹7,346  Select
Air India AI 821  10:15 → 11:50  1h 35m  Non-stop  ₹8,102  Select
Card offers: 10% instant discount with HDFC Bank credit cards. No cost EMI on HDFC card.
HDFC Bank card holders get an extra ₹500 off. Offer valid till 31 Oct.
We accept credit cards, debit cards and UPI.
"""

LOGIN_PAGE = """
Log in to your account
Email or mobile number
Password
Forgot password?
Enter the security code shown below
Log in
"""

COUPON_PAGE = """
My coupons
FLY500  ₹500 off on domestic flights
Expiry: 31 December 2025
Valid until 31 Dec
Apply coupon
"""

AIRPORT_INFO = """
Payment at the airport
Card payment available at the airport counters. Cash and cards accepted.
Check-in closes 45 minutes before departure.
"""

PASSENGER_PAGE = """
Traveller details
First name   Last name
Passport number
Passport expiry date
PAN card number
Frequent flyer card number
Continue
"""


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        (CARD_PAGE, ("card number", "security code", "expiry date", "cardholder name")),
        (CARD_PAGE_US, ("card number", "security code", "expiry date", "cardholder name")),
        (CARD_PAGE_TERSE, ("card number", "security code", "expiry date", "cardholder name")),
        ("Enter your card number", ("card number",)),
        ("CVV\nContinue", ("security code",)),
        ("Card verification value", ("security code",)),
        ("MM / YY\nName as on card", ("expiry date", "cardholder name")),
        ("Expiry\nCardholder", ("expiry date", "cardholder name")),
        ("Security code\nExpiration date", ("security code", "expiry date")),
        ("Debit card number:", ("card number",)),
    ],
    ids=[
        "payment page",
        "us checkout",
        "terse form",
        "card number alone",
        "cvv alone",
        "card verification",
        "mm/yy and name",
        "bare labels",
        "two weak",
        "debit",
    ],
)
def test_card_forms_are_found(page: str, expected: tuple[str, ...]) -> None:
    assert screen_payment_evidence(page) == expected


@pytest.mark.parametrize(
    "page",
    [
        FLIGHT_RESULTS,
        LOGIN_PAGE,
        COUPON_PAGE,
        AIRPORT_INFO,
        PASSENGER_PAGE,
        "",
        "We accept credit cards",
        "Expiry: 12 Oct",
        "Security code",
        "Cardholder benefits",
        "Card no cost EMI available",
        "Discover the card nobody else has",
    ],
    ids=[
        "flight results",
        "login",
        "coupon",
        "airport info",
        "passenger details",
        "empty",
        "we accept cards",
        "coupon expiry",
        "login security code",
        "cardholder promo",
        "no cost emi",
        "prose",
    ],
)
def test_pages_that_only_mention_cards_are_not_card_forms(page: str) -> None:
    assert screen_payment_evidence(page) == ()


def test_case_and_spacing_do_not_matter() -> None:
    assert screen_payment_evidence("CARD   NUMBER\n  cvv  ") == ("card number", "security code")


def test_autocomplete_tokens_count_as_card_fields() -> None:
    assert screen_payment_evidence("", ["cc-number"]) == ("card number",)
    assert screen_payment_evidence("", ["billing cc-csc"]) == ("security code",)
    assert screen_payment_evidence("", ["cc-exp", "cc-name"]) == ("expiry date", "cardholder name")
    assert screen_payment_evidence("", ["cc-exp-month"]) == ()  # one weak kind alone
    assert screen_payment_evidence("", ["email", "postal-code", "off"]) == ()
