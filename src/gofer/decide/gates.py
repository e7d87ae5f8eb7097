"""What pressing a control on a screen would do, judged from the screen as well as its words.

:func:`gofer.safety.consequence` reads a control's words alone; the seeds' word lists
live there. A careful person also looks at what the control is and where it sits,
and so do these rules:

* :func:`judge`: a link that goes to another page (a plain ``href``, no script, no
  other method) is not irreversible by itself: admin applications put "Delete" on a
  record's page as a link to an "Are you sure?" page, whose button is the one that
  deletes. Taking something out of a basket, a filter or a selection ("Remove",
  "Remove selected", "Delete" on a basket line, "Clear", a chip's ×) is reversible;
  deleting an account, a record or a message stays irreversible. Payments stay
  payments wherever they are, but one: a bare "Buy" in a product's form beside its
  quantity field, on a page with no card or address form, puts the product in the
  cart (shops use it for "Add to cart"); "Buy now" and a "Buy" in a checkout pay.
* :func:`card_evidence`: a card form shows in its text, in its fields' labels and
  placeholders, and in their ``autocomplete`` tokens (``cc-number``).
* :func:`wall_on`: a login wall is what blocks the content: the words of what covers
  the page, or of a page replaced by a sign-in form. A header's "Sign in" or "Login
  or register" link on a page that is open is not one.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from gofer.decide.overlays import covering
from gofer.decide.prepared import FIELD_ROLES, label_of
from gofer.decide.text import normalise
from gofer.safety import Consequence, consequence, human_wall, screen_payment_evidence
from gofer.safety.walls import LOGIN_WALL
from gofer.surfaces.screen import Box, Element, Screen

__all__ = [
    "blocking_text",
    "card_evidence",
    "judge",
    "navigates",
    "puts_in_cart",
    "takes_out",
    "wall_on",
]

_LINK_ROLES = frozenset({"link"})
_REMOVERS = frozenset({"remove", "delete", "clear", "discard", "unselect", "deselect", "x"})
# What taking out is never harmless for, wherever it sits.
_GRAVE_OBJECTS = frozenset(
    {
        "account",
        "accounts",
        "profile",
        "user",
        "users",
        "member",
        "members",
        "message",
        "messages",
        "email",
        "emails",
        "mail",
        "conversation",
        "chat",
        "post",
        "posts",
        "comment",
        "comments",
        "record",
        "records",
        "file",
        "files",
        "document",
        "documents",
        "photo",
        "photos",
        "project",
        "projects",
        "repository",
        "repo",
        "workspace",
        "team",
        "organisation",
        "organization",
        "database",
        "customer",
        "customers",
        "contact",
        "contacts",
        "page",
        "pages",
        "site",
        "data",
        "everything",
        "history",
        "card",
        "cards",
        "invoice",
        "invoices",
        "order",
        "orders",
        "booking",
        "bookings",
        "event",
        "events",
    }
)
_BASKET_WORDS = frozenset(
    {
        "cart",
        "basket",
        "bag",
        "trolley",
        "wishlist",
        "wish list",
        "saved for later",
    }
)
_FILTER_WORDS = frozenset(
    {
        "filter",
        "filters",
        "filtered by",
        "refine",
        "refine by",
        "facets",
        "applied",
        "active filters",
        "your selection",
        "selected",
        "tags",
        "chips",
    }
)
_QUANTITY = re.compile(r"\b(?:qty|quantity)\b", re.IGNORECASE)
_PRICE = re.compile(r"(?:[$€£¥₹]\s?\d|\d[\d.,]*\s?(?:usd|eur|gbp|inr)\b)", re.IGNORECASE)
_SELECTION_ROLES = frozenset({"combobox", "listbox", "textbox", "searchbox"})
_NEAR_PX = 16.0
_JOINERS = frozenset({"or", "and", "|", "/"})
_AGREEING = frozenset(
    {
        "yes",
        "i",
        "im",
        "m",
        "am",
        "sure",
        "ok",
        "okay",
        "confirm",
        "proceed",
        "continue",
        "do",
        "it",
        "go",
        "ahead",
        "please",
        "agree",
        "absolutely",
    }
)
_YES = frozenset({"yes", "sure", "ok", "okay", "confirm", "agree", "absolutely"})
# normalised text: "are you sure you want to delete the user asha"
_QUESTION = re.compile(
    r"\b(?:are you sure|do you (?:really )?want|really want|confirm that "
    r"you want)(?: you want)? to ((?:\w+ ?){1,4})"
)
_FINAL = re.compile(
    r"\b(?:cannot|can ?t|can not) be (?:undone|reversed|recovered|restored)\b|"
    r"\bpermanently (?:delete|remove|erase)"
)
_LOGIN_WORDS = re.compile(r"(?:\b|_)(?:log|sign)[\s_-]*(?:in|on)(?:\b|_)", re.IGNORECASE)
_RETURN_PARAMS = re.compile(
    r"[?&](?:next|return|returnurl|return_to|redirect|redirect_to|"
    r"continue|from|back|goto|dest|destination)=",
    re.IGNORECASE,
)


def judge(el: Element, screen: Screen) -> Consequence:
    """How grave pressing ``el`` on ``screen`` is: its words, refined by what it is.

    >>> from gofer.surfaces.screen import Element, Screen
    >>> page = Screen("https://shop.example/admin/users/3/", "User 3", (), ())
    >>> judge(Element("e1", "link", "Delete",
    ...               href="https://shop.example/admin/users/3/delete/"), page)
    <Consequence.REVERSIBLE: 'reversible'>
    """
    kind = consequence(label_of(el))
    agrees = _agrees(el)
    # "Yes" answers the page's question; "Continue" only a dialog's (a page's FAQ may
    # ask "Do you want to cancel your booking?" above its Continue).
    if kind is Consequence.REVERSIBLE and (agrees == "yes" or (agrees and screen.dialog_open)):
        asked = _asked(screen)
        if asked is not None:
            return asked
    if kind is Consequence.PAYMENT and puts_in_cart(el, screen):
        return Consequence.REVERSIBLE
    if kind is not Consequence.IRREVERSIBLE:
        return kind
    if navigates(el, screen) or takes_out(el, screen):
        return Consequence.REVERSIBLE
    if _words(label_of(el)) in (["confirm"], ["confirm", "it"]):
        return _confirmed(el, screen)
    return kind


_HARSH = re.compile(
    r"\b(?:block|ban|suspend|revoke|deactivate|disable|lock|purge|wipe|order|checkout|"
    r"basket|cart|booking|payment|purchase|subscription|donation|transfer)\b"
)
"""Acts a bare "Confirm" must stop before though the generic words do not call them
grave: on a person or an account, and anything about an order or money."""
_REVERSIBLE_ACTS = re.compile(
    r"\b(?:change|edit|update|modify|rename|move|protect|protection|unprotect|settings|"
    r"preferences|configure|configuration|options)\b"
)
"""Acts a page may name that a person can take back (a page's protection, settings)."""


def _confirmed(el: Element, screen: Screen) -> Consequence:
    """How grave a bare "Confirm" is: the act it confirms, named by the dialog's question,
    else by the form's legend, its section's heading or the page's title. Reversible only
    when they name a reversible act and nothing grave; else irreversible (or payment)."""
    asked = _asked(screen)
    if asked is not None:
        return asked
    named = [normalise(text) for text in (el.group, el.section, screen.title) if text]
    kinds = [consequence(text) for text in named]
    if Consequence.PAYMENT in kinds:
        return Consequence.PAYMENT
    grave = Consequence.IRREVERSIBLE in kinds or any(_HARSH.search(t) for t in named)
    if grave or not any(_REVERSIBLE_ACTS.search(t) for t in named):
        return Consequence.IRREVERSIBLE
    return Consequence.REVERSIBLE


_ADDRESS_TOKENS = frozenset(
    {"street-address", "address-line1", "postal-code", "shipping", "billing"}
)
_ADDRESS_WORDS = re.compile(r"\b(?:address|street|post ?code|zip)\b", re.IGNORECASE)


def puts_in_cart(el: Element, screen: Screen) -> bool:
    """Whether ``el`` is a bare "Buy" in a product's form: a quantity field in its record
    (or its section), and no card or address form on the page."""
    if _words(label_of(el)) != ["buy"]:
        return False
    fields = [e for e in screen.elements if e.visible and e.role in FIELD_ROLES]
    beside = [
        e
        for e in fields
        if (e.record == el.record if el.record is not None else e.section == el.section)
        and _QUANTITY.search(e.display_name)
    ]
    if not beside or card_evidence(screen):
        return False
    return not any(
        _ADDRESS_TOKENS & set(e.autocomplete.split()) or _ADDRESS_WORDS.search(e.display_name)
        for e in fields
    )


def _agrees(el: Element) -> str:
    """Whether ``el`` only says yes to a question: ``"yes"`` ("Yes, I'm sure", "OK"),
    ``"go"`` ("Proceed", "Continue"), else ``""``."""
    if el.role not in ("button", "clickable") and el.input_type not in ("submit", "button"):
        return ""
    words = set(_words(label_of(el)))
    if not words or words - _AGREEING:
        return ""
    return "yes" if words & _YES else "go"


def _asked(screen: Screen) -> Consequence | None:
    """How grave what the screen asks to be confirmed is ("Are you sure you want to
    delete the user?", or a warning that it "cannot be undone"), or None when it asks
    nothing grave."""
    worst: Consequence | None = None
    for line in screen.lines:
        text = normalise(line.text)
        found = _QUESTION.search(text)
        kind = consequence(found.group(1)) if found else None
        if kind is None or kind is Consequence.REVERSIBLE:
            kind = Consequence.IRREVERSIBLE if _FINAL.search(text) else None
        if kind is not None and (worst is None or kind is Consequence.PAYMENT):
            worst = kind
    return worst


def navigates(el: Element, screen: Screen) -> bool:
    """Whether ``el`` is a plain link to another page (what it names happens there)."""
    if el.role not in _LINK_ROLES or not el.href:
        return False
    to, here = urlsplit(el.href), urlsplit(screen.url)
    if to.scheme not in ("http", "https"):
        return False
    return (to.netloc, to.path, to.query) != (here.netloc, here.path, here.query)


def _words(text: str) -> list[str]:
    return normalise(text).split()


def takes_out(el: Element, screen: Screen) -> bool:
    """Whether ``el`` takes something out of a basket, a filter or a selection.

    Its words must remove ("Remove", "Clear", "Delete", a bare ×) something that is
    not grave (an account, a message, a record...), and it must sit where such things
    are taken out: a basket line or a basket page, a filter bar, a chip of what is
    selected (its words name a ticked box or a chosen option, or it sits inside the
    field that holds the chips), or beside a list of choices ("Remove selected").
    "Delete" takes out only where the page says it is a basket ("Shopping cart"): on
    an order's lines in an admin it deletes.
    """
    words = _words(label_of(el))
    if not words or words[0] not in _REMOVERS or _GRAVE_OBJECTS.intersection(words):
        return False
    if words[0] == "delete":
        return _says_basket(el, screen)
    if _in_basket(el, screen) or _in_filters(el):
        return True
    return _unselects(el, words[1:], screen)


def _has(phrases: frozenset[str], text: str) -> bool:
    padded = f" {normalise(text)} "
    return any(f" {p} " in padded for p in phrases)


def _record_text(el: Element, screen: Screen) -> str:
    if el.record is None:
        return ""
    group, index = el.record
    if group >= len(screen.records) or index >= len(screen.records[group].records):
        return ""
    found = screen.records[group]
    return " ".join((found.name, *found.headers, found.records[index].text))


def _in_basket(el: Element, screen: Screen) -> bool:
    record = _record_text(el, screen)
    if record and _QUANTITY.search(record) and _PRICE.search(record):
        return True  # a basket line: a quantity and a price beside the control
    return _says_basket(el, screen)


def _says_basket(el: Element, screen: Screen) -> bool:
    """Whether the words around ``el`` (its section, group, record, the page's title
    and main headings) say it is in a basket."""
    headings = " ".join(line.text for line in screen.lines if line.heading in (1, 2))
    return any(
        _has(_BASKET_WORDS, text)
        for text in (el.section, el.group, _record_text(el, screen), screen.title, headings)
    )


def _in_filters(el: Element) -> bool:
    return _has(_FILTER_WORDS, el.section) or _has(_FILTER_WORDS, el.group)


def _inside(inner: Box, outer: Box) -> bool:
    return (
        outer.x - _NEAR_PX <= inner.x
        and inner.x + inner.width <= outer.x + outer.width + _NEAR_PX
        and outer.y - _NEAR_PX <= inner.y
        and inner.y + inner.height <= outer.y + outer.height + _NEAR_PX
    )


def _unselects(el: Element, rest: list[str], screen: Screen) -> bool:
    """A chip's × (its words name what is chosen, or it sits in the field holding the
    chips), or "Remove selected" beside a list of choices."""
    named = " ".join(w for w in rest if w not in ("item", "tag", "the", "selected", "all"))
    others = [e for e in screen.elements if e.visible and e.ref != el.ref]
    if named:
        for other in others:
            chosen = other.checked or other.selected
            if chosen and normalise(other.display_name) == named:
                return True
            if (
                other.role in _SELECTION_ROLES
                and other.value
                and named in normalise(other.value).split(", ")
            ):
                return True
    if any(o.role in _SELECTION_ROLES and o.box.width and _inside(el.box, o.box) for o in others):
        return True
    if set(rest) & {"selected", "all"}:
        return any(
            o.role == "listbox" and (not el.section or o.section == el.section) for o in others
        )
    return False


def card_evidence(screen: Screen) -> tuple[str, ...]:
    """The card-form field kinds ``screen`` shows (:func:`gofer.safety.screen_payment_evidence`
    on its text, its visible fields' labels and placeholders, and their autocomplete)."""
    fields = [e for e in screen.elements if e.visible and e.role in FIELD_ROLES]
    names = [part for e in fields for part in (e.label, e.placeholder, e.name) if part]
    return screen_payment_evidence(
        "\n".join([screen.text, *names]), [e.autocomplete for e in fields if e.autocomplete]
    )


def blocking_text(screen: Screen) -> str:
    """The words of what blocks the content: the layer covering the page, and the
    page's own words that could replace its content (headings always; other lines
    when a sign-in form is showing), never a line made of links ("Login or register")."""
    parts: list[str] = []
    covered = [e for e in screen.elements if e.visible and not e.on_top]
    if covered:
        cover = covering(screen, covered[0])
        if cover is not None:
            parts.append(cover.text)
    links = [
        normalise(e.display_name)
        for e in screen.elements
        if e.role in _LINK_ROLES and e.display_name
    ]
    signing_in = _signs_in(screen)
    parts.extend(
        line.text
        for line in screen.lines
        if (line.heading or signing_in) and not _of_links(line.text, links)
    )
    return "\n".join(parts)


def _of_links(text: str, links: list[str]) -> bool:
    """Whether ``text`` is made of link words only ("Login or register", "Sign in")."""
    rest = f" {normalise(text)} "
    for name in sorted(links, key=len, reverse=True):
        if name:
            rest = rest.replace(f" {name} ", " ")
    return not set(rest.split()) - _JOINERS


def _signs_in(screen: Screen) -> bool:
    """Whether the page shows a sign-in form: a visible password field, or (an
    email-first sign-in) an email or username field under a "Sign in" heading or title."""
    fields = [e for e in screen.elements if e.visible and e.role in FIELD_ROLES]
    if any(e.input_type == "password" for e in fields):
        return True
    account = any(
        e.input_type == "email" or {"username", "email"} & set(e.autocomplete.split())
        for e in fields
    )
    titled = _LOGIN_WORDS.search(screen.title) or any(
        line.heading and _LOGIN_WORDS.search(line.text) for line in screen.lines
    )
    return account and bool(titled)


def wall_on(screen: Screen) -> str | None:
    """What only a person can get past on ``screen`` (see :func:`gofer.safety.human_wall`),
    with a login wall judged on :func:`blocking_text` only; a page that sent the person
    to a sign-in form ("/login?next=...") is a login wall too."""
    found = human_wall(screen.text, blocking_text(screen))
    if found is not None:
        return found
    path = urlsplit(screen.url)
    if (
        _signs_in(screen)
        and _RETURN_PARAMS.search("?" + path.query)
        and _LOGIN_WORDS.search(path.path.replace("/", " "))
    ):
        return LOGIN_WALL
    return None
