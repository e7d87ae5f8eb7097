"""What pressing a control would do, judged from its words alone.

:func:`consequence` sorts a control's label (or a ``stop_before`` phrase) into one of
three classes, the way a careful person reads a button before pressing it:

* ``PAYMENT``: money moves, or the next press is the one that charges ("Pay now",
  "Place order", "Buy now", "Confirm and pay", "Complete purchase", "Submit order",
  "Proceed to payment").
* ``IRREVERSIBLE``: something leaves or is destroyed and cannot be called back
  ("Send", "Delete", "Publish", "Confirm booking", "Submit application", "Transfer",
  "Cancel booking").
* ``REVERSIBLE``: everything else, including controls that only lead to more forms
  ("Book", "Select", "Continue", "Checkout", "Search", "Save", "Apply", "Send code").

Decisions worth knowing:

* "Checkout", "Proceed to checkout" and "Go to checkout" lead to the address and
  delivery forms, so they are reversible like "Book", "Reserve" and "Continue" (the
  seeds list "Checkout" as a payment; then a job "fill in my details up to payment"
  could never reach a shop's details form). Going to payment ("Go to payment",
  "Continue to billing"), completing a checkout ("Complete checkout") and an express
  or one-click checkout (which skips the forms) are payments. A card form on the
  screen is caught separately by :func:`gofer.safety.screen_payment_evidence`.
* Headings and navigation that merely name payment ("Payment options", "Payment
  methods", "Pay later info", "Checkout guide", "Order history") are reversible.
  A label ending in "payment" ("Payment", "Make payment", "Secure payment") is a
  payment, since that is also how a ``stop_before`` names it.
* A hyphenated "Check-out" is a hotel stay's end date, not a checkout.
* Asking for a login code ("Send code", "Resend OTP", "Get OTP") is reversible;
  "Save", "Apply", "Share", "Sign up" and "Register" are reversible.
* A bare "Cancel" or "No, cancel" dismisses a dialog (reversible); "Cancel booking",
  "Cancel order", "Cancel subscription" destroy something (irreversible).
* Words are whole words: "Void" (an invoice, a payment) is irreversible, "Avoid
  tolls" is not; "Display order" is not "pay".
* "Remove" alone is irreversible here; what it removes (a basket line, a filter, a
  chip of a selection) is judged from the screen by ``gofer.decide.gates``.
* A record's number after its noun ("Order #1042", "Order 1042", "Invoice no. 55")
  names that record, a link to it, so it is not a payment; "Order 2 pizzas" still is.
* "and"/"&"/"+"/"then" join actions: "Review and pay" is as grave as its gravest part.
* Words that lead on to the next step ("Continue with your order", "Proceed with
  payment", "Next: payment") are reversible whatever they name, unless an act that
  commits follows them ("Proceed with placing the order"); a page named after the
  order ("Continue to order review") is a page. "Place ... order", "Order and pay",
  "Pay now" and "Buy now" are the payment.

The label is normalized first: case, accents' compatibility forms, punctuation,
emoji and icon glyphs, icon-font ligature names ("arrow_forward") and money amounts
("₹7,346", "$12.00", "INR 500", "Rs. 99/-") are dropped, so "🔒 PAY ₹7,346 NOW!"
reads as "pay now". Verb forms are reduced ("paying for the booking" reads as "pay").
"""

from __future__ import annotations

import re
import unicodedata
from enum import StrEnum

__all__ = ["Consequence", "consequence"]


class Consequence(StrEnum):
    """How grave pressing a control is."""

    PAYMENT = "payment"
    IRREVERSIBLE = "irreversible"
    REVERSIBLE = "reversible"


_GRAVITY = {Consequence.REVERSIBLE: 0, Consequence.IRREVERSIBLE: 1, Consequence.PAYMENT: 2}

_CURRENCY_CODES = (
    "rs|inr|usd|us|eur|gbp|aud|cad|sgd|aed|jpy|cny|chf|nzd|hkd|myr|thb|idr|php|zar|sar|qar"
    "|sek|nok|dkk|pln|try|brl|mxn|krw"
)
_CODE_BEFORE_AMOUNT = re.compile(rf"\b(?:{_CURRENCY_CODES})\.?\s*(?=\d)")
_CODE_AFTER_AMOUNT = re.compile(rf"(?<=\d)\s*(?:{_CURRENCY_CODES})\b")
_ICON_LIGATURE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")
_HYPHENATED_CHECK_OUT = re.compile(r"\bcheck\s*[-‐‑–—]\s*out\b")
# A hotel stay's end ("Check-out", "Check-out date"): never a shop's checkout.
_STAY_END = "stayend"

_CONJUNCTIONS = frozenset({"and", "then", "n"})

_LEMMAS = {
    "paying": "pay",
    "pays": "pay",
    "buying": "buy",
    "purchasing": "purchase",
    "checking": "check",
    "placing": "place",
    "sending": "send",
    "deleting": "delete",
    "publishing": "publish",
    "posting": "post",
    "submitting": "submit",
    "transferring": "transfer",
    "confirming": "confirm",
    "cancelling": "cancel",
    "canceling": "cancel",
    "removing": "remove",
    "making": "make",
    "completing": "complete",
    "donating": "donate",
    "ordering": "order",
    "subscribing": "subscribe",
    "unsubscribing": "unsubscribe",
    "signing": "sign",
    "approving": "approve",
    "authorizing": "authorize",
    "authorising": "authorise",
    "finalizing": "finalize",
    "finalising": "finalise",
    "withdrawing": "withdraw",
    "erasing": "erase",
    "replying": "reply",
    "starting": "start",
    "closing": "close",
    "finishing": "finish",
    "discarding": "discard",
    "deactivating": "deactivate",
    "terminating": "terminate",
    "revoking": "revoke",
    "resending": "resend",
    "requesting": "request",
    "logging": "log",
    "processing": "process",
    "retrying": "retry",
}

# Words that carry no action of their own at the start of a label or phrase.
_FILLERS = frozenset(
    {
        "yes",
        "ok",
        "okay",
        "please",
        "sure",
        "now",
        "click",
        "clicking",
        "tap",
        "tapping",
        "press",
        "pressing",
        "hit",
        "here",
        "lets",
        "just",
        "securely",
        "secure",
        "safely",
        "quickly",
        "express",
        "instant",
        "the",
        "a",
        "an",
        "this",
        "that",
        "my",
        "your",
        "our",
        "permanently",
        "finally",
        "right",
        "away",
    }
)
_TRAILING_FILLERS = frozenset({"button", "btn", "link", "control", "now", "here", "icon"})
_DETERMINERS = frozenset({"the", "a", "an", "this", "that", "my", "your", "our", "these"})

# Openings that send the person somewhere: what follows is the destination.
_NAV_PREFIXES: tuple[tuple[str, ...], ...] = (
    ("continue", "to"),
    ("proceed", "to"),
    ("go", "to"),
    ("back", "to"),
    ("return", "to"),
    ("take", "me", "to"),
    ("move", "on", "to"),
    ("move", "to"),
    ("skip", "to"),
    ("jump", "to"),
)
# Openings that lead on to the next step whatever it is named after ("Continue with
# your order", "Proceed with payment", "Next: payment"): reversible unless an act that
# commits follows ("Proceed with placing the order", "Next: pay now").
_LEAD_ONS: tuple[tuple[str, ...], ...] = (("continue", "with"), ("proceed", "with"), ("next",))
_LEAD_ON_COMMITS = frozenset(
    {
        "pay",
        "buy",
        "purchase",
        "place",
        "complete",
        "confirm",
        "submit",
        "donate",
        "make",
        "finalize",
        "finalise",
        "authorize",
        "authorise",
        "send",
        "delete",
        "publish",
        "transfer",
    }
)
# A destination named by a record's noun is a page ("Continue to order review").
_PLACE_NOUNS = frozenset({"order"})
_PAYMENT_DESTINATIONS = frozenset({"payment", "payments", "billing", "purchase"})
# A checkout that skips the address and delivery forms ("Express checkout", "1-Click").
_QUICK_CHECKOUT = frozenset({"express", "instant", "click", "quick"})

_NEGATIONS = frozenset(
    {
        "no",
        "not",
        "dont",
        "never",
        "skip",
        "nope",
        "undo",
        "keep",
        "maybe",
        "later",
    }
)

# Openings that look, choose, edit or ask, whatever they mention.
_VIEW_LEADS = frozenset(
    {
        "view",
        "see",
        "show",
        "hide",
        "edit",
        "change",
        "modify",
        "update",
        "manage",
        "add",
        "learn",
        "read",
        "compare",
        "how",
        "what",
        "why",
        "where",
        "when",
        "which",
        "ways",
        "about",
        "help",
        "faq",
        "faqs",
        "more",
        "less",
        "expand",
        "collapse",
        "print",
        "download",
        "copy",
        "track",
        "preview",
        "browse",
        "search",
        "filter",
        "sort",
        "select",
        "choose",
        "pick",
        "check",
        "explore",
        "get",
        "find",
        "open",
        "verify",
    }
)

# Trailing nouns that make a label a heading or help, never an action.
_HELP_NOUNS = frozenset(
    {
        "faq",
        "faqs",
        "guide",
        "help",
        "tips",
        "instructions",
        "policy",
        "policies",
        "terms",
        "conditions",
        "rules",
        "explained",
        "works",
    }
)
# Trailing nouns that make a label a heading unless a committing verb opens it
# ("Payment details" is a heading; "Confirm details" and "Delete history" act).
_HEADING_NOUNS = frozenset(
    {
        "options",
        "option",
        "methods",
        "method",
        "mode",
        "modes",
        "details",
        "detail",
        "info",
        "information",
        "summary",
        "history",
        "settings",
        "overview",
        "status",
        "date",
        "dates",
        "time",
        "number",
        "id",
        "breakdown",
        "fees",
        "charges",
        "list",
    }
)
_ACTING_VERBS = frozenset(
    {
        "delete",
        "remove",
        "send",
        "submit",
        "confirm",
        "publish",
        "post",
        "cancel",
        "erase",
        "clear",
        "share",
        "place",
        "complete",
        "make",
        "approve",
        "authorize",
        "authorise",
        "finalize",
        "finalise",
        "finish",
        "wipe",
        "destroy",
        "unsubscribe",
        "subscribe",
        "discard",
        "revoke",
        "terminate",
        "deactivate",
        "close",
        "withdraw",
        "process",
        "retry",
    }
)

_PAY_WORDS = frozenset({"pay"})
_PAY_LEADS = frozenset({"buy", "purchase", "donate", "order", "pay"})
_COMMIT_VERBS = frozenset(
    {
        "make",
        "confirm",
        "submit",
        "complete",
        "place",
        "authorize",
        "authorise",
        "approve",
        "process",
        "finalize",
        "finalise",
        "finish",
        "retry",
        "send",
        "execute",
    }
)
_PAYMENT_OBJECTS = frozenset(
    {
        "payment",
        "purchase",
        "order",
        "transaction",
        "checkout",
        "bid",
        "bet",
        "trade",
    }
)

_CODE_WORDS = frozenset(
    {
        "code",
        "codes",
        "otp",
        "passcode",
        "pin",
        "link",
        "verification",
        "token",
    }
)
_CODE_REQUESTS = frozenset({"send", "resend", "request", "email", "text", "sms"})
_REMOVE_HARMLESS = frozenset(
    {
        "filter",
        "filters",
        "from",
        "item",
        "coupon",
        "promo",
        "voucher",
        "selection",
        "all",
    }
)
_CONFIRM_HARMLESS = frozenset({"password", "location", "dates", "selection", "seats", "seat"})
_CANCEL_OBJECTS = frozenset(
    {
        "booking",
        "bookings",
        "order",
        "orders",
        "subscription",
        "reservation",
        "account",
        "membership",
        "plan",
        "flight",
        "ticket",
        "tickets",
        "trip",
        "appointment",
        "policy",
        "transfer",
        "request",
        "application",
        "stay",
        "ride",
        "registration",
        "contract",
    }
)
_COMPLETE_OBJECTS = frozenset(
    {
        "booking",
        "reservation",
        "application",
        "registration",
        "transfer",
        "request",
        "submission",
    }
)
_START_OBJECTS = frozenset({"subscription", "trial", "membership", "plan"})
_SIGN_HARMLESS = frozenset({"in", "up", "out", "on", "off", "into"})
_ALWAYS_IRREVERSIBLE = frozenset(
    {
        "send",
        "delete",
        "publish",
        "submit",
        "transfer",
        "unsubscribe",
        "subscribe",
        "erase",
        "destroy",
        "wipe",
        "deactivate",
        "terminate",
        "revoke",
        "withdraw",
        "reply",
        "tweet",
        "approve",
        "authorize",
        "authorise",
        "finalize",
        "finalise",
        "discard",
        "purge",
        "void",
    }
)


def consequence(label: str) -> Consequence:
    """Classify a control's words (or a ``stop_before`` phrase) by what pressing it does.

    >>> consequence("Pay ₹7,346 now")
    <Consequence.PAYMENT: 'payment'>
    >>> consequence("Payment options")
    <Consequence.REVERSIBLE: 'reversible'>
    """
    worst = Consequence.REVERSIBLE
    for clause in _clauses(label):
        found = _classify_clause(clause)
        if _GRAVITY[found] > _GRAVITY[worst]:
            worst = found
    return worst


_NUMBERED = "numbered"
"""Stands for a record's number after its noun ("Order #1042", "order no. 7")."""
_RECORD_NUMBER = re.compile(
    r"\b(order|invoice|booking|reservation|purchase|payment|transaction)[\s:]*"
    r"(?:(?:no|nr|number|id|ref|reference)\b[\s.:]*#?\s*[\w-]*\d[\w-]*"
    r"|#\s*[\w-]*\d[\w-]*"
    r"|[a-z-]*\d[\w-]{2,}(?=[^a-z]*$|\W*(?:details|status|summary|receipt)\b))"
)


def _words(label: str) -> list[str]:
    text = unicodedata.normalize("NFKC", label).casefold()
    text = text.replace("'", "").replace("’", "").replace("ʼ", "")
    text = _ICON_LIGATURE.sub(" ", text)
    text = _HYPHENATED_CHECK_OUT.sub(f" {_STAY_END} ", text)
    text = _CODE_BEFORE_AMOUNT.sub(" ", text)
    text = _CODE_AFTER_AMOUNT.sub(" ", text)
    text = _RECORD_NUMBER.sub(rf"\1 {_NUMBERED} ", text)
    text = text.replace("&", " and ").replace("+", " and ")
    text = "".join(ch if ch.isalnum() else " " for ch in text)
    words = [w for w in text.split() if not any(ch.isdigit() for ch in w)]
    return [_LEMMAS.get(w, w) for w in words]


def _clauses(label: str) -> list[list[str]]:
    clauses: list[list[str]] = [[]]
    for word in _words(label):
        if word in _CONJUNCTIONS:
            clauses.append([])
        else:
            clauses[-1].append(word)
    return [_merge_check_out(c) for c in clauses if c]


def _merge_check_out(words: list[str]) -> list[str]:
    """Read "check out" as "checkout", except "check out our deals" and the like."""
    merged: list[str] = []
    i = 0
    while i < len(words):
        if words[i] == "check" and i + 1 < len(words) and words[i + 1] == "out":
            following = words[i + 2] if i + 2 < len(words) else None
            if following is None or following not in _DETERMINERS | {"more", "all", "what"}:
                merged.append("checkout")
                i += 2
                continue
        merged.append(words[i])
        i += 1
    return merged


def _strip(words: list[str]) -> tuple[list[str], bool]:
    """Drop fillers and a leading "proceed to"; say whether a destination follows."""
    navigates = False
    changed = True
    while words and changed:
        changed = False
        if words[0] in _FILLERS:
            words = words[1:]
            changed = True
            continue
        for prefix in _NAV_PREFIXES:
            if tuple(words[: len(prefix)]) == prefix:
                words = words[len(prefix) :]
                navigates = changed = True
                break
    while words and words[-1] in _TRAILING_FILLERS:
        words = words[:-1]
    return words, navigates


def _is_heading(words: list[str]) -> bool:
    last = words[-1]
    if last in _HELP_NOUNS:
        return True
    return last in _HEADING_NOUNS and len(words) > 1 and words[0] not in _ACTING_VERBS


def _classify_clause(words: list[str]) -> Consequence:
    if "without" in words:
        words = words[: words.index("without")]
    if "checkout" in words[1:]:
        before = words[words.index("checkout", 1) - 1]
        if before in _QUICK_CHECKOUT:
            return Consequence.PAYMENT
    words, navigates = _strip(words)
    if not words:
        return Consequence.REVERSIBLE
    for prefix in _LEAD_ONS:
        if tuple(words[: len(prefix)]) == prefix:
            rest, _ = _strip(words[len(prefix) :])
            if not rest or rest[0] not in _LEAD_ON_COMMITS:
                return Consequence.REVERSIBLE
            return _classify_clause(rest)
    if navigates and words[0] in _PLACE_NOUNS and len(words) > 1:
        return Consequence.REVERSIBLE
    lead = words[0]
    if lead in _NEGATIONS or _is_heading(words) or lead in _VIEW_LEADS:
        return Consequence.REVERSIBLE
    if _is_payment(words, navigates):
        return Consequence.PAYMENT
    if _is_irreversible(words):
        return Consequence.IRREVERSIBLE
    return Consequence.REVERSIBLE


def _is_payment(words: list[str], navigates: bool) -> bool:
    lead = words[0]
    if navigates and lead in _PAYMENT_DESTINATIONS:
        return True
    if words[-1] == "payment" or _PAY_WORDS.intersection(words):
        return True
    if lead in _PAY_LEADS:
        # "Order by: price" sorts a list; "Order #1042" names one
        return words[1:2] not in (["by"], [_NUMBERED])
    return lead in _COMMIT_VERBS and _commits_payment(words)


_OBJECT_ENDS = frozenset({"to", "for", "of", "from", "with", "and", "in", "on", "by", "as"})


def _commits_payment(words: list[str]) -> bool:
    """Whether the object a commit verb acts on is a payment noun, past the adjectives
    before it ("Place binding order", "Submit final order")."""
    phrase = [word for word in words[1:] if word not in _DETERMINERS][:3]
    for word in phrase:
        if word in _PAYMENT_OBJECTS:
            return True
        if word in _OBJECT_ENDS:
            return False
    return False


def _is_irreversible(words: list[str]) -> bool:
    lead, rest = words[0], set(words[1:])
    if lead in _CODE_REQUESTS and rest & _CODE_WORDS:
        return False  # "Send code", "Resend OTP": a login step
    if lead in _ALWAYS_IRREVERSIBLE:
        return True
    following = words[1] if len(words) > 1 else None
    match lead:
        case "remove":
            return not rest & _REMOVE_HARMLESS
        case "confirm":
            return not rest & _CONFIRM_HARMLESS
        case "post":
            return following != "code"
        case "sign":
            return following not in _SIGN_HARMLESS
        case "cancel":
            return bool(rest & _CANCEL_OBJECTS)
        case "close":
            return "account" in rest
        case "complete" | "finish":
            return bool(rest & _COMPLETE_OBJECTS)
        case "start":
            return bool(rest & _START_OBJECTS)
    return False
