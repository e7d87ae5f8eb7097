"""How well an element answers a step's words: which of its names count for what the
step wants and by how much, the variants of the words tried (fillers dropped, common
aliases, a verb's base form), how well its role fits, and what its state costs."""

from __future__ import annotations

from gofer.decide.prepared import DATE_INPUTS, ElementInfo, Prepared
from gofer.decide.text import normalise, stem_tokens, symbol_words, text_score
from gofer.decide.types import Want
from gofer.surfaces.screen import Element

_SOURCE_WEIGHT = {
    "name": 1.0,
    "label": 1.0,
    "placeholder": 0.97,
    "text": 0.98,
    "title": 0.9,
    "group": 1.0,
    "nearby": 0.85,
    "column": 0.9,
    "symbol": 0.85,
    "glyph": 1.0,
}
_SOURCE_WORDS = {
    "name": "accessible name",
    "label": "label",
    "placeholder": "placeholder",
    "text": "text",
    "title": "title",
    "group": "group name",
    "nearby": "text beside it",
    "column": "its column's header",
    "symbol": "meaning of the icon",
    "glyph": "glyph",
}
SOURCES_FOR = {
    Want.CLICK: frozenset({"name", "label", "text", "title", "placeholder", "symbol", "glyph"}),
    Want.ACTION: frozenset({"name", "label", "text", "title", "symbol", "glyph"}),
    Want.FIELD: frozenset(
        {"name", "label", "placeholder", "text", "title", "group", "nearby", "column"}
    ),
    Want.CONTROL: frozenset(
        {"name", "label", "placeholder", "text", "title", "group", "nearby", "column"}
    ),
    Want.OPTION: frozenset({"name", "label", "text", "title", "symbol", "glyph"}),
}
_PRESS = {
    "button": 1.0,
    "link": 1.0,
    "clickable": 1.0,
    "menuitem": 1.0,
    "menuitemradio": 1.0,
    "menuitemcheckbox": 1.0,
}
_FIT = {
    Want.CLICK: {
        **_PRESS,
        "tab": 1.0,
        "treeitem": 0.95,
        "switch": 0.95,
        "checkbox": 0.9,
        "radio": 0.9,
        "gridcell": 0.9,
        "option": 0.85,
        "row": 0.7,
        "combobox": 0.6,
        "listbox": 0.5,
    },
    Want.ACTION: {**_PRESS, "tab": 0.7, "checkbox": 0.5, "option": 0.5},
    Want.FIELD: {
        "textbox": 1.0,
        "searchbox": 1.0,
        "combobox": 1.0,
        "spinbutton": 1.0,
        "slider": 0.9,
        "listbox": 0.5,
    },
    Want.CONTROL: {
        "combobox": 1.0,
        "slider": 1.0,
        "listbox": 1.0,
        "radiogroup": 1.0,
        "tablist": 1.0,
        "textbox": 0.9,
        "searchbox": 0.9,
        "spinbutton": 0.9,
        "radio": 0.85,
        "checkbox": 0.9,
        "switch": 0.9,
        "tab": 0.8,
        "grid": 1.0,
        "gridcell": 0.6,
        "button": 0.8,
        "clickable": 0.75,
        "link": 0.5,
        "option": 0.4,
    },
    Want.OPTION: {
        "option": 1.0,
        "radio": 1.0,
        "checkbox": 1.0,
        "tab": 1.0,
        "gridcell": 1.0,
        "menuitem": 1.0,
        "menuitemradio": 1.0,
        "menuitemcheckbox": 1.0,
        "switch": 1.0,
        "treeitem": 1.0,
        "button": 0.8,
        "clickable": 0.8,
        "link": 0.75,
        "row": 0.6,
        "combobox": 0.3,
        "listbox": 0.3,
    },
}
_DEFAULT_FIT = {
    Want.CLICK: 0.5,
    Want.ACTION: 0.4,
    Want.FIELD: 0.3,
    Want.CONTROL: 0.4,
    Want.OPTION: 0.4,
}
_LABELLED_TOGGLES = frozenset({"radio", "checkbox", "switch"})
_ALIAS_SETS = (
    ("expiry date", "expiry", "expiration date", "exp date", "mm yy", "mm yyyy", "valid thru"),
    ("cvv", "cvc", "cvv2", "security code", "card security code"),
    ("phone", "phone number", "mobile", "mobile number", "telephone", "contact number"),
    ("zip", "zip code", "postcode", "post code", "postal code", "pin code", "pincode"),
    ("email", "email address", "e mail", "e mail address"),
    ("card number", "card no", "credit card number", "debit card number"),
    ("name on card", "cardholder name", "card holder name", "cardholder"),
    ("sign in", "log in", "login", "sign on"),
    ("sign up", "register", "create account", "create an account"),
)
_ALIASES: dict[str, tuple[str, ...]] = {
    word: tuple(other for other in group if other != word)
    for group in _ALIAS_SETS
    for word in group
}
"""Words that name the same common control: tried after the words themselves, at 0.9."""
_FILLER_HEAD = ("the ", "a ", "an ")
_FILLER_TAIL = (
    " button",
    " link",
    " field",
    " box",
    " tab",
    " checkbox",
    " dropdown",
    " menu",
    " option",
    " icon",
    " input",
)


def variants(words: str) -> tuple[tuple[str, frozenset[str], float], ...]:
    q = normalise(words)
    if not q:
        # Words that are only an icon ("+", "×", "=") name the control that shows that
        # glyph, then one named by what it does.
        glyph = words.strip()
        meanings = tuple((w, stem_tokens(w), 0.9) for w in symbol_words(words))
        return ((glyph, frozenset({glyph}), 1.0), *meanings) if glyph else meanings
    out = [(q, stem_tokens(q), 1.0)]
    stripped = q
    for head in _FILLER_HEAD:
        if stripped.startswith(head) and len(stripped) > len(head):
            stripped = stripped[len(head) :]
    for tail in _FILLER_TAIL:
        if stripped.endswith(tail) and len(stripped) > len(tail):
            stripped = stripped[: -len(tail)]
    if stripped != q:
        out.append((stripped, stem_tokens(stripped), 0.97))
    for alias in _ALIASES.get(stripped, ()):
        out.append((alias, stem_tokens(alias), 0.9))
    return tuple(out)


_ARTICLES = frozenset({"the", "a", "an", "this", "that", "my", "our", "your", "its"})


def verb_variants(q: str, prep: Prepared) -> tuple[tuple[str, frozenset[str], float], ...]:
    """Words of an action that lead with a verb form ("publishing the post", "approving
    it") name the control by the verb itself ("Publish", "Approve"): the verb's base
    form as the screen spells it, with what follows it, with what follows its object
    ("pinning the thread globally": "Pin globally") and alone."""
    tokens = q.split()
    if not tokens or len(tokens[0]) < 6 or not tokens[0].endswith("ing"):
        return ()
    stem = tokens[0][:-3]
    bases = [stem, stem + "e"]
    if len(stem) > 2 and stem[-1] == stem[-2]:
        bases.append(stem[:-1])  # "pinning" -> "pin"
    shown = {token for info in prep.elements for src in info.sources for token in src.norm.split()}
    rest = [t for t in tokens[1:] if t not in _ARTICLES]
    out: list[tuple[str, frozenset[str], float]] = []
    for base in bases:
        if base not in shown:
            continue
        for tail in (rest, rest[1:]):
            if tail:
                phrase = " ".join((base, *tail))
                out.append((phrase, stem_tokens(phrase), 0.97))
        out.append((base, stem_tokens(base), 0.92 if rest else 0.95))
    return tuple(out)


def best_match(
    info: ElementInfo,
    variants: tuple[tuple[str, frozenset[str], float], ...],
    sources: frozenset[str],
) -> tuple[float, str]:
    best = 0.0
    note = ""
    for src in info.sources:
        if src.field not in sources:
            continue
        weight = _SOURCE_WEIGHT[src.field]
        for q, stems, factor in variants:
            s, how = text_score(q, stems, src.norm, src.stems)
            s *= weight * factor
            if s > best:
                best = s
                note = f"{_how_words(how)} {_SOURCE_WORDS[src.field]}"
    return best, note


def _how_words(how: str) -> str:
    if how.startswith("fuzzy"):
        return f"{how} on"
    return {
        "exact": "exact",
        "starts with": "words start the",
        "contains": "words inside the",
        "all words": "all words in the",
        "part of the words": "part of the words is the",
    }[how]


def fit(want: Want, info: ElementInfo, how_field: str) -> tuple[float, str]:
    el = info.element
    role = el.role
    if want is Want.FIELD and info.is_field:
        return 1.0, f"role fits ({role})"
    if want is Want.CONTROL:
        if el.tag == "select" or el.options or el.input_type in DATE_INPUTS:
            return 1.0, f"role fits ({role})"
        if how_field.endswith("group name"):
            return 1.0, f"{role} group fits"
        if role in ("button", "clickable") and el.expanded is not None:
            return 0.95, "opens a popup"
    if want is Want.OPTION and role in ("button", "clickable") and el.group:
        return 0.95, f"role fits ({role} in a list)"
    fit = _FIT[want].get(role)
    if fit is None:
        fit = 0.45 if info.is_field else _DEFAULT_FIT[want]
    if fit >= 0.9:
        return fit, f"role fits ({role})"
    return fit, f"role is a poor fit ({role})"


def state(want: Want, el: Element, evidence: list[str]) -> float:
    factor = 1.0
    if (not el.visible or not el.on_top) and el.role in _LABELLED_TOGGLES and el.label:
        # A styled radio or checkbox hides its input behind a label that takes the click.
        evidence.append("styled: reached through its label")
        return 0.95 * (0.6 if el.disabled else 1.0)
    if not el.visible:
        factor *= 0.3
        evidence.append("hidden")
    if el.disabled:
        factor *= 0.6 if want in (Want.CLICK, Want.ACTION) else 0.5
        evidence.append("disabled")
    if not el.on_top:
        factor *= 0.8
        evidence.append("covered by a popup")
    return factor
