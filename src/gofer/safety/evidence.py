"""Whether a screen is a card form, judged from its visible text.

A page that shows card-form field labels is one where any press may charge, so the
runtime treats every click on it as destructive. Mentioning cards is not enough
("We accept credit cards", "Card offers", "No cost EMI on HDFC card"): the page must
show the labels of the fields a card is typed into. Bare "Expiry" and "Cardholder"
count only as a line of their own (a field label), since offers say "card holders
get 10% off" and coupons have an expiry.

The rule: a *strong* label (a card number field, or a CVV/CVC/card verification
field) settles it alone; otherwise two different kinds among the *weaker* ones
(a security code, an expiry date, the cardholder's name) are needed. An "Expiry" on
a coupon, or a "security code" on a login form, is not a card form on its own.

The fields' own autocomplete tokens count the same way (HTML's ``cc-*`` names):
``cc-number`` and ``cc-csc`` are strong, ``cc-exp*`` and ``cc-name`` (with its given
and family parts) weaker. A caller passes the labels and placeholders of the fields
as lines of the text, so a form whose fields are named only by placeholders counts.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

__all__ = [
    "CARDHOLDER",
    "CARD_NUMBER",
    "EXPIRY",
    "SECURITY_CODE",
    "screen_payment_evidence",
]

CARD_NUMBER = "card number"
SECURITY_CODE = "security code"
EXPIRY = "expiry date"
CARDHOLDER = "cardholder name"

_ORDER = (CARD_NUMBER, SECURITY_CODE, EXPIRY, CARDHOLDER)

# (kind, strong, pattern) over casefolded text with whitespace collapsed per line.
_PATTERNS: tuple[tuple[str, bool, re.Pattern[str]], ...] = (
    (CARD_NUMBER, True, re.compile(r"\bcard\s*(?:number|num\b|#)")),
    (CARD_NUMBER, True, re.compile(r"\bnumber\s+on\s+(?:the\s+|your\s+)?card\b")),
    # "Card No." / "Card no:" as a field label, not "card no cost EMI".
    (CARD_NUMBER, True, re.compile(r"\bcard\s+no\b\.?\s*(?:[:#*]|$)", re.MULTILINE)),
    (SECURITY_CODE, True, re.compile(r"\b(?:cvv2?|cvc2?|cvn)\b")),
    (SECURITY_CODE, True, re.compile(r"\bcard\s+(?:verification|security)\b")),
    (SECURITY_CODE, False, re.compile(r"\bsecurity\s+code\b")),
    (EXPIRY, False, re.compile(r"\bexp(?:iry|iration|\.|ires)?\s*(?:date|month|year)\b")),
    (EXPIRY, False, re.compile(r"^(?:expiry|expiration|expires)\s*[:*]?$", re.MULTILINE)),
    (EXPIRY, False, re.compile(r"\bvalid\s+(?:thru|through)\b")),
    (EXPIRY, False, re.compile(r"\bmm\s*/\s*(?:yy|yyyy)\b")),
    (CARDHOLDER, False, re.compile(r"\bcard\s*-?\s*holder(?:'?s)?\s+(?:full\s+)?name\b")),
    (CARDHOLDER, False, re.compile(r"\bname\s+of\s+(?:the\s+)?card\s*-?\s*holder\b")),
    (CARDHOLDER, False, re.compile(r"^card\s*-?\s*holder\s*[:*]?$", re.MULTILINE)),
    (CARDHOLDER, False, re.compile(r"\bname\s+(?:\(?as\s+)?(?:printed\s+)?on\s+(?:the\s+)?card\b")),
)


# Cards that are not payment cards: their numbers are identity or loyalty fields.
_OTHER_CARDS = re.compile(
    r"\b(?:pan|aadhaar|aadhar|id|identity|loyalty|membership|member|flyer|flier|voter|"
    r"ration|national|sim|health|insurance|student|library|rewards?|points|access)"
    r"\s+card\s*(?:number|num\b|#|no\b)"
)


# autocomplete token -> (kind, strong)
_AUTOCOMPLETE: dict[str, tuple[str, bool]] = {
    "cc-number": (CARD_NUMBER, True),
    "cc-csc": (SECURITY_CODE, True),
    "cc-exp": (EXPIRY, False),
    "cc-exp-month": (EXPIRY, False),
    "cc-exp-year": (EXPIRY, False),
    "cc-name": (CARDHOLDER, False),
    "cc-given-name": (CARDHOLDER, False),
    "cc-family-name": (CARDHOLDER, False),
}


def screen_payment_evidence(screen_text: str, autocomplete: Iterable[str] = ()) -> tuple[str, ...]:
    """The card-form field kinds a screen shows, or ``()`` when it is not a card form.

    ``autocomplete`` holds the autocomplete attributes of the screen's fields.
    Kinds come back once each, in a fixed order: ``"card number"``,
    ``"security code"``, ``"expiry date"``, ``"cardholder name"``.
    """
    text = unicodedata.normalize("NFKC", screen_text).casefold()
    text = "\n".join(" ".join(line.split()) for line in text.splitlines())
    text = _OTHER_CARDS.sub(" ", text)
    found: set[str] = set()
    strong = False
    for tokens in autocomplete:
        for token in tokens.casefold().split():
            if token in _AUTOCOMPLETE:
                kind, is_strong = _AUTOCOMPLETE[token]
                found.add(kind)
                strong = strong or is_strong
    for kind, is_strong, pattern in _PATTERNS:
        if pattern.search(text):
            found.add(kind)
            strong = strong or is_strong
    if not strong and len(found) < 2:
        return ()
    return tuple(kind for kind in _ORDER if kind in found)
