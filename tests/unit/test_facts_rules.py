"""Which facts are secret by rule: names and card-number values."""

from __future__ import annotations

import pytest

from gofer.facts import is_card_fact, is_card_number, is_secret_name, secret_reason

CARD_NAMES = [
    "card number",
    "Card No",
    "card_no",
    "cc_number",
    "ccNumber",
    "credit-card",
    "creditcard",
    "credit card number",
    "debit card",
    "cardNumber",
    "CARDNUMBER",
    "card",
    "Card #",
    "CVV",
    "cvc2",
    "CVV2",
    "cvc",
    "security code",
    "card verification code",
    "card expiry",
    "expiry date",
    "exp date",
    "expiration date",
    "Exp",
    "expiry month",
    "exp_year",
    "card PIN",
    "cardholder",
    "card holder name",
    "cardholder_name",
    "name on card",
    "nameOnCard",
    "valid thru",
    "gift card number",
]
ONE_TIME_NAMES = [
    "OTP",
    "otp code",
    "sms otp",
    "one-time code",
    "one time password",
    "onetime pin",
    "verification code",
    "verify code",
    "2FA code",
    "2fa",
    "MFA code",
    "two-factor code",
    "auth code",
    "authenticator code",
    "login code",
    "backup codes",
    "recovery code",
    "TOTP",
]
PASSWORD_NAMES = [
    "password",
    "Password",
    "new password",
    "confirmPassword",
    "passwd",
    "pwd",
    "passcode",
    "pass code",
    "passphrase",
    "PIN",
    "pin number",
    "UPI PIN",
    "mpin",
    "api key",
    "client secret",
    "access token",
    "security answer",
    "secret",
]
IDENTITY_NAMES = [
    "passport number",
    "passport",
    "passport no",
    "national id",
    "national ID number",
    "national insurance number",
    "aadhaar",
    "aadhar number",
    "Aadhaar card",
    "PAN",
    "pan number",
    "PAN card",
    "SSN",
    "social security number",
    "social insurance number",
    "tax id",
    "tax number",
    "TIN",
    "IBAN",
    "account number",
    "acct no",
    "accountNumber",
    "bank account",
    "bank account number",
    "routing number",
    "sort code",
    "id number",
    "ID card",
    "voter id",
    "driving licence number",
    "driver's license",
    "NRIC",
]
SHARED_NAMES = [
    "email",
    "email address",
    "email id",
    "first name",
    "last name",
    "full name",
    "mobile number",
    "phone",
    "phone number",
    "date of birth",
    "dob",
    "city",
    "address",
    "zip code",
    "zipcode",
    "postal code",
    "pin code",
    "pincode",
    "promo code",
    "coupon code",
    "discount code",
    "company",
    "company name",
    "passport name",
    "passport expiry",
    "passport issue date",
    "user id",
    "order id",
    "booking reference",
    "PNR",
    "frequent flyer number",
    "flight number",
    "house number",
    "card type",
    "library card number",
    "sim card",
    "account holder name",
    "bank account name",
    "username",
    "login",
    "discardnotes",
    "expiry time",
    "warranty expiry",
    "country code",
    "area code",
    "confirmation code",
    "seat",
    "meal preference",
    "gender",
    "nationality",
]


@pytest.mark.parametrize("name", CARD_NAMES)
def test_card_data_names_are_secret(name: str) -> None:
    assert secret_reason(name, "x") == "card data"
    assert is_secret_name(name)


@pytest.mark.parametrize("name", ONE_TIME_NAMES)
def test_one_time_code_names_are_secret(name: str) -> None:
    assert secret_reason(name, "x") == "one-time code"


@pytest.mark.parametrize("name", PASSWORD_NAMES)
def test_password_names_are_secret(name: str) -> None:
    assert secret_reason(name, "x") == "password"


@pytest.mark.parametrize("name", IDENTITY_NAMES)
def test_identity_and_account_names_are_secret(name: str) -> None:
    assert secret_reason(name, "x") == "identity or account number"


@pytest.mark.parametrize("name", SHARED_NAMES)
def test_ordinary_names_are_not_secret_by_rule(name: str) -> None:
    assert secret_reason(name, "Asha") is None
    assert not is_secret_name(name)


@pytest.mark.parametrize(
    "value",
    [
        "4111111111111111",
        "4111 1111 1111 1111",
        "4111-1111-1111-1111",
        "  5500 0000 0000 0004 ",
        "378282246310005",  # 15-digit Amex
        "6011111111111117",
        "4222222222222",  # 13 digits
        "6304000000000000000",  # 19 digits
    ],
)
def test_card_number_values(value: str) -> None:
    assert is_card_number(value)
    assert secret_reason("payment", value) == "card number value"


@pytest.mark.parametrize(
    "value",
    [
        "4111111111111112",  # fails Luhn
        "411111111111",  # 12 digits
        "41111111111111111111",  # 20 digits
        "4111.1111.1111.1111",  # dots are not how cards are written
        "+4111111111111111",
        "4111 1111 1111 111a",
        "",
        "9876543210",
    ],
)
def test_not_card_number_values(value: str) -> None:
    assert not is_card_number(value)


def test_name_reason_wins_over_value_reason() -> None:
    assert secret_reason("card number", "4111111111111111") == "card data"
    assert secret_reason("mobile number", "9876543210") is None


def test_card_data_is_told_by_the_name_or_by_a_card_number_value() -> None:
    assert is_card_fact("card number", "1234")
    assert is_card_fact("cvv", "123")
    assert is_card_fact("note", "4111 1111 1111 1111")
    assert not is_card_fact("password", "hunter2")
    assert not is_card_fact("first name", "Asha")
