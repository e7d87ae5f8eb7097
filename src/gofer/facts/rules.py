"""Which facts are secret by rule: by the words of their name, or by their value.

A name is read as words: ``cc_number``, ``cardNumber``, ``Card-No`` and
``cardnumber`` all read as "card number". A word glued to others is only split
when every piece is a known word, so ``discardnotes`` stays one unknown word and
``company`` never reads as "pan".

The rules, in order (the first that fits gives the reason):

``card data``
    a card's number, security code (CVV, CVC, "security code"), expiry, PIN or
    holder ("cardholder", "name on card"). ``card`` alone counts; ``card type``
    and the cards of other things (``library card``, ``sim card``) do not. An
    expiry of something else (``passport expiry``, ``warranty expiry``) is no
    card's.
``one-time code``
    OTP, one-time code or password, verification code, 2FA/MFA code,
    authentication, SMS or login code, backup/recovery code. ``zip code``,
    ``promo code``, ``coupon code`` and ``pin code`` (a postal code) are not.
``password``
    password, passcode, passphrase, PIN, and credentials of the same kind
    (API key, access token, client secret, security answer).
``identity or account number``
    passport (the number, not ``passport name`` or ``passport expiry``: a name
    and a date are not the document), national ID, Aadhaar, PAN, SSN, social
    security or insurance number, tax ID, driving licence number, ID number,
    IBAN, account number, bank account (not its name or holder), routing
    number, sort code. ``email id``, ``user id`` and ``order id`` are not.

A value is a ``card number value`` when it is 13 to 19 digits passing the Luhn
check, with spaces and dashes allowed between them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

__all__ = [
    "CARD_DATA",
    "CARD_NUMBER_VALUE",
    "IDENTITY",
    "ONE_TIME_CODE",
    "PASSWORD",
    "is_card_fact",
    "is_card_number",
    "is_one_time_code_name",
    "is_secret_name",
    "name_words",
    "secret_reason",
]

CARD_DATA = "card data"
PASSWORD = "password"
ONE_TIME_CODE = "one-time code"
IDENTITY = "identity or account number"
CARD_NUMBER_VALUE = "card number value"

# Spellings read as one canonical word.
_SYNONYMS: dict[str, str] = {
    "no": "number",
    "num": "number",
    "nr": "number",
    "nbr": "number",
    "nos": "number",
    "numbers": "number",
    "acct": "account",
    "acc": "account",
    "ac": "account",
    "passwd": "password",
    "pwd": "password",
    "pw": "password",
    "pword": "password",
    "exp": "expiry",
    "expiration": "expiry",
    "expires": "expiry",
    "expire": "expiry",
    "cvc": "cvv",
    "cvv2": "cvv",
    "cvc2": "cvv",
    "cvn": "cvv",
    "csc": "cvv",
    "cv2": "cvv",
    "ccv": "cvv",
    "cvd": "cvv",
    "aadhar": "aadhaar",
    "adhaar": "aadhaar",
    "adhar": "aadhaar",
    "identification": "id",
    "identity": "id",
    "licence": "license",
    "holders": "holder",
    "totp": "otp",
    "hotp": "otp",
    "tfa": "2fa",
    "mfa": "2fa",
    "verify": "verification",
    "govt": "government",
    "pincode": "pin code",
    "authenticator": "auth",
    "authentication": "auth",
    "authorization": "auth",
    "authorisation": "auth",
    "onetime": "one time",
    "passcodes": "passcode",
    "passwords": "password",
}

# Words a glued name may be split into (besides the synonyms above).
_VOCABULARY = frozenset(
    {
        "card",
        "credit",
        "debit",
        "number",
        "holder",
        "name",
        "on",
        "of",
        "expiry",
        "date",
        "month",
        "year",
        "valid",
        "thru",
        "cvv",
        "security",
        "code",
        "verification",
        "pin",
        "pass",
        "word",
        "password",
        "passcode",
        "passphrase",
        "phrase",
        "one",
        "time",
        "otp",
        "two",
        "factor",
        "step",
        "auth",
        "2fa",
        "sms",
        "login",
        "account",
        "bank",
        "routing",
        "sort",
        "tax",
        "id",
        "national",
        "social",
        "insurance",
        "passport",
        "aadhaar",
        "pan",
        "ssn",
        "iban",
        "new",
        "old",
        "confirm",
        "current",
        "user",
        "my",
        "primary",
        "cc",
        "zip",
        "postal",
        "post",
        "promo",
        "coupon",
        "phone",
        "mobile",
        "email",
        "first",
        "last",
        "middle",
        "full",
        "birth",
        "city",
        "address",
        "type",
        "api",
        "key",
        "secret",
        "private",
        "access",
        "token",
        "client",
        "license",
        "driver",
        "driving",
        "voter",
        "government",
        "personal",
        "citizen",
        "gift",
        "recovery",
        "backup",
        "payment",
        "atm",
        "upi",
        "mpin",
        "tpin",
        "answer",
        "question",
        "details",
        "digits",
        "mm",
        "yy",
        "yyyy",
    }
    | set(_SYNONYMS)
)

_CARD_DETAIL = frozenset(
    {
        "number",
        "expiry",
        "pin",
        "holder",
        "cvv",
        "code",
        "security",
        "verification",
        "date",
        "month",
        "year",
        "valid",
        "details",
        "digits",
        "mm",
        "yy",
        "yyyy",
    }
)
_PAYMENT_CARD = frozenset({"credit", "debit", "payment", "atm", "prepaid", "cc"})
# "card" after one of these is some other card.
_OTHER_CARDS = frozenset(
    {
        "id",
        "aadhaar",
        "pan",
        "voter",
        "sim",
        "loyalty",
        "library",
        "business",
        "membership",
        "member",
        "boarding",
        "ration",
        "health",
        "insurance",
        "student",
        "employee",
        "visiting",
        "reward",
        "rewards",
        "club",
        "key",
        "access",
        "report",
        "greeting",
        "playing",
        "sd",
        "memory",
        "graphics",
        "video",
        "sound",
        "network",
        "score",
        "index",
        "flash",
        "green",
    }
)
# Words that say a card-named fact is about the card, not its data.
_CARD_NON_DATA = frozenset(
    {
        "type",
        "brand",
        "network",
        "issuer",
        "nickname",
        "kind",
        "provider",
        "scheme",
        "limit",
        "colour",
        "color",
        "label",
        "issuing",
    }
)
# An expiry of one of these is no card's.
_OTHER_EXPIRIES = frozenset(
    {
        "passport",
        "visa",
        "license",
        "id",
        "document",
        "policy",
        "insurance",
        "membership",
        "subscription",
        "warranty",
        "domain",
        "trial",
        "plan",
        "offer",
        "coupon",
        "product",
        "contract",
        "lease",
        "food",
        "medicine",
        "certificate",
        "registration",
        "permit",
        "token",
        "session",
        "password",
        "account",
        "promo",
        "voucher",
        "ticket",
    }
)
_EXPIRY_PARTS = frozenset({"expiry", "date", "month", "year", "mm", "yy", "yyyy", "card"})
_CODE_WORDS = frozenset({"code", "codes", "pin", "number", "token", "password", "passcode"})
_OTP_QUALIFIERS = frozenset({"verification", "auth", "sms", "login", "backup", "recovery"})
_POSTAL = frozenset({"code", "zip", "postal", "post", "area"})
_PASSPORT_NON_NUMBER = frozenset(
    {
        "name",
        "country",
        "nationality",
        "issue",
        "issued",
        "issuing",
        "place",
        "expiry",
        "date",
        "type",
        "photo",
        "authority",
        "city",
        "office",
        "surname",
        "given",
        "first",
        "last",
        "size",
        "holder",
        "status",
        "validity",
    }
)
_ACCOUNT_NON_NUMBER = frozenset({"name", "holder", "type", "branch", "city", "nickname"})
_LICENSE_WORDS = frozenset({"number", "id", "driver", "driving"})
_ID_WORDS = frozenset(
    {
        "aadhaar",
        "pan",
        "ssn",
        "nin",
        "nino",
        "nric",
        "cpf",
        "dni",
        "curp",
        "bsn",
        "sin",
        "tin",
        "itin",
        "ein",
        "iban",
        "personnummer",
        "routing",
        "bsb",
    }
)


def _split_glued(word: str) -> list[str]:
    """Split ``word`` into known words when every piece is one, fewest pieces first."""
    if word in _VOCABULARY or not word.isalnum():
        return [word]
    best: list[list[str] | None] = [None] * (len(word) + 1)
    best[0] = []
    for end in range(2, len(word) + 1):
        for start in range(end - 2, -1, -1):
            head = best[start]
            piece = word[start:end]
            if head is not None and piece in _VOCABULARY:
                candidate = [*head, piece]
                current = best[end]
                if current is None or len(candidate) < len(current):
                    best[end] = candidate
    found = best[len(word)]
    return found if found is not None and len(found) > 1 else [word]


@lru_cache(maxsize=4096)
def name_words(name: str) -> tuple[str, ...]:
    """The canonical words a fact name is read as (``"cc_No"`` -> ``("cc", "number")``)."""
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)
    words: list[str] = []
    for raw in re.split(r"[\s_\-./#:']+", spaced.lower()):
        if not raw:
            continue
        for piece in _split_glued(raw):
            words.extend(_SYNONYMS.get(piece, piece).split())
    return tuple(words)


def _has(words: Sequence[str], *phrase: str) -> bool:
    """Whether ``phrase`` occurs in ``words`` as consecutive words."""
    size = len(phrase)
    return any(tuple(words[i : i + size]) == phrase for i in range(len(words) - size + 1))


def _is_card_data(words: Sequence[str]) -> bool:
    present = set(words)
    if "cvv" in present or _has(words, "on", "card") or _has(words, "valid", "thru"):
        return True
    if _has(words, "security", "code") and not present & {"social", "account"}:
        return True
    payment_card = False
    for i, word in enumerate(words):
        if word == "card" and not (i > 0 and words[i - 1] in _OTHER_CARDS):
            payment_card = True
    about_data = present & (_CARD_DETAIL | _PAYMENT_CARD) or list(words) == ["card"]
    if payment_card and about_data and not present & _CARD_NON_DATA:
        return True
    if "cc" in present and present & {"number", "expiry", "cvv", "holder"}:
        return True
    if "expiry" in present and not present & _OTHER_EXPIRIES:
        return present <= _EXPIRY_PARTS
    return False


def _is_one_time_code(words: Sequence[str]) -> bool:
    present = set(words)
    if "otp" in present or "2fa" in present:
        return True
    if "auth" in present and (len(present) == 1 or present & {"seed", "secret", "key", "app"}):
        return True  # an authenticator's seed
    if _has(words, "one", "time") and present & _CODE_WORDS:
        return True
    if (_has(words, "two", "factor") or _has(words, "two", "step")) and present & _CODE_WORDS:
        return True
    return bool(present & _OTP_QUALIFIERS and present & {"code", "codes", "pin"})


def is_one_time_code_name(name: str) -> bool:
    """Whether a fact called ``name`` is a one-time code or its source by its words
    (``otp``, ``2fa seed``, ``mfa secret``, ``authenticator``, ``login code``): the one
    list the secret rules and the one-time codes (:mod:`gofer.facts.otp`) both read."""
    return _is_one_time_code(name_words(name))


def _is_password(words: Sequence[str]) -> bool:
    present = set(words)
    if present & {"password", "passcode", "passphrase", "mpin", "tpin"}:
        return True
    if _has(words, "pass", "word") or _has(words, "pass", "code") or _has(words, "pass", "phrase"):
        return True
    if "pin" in present and not present & _POSTAL:
        return True
    if "secret" in present and not present & {"santa", "name", "question"}:
        return True
    if "token" in present and present & {"access", "auth", "api", "refresh", "bearer"}:
        return True
    if _has(words, "api", "key") or _has(words, "private", "key") or _has(words, "secret", "key"):
        return True
    return "answer" in present and bool(present & {"security", "secret"})


def _is_identity(words: Sequence[str]) -> bool:
    present = set(words)
    if present & _ID_WORDS:
        return True
    if "passport" in present and not present & _PASSPORT_NON_NUMBER:
        return True
    if _has(words, "social", "security") or _has(words, "social", "insurance"):
        return True
    if _has(words, "national", "insurance") or _has(words, "national", "id"):
        return True
    if "tax" in present and present & {"id", "number", "code"}:
        return True
    if present & {"government", "voter", "citizen", "resident"} and present & {"id", "card"}:
        return True
    if _has(words, "id", "number") or _has(words, "id", "card") or _has(words, "personal", "id"):
        return True
    if "license" in present and "plate" not in present and present & _LICENSE_WORDS:
        return True
    if _has(words, "account", "number") or _has(words, "sort", "code"):
        return True
    if _has(words, "transit", "number") or _has(words, "aba", "number"):
        return True
    return _has(words, "bank", "account") and not present & _ACCOUNT_NON_NUMBER


def _name_reason(name: str) -> str | None:
    words = name_words(name)
    if _is_card_data(words):
        return CARD_DATA
    if _is_one_time_code(words):
        return ONE_TIME_CODE
    if _is_password(words):
        return PASSWORD
    if _is_identity(words):
        return IDENTITY
    return None


def is_secret_name(name: str) -> bool:
    """Whether a fact called ``name`` is secret whatever its value (card data and the like)."""
    return _name_reason(name) is not None


_CARD_SHAPE = re.compile(r"[0-9](?:[ \-]*[0-9]){12,18}")


def is_card_number(value: str) -> bool:
    """Whether ``value`` is a plausible card number: 13–19 digits passing the Luhn check.

    Spaces and dashes may sit between the digits (``"4111 1111-1111 1111"``);
    anything else (letters, ``+``, dots) means it is not a card number.
    """
    text = value.strip()
    if not _CARD_SHAPE.fullmatch(text):
        return False
    digits = [int(c) for c in text if c.isdigit()]
    total = 0
    for position, digit in enumerate(reversed(digits)):
        if position % 2 == 1:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


def secret_reason(name: str, value: str) -> str | None:
    """Why a fact is secret by rule, or ``None`` when no rule makes it secret.

    One of ``"card data"``, ``"one-time code"``, ``"password"``,
    ``"identity or account number"`` (from the name) or ``"card number value"``
    (from the value). A caller's own secret marks are not rules and are not
    reported here.
    """
    reason = _name_reason(name)
    if reason is None and is_card_number(value):
        return CARD_NUMBER_VALUE
    if reason is None and value.strip().casefold().startswith("otpauth://"):
        return ONE_TIME_CODE  # an authenticator's seed, as its URI
    return reason


def is_card_fact(name: str, value: str) -> bool:
    """Whether the fact is card data: named like a card detail, or holding a card number."""
    return secret_reason(name, value) in (CARD_DATA, CARD_NUMBER_VALUE)
