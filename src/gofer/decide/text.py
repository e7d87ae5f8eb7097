"""Text normalisation and word matching shared by the grounder and option matching.

Everything here is pure and cheap: the grounder calls :func:`text_score` once per
(query, element source) pair, so it avoids regexes in the hot path where a plain
string test will do.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import NamedTuple

from rapidfuzz import fuzz

__all__ = ["Amount", "amounts", "normalise", "stem_tokens", "symbol_words", "text_score"]

_NUMBER_SEP = re.compile(r"(?<=\d)[,\u00a0\u202f'](?=\d{3}\b)")
_KEEP_BETWEEN_DIGITS = frozenset({".", ":"})


@lru_cache(maxsize=8192)
def normalise(text: str) -> str:
    """Casefold ``text``, drop icons, emoji, accents and punctuation, collapse spaces.

    Digits are kept; thousands separators inside numbers are removed and a ``.``
    or ``:`` between digits is kept, so "₹4,599.50" becomes "4599.50" and "10:30"
    stays "10:30". Currency symbols are dropped here; :func:`amounts` reads them.
    Remembered for the latest texts: a page's texts come again in every snapshot.
    """
    if not text:
        return ""
    text = _NUMBER_SEP.sub("", text)
    out: list[str] = []
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    n = len(decomposed)
    for i, ch in enumerate(decomposed):
        if ch.isalnum():
            out.append(ch)
            continue
        if unicodedata.category(ch) in ("Mn", "Me"):
            continue  # accents left over from NFKD
        if (
            ch in _KEEP_BETWEEN_DIGITS
            and 0 < i < n - 1
            and decomposed[i - 1].isdigit()
            and decomposed[i + 1].isdigit()
        ):
            out.append(ch)
            continue
        out.append(" ")
    return " ".join("".join(out).split())


_SYMBOLS: dict[str, tuple[str, ...]] = {}
for _glyphs, _words in (
    ("+ ＋ ➕ ⊕", ("increase", "add", "plus", "more")),
    ("- − – — ➖ ⊖", ("decrease", "remove", "minus", "fewer", "less")),
    ("× ✕ ✖ ⨯ ⨉ ❌ ╳", ("close", "dismiss", "remove", "delete", "clear")),
    ("› » > → ⟩ ❯ ▶ ⯈ ⏵ ►", ("next", "forward", "go")),
    ("‹ « < ← ⟨ ❮ ◀ ⯇ ⏴ ◄", ("previous", "back", "prev")),
    ("… ⋯ ⋮ ⁝ ︙", ("more", "more options", "more actions", "menu")),
    ("☰ ≡ ⩸ 𝌆", ("menu", "navigation")),
    ("🔍 🔎 ⌕", ("search", "find")),
    ("🛒 🛍", ("cart", "basket", "bag")),
    ("♡ ♥ ❤ 🤍", ("favourite", "favorite", "wishlist", "like", "save")),
    ("✓ ✔ ☑", ("done", "confirm", "ok", "apply")),
    ("✎ ✏ 🖉 🖊", ("edit",)),
    ("🗑", ("delete", "remove", "trash")),
    ("⚙", ("settings", "options")),
    ("⟳ ↻ 🔄", ("refresh", "reload")),
):
    for _glyph in _glyphs.split():
        _SYMBOLS[_glyph] = _words


def symbol_words(text: str) -> tuple[str, ...]:
    """What a lone icon glyph means in words ("+" -> increase, add, ...), else ``()``.

    A control shown as one symbol ("+", "›", "×", "☰") has no words for
    :func:`normalise` to keep; people still name it by what it does.
    """
    raw = "".join(text.split()).replace("\ufe0f", "")
    if not raw or len(raw) > 2:
        return ()
    return _SYMBOLS.get(raw, ())


_AMOUNT = re.compile(
    r"(?P<cur>[$€£¥₹₩₽₺₪]|\b(?:USD|EUR|GBP|INR|JPY|AUD|CAD|CHF|Rs\.?))?\s?"
    r"(?P<num>\d{1,3}(?:[,\u00a0\u202f]\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:\s?(?P<cur2>[€£¥₹$]|USD|EUR|GBP|INR))?"
)


class Amount(NamedTuple):
    """A money amount found in a text: its currency sign or code, and its value."""

    currency: str
    value: Decimal


def amounts(text: str) -> tuple[Amount, ...]:
    """Every currency amount in ``text`` (numbers with a currency sign or code)."""
    found: list[Amount] = []
    for m in _AMOUNT.finditer(text):
        cur = m.group("cur") or m.group("cur2") or ""
        if not cur:
            continue
        raw = re.sub(r"[,\u00a0\u202f]", "", m.group("num"))
        try:
            value = Decimal(raw)
        except InvalidOperation:  # pragma: no cover - the regex only admits digits
            continue
        found.append(Amount(cur.rstrip(".").upper() if cur[0].isalpha() else cur, value))
    return tuple(found)


def stem_tokens(norm: str) -> frozenset[str]:
    """The words of a normalised text with a plural ``s`` dropped, for word-set tests."""
    return frozenset(_stem(t) for t in norm.split())


def _stem(token: str) -> str:
    if len(token) > 3 and token.endswith("s") and not token.endswith("ss"):
        return token[:-1]
    return token


def text_score(
    q: str, q_stems: frozenset[str], f: str, f_stems: frozenset[str]
) -> tuple[float, str]:
    """How well the normalised words ``q`` name a normalised text ``f``: (0..1, how).

    ``how`` is a short phrase for evidence: "exact", "starts with", "contains",
    "all words", "part of the words", or "fuzzy N". Exact beats a word prefix, which
    beats containment, which beats fuzzy similarity.
    """
    if not q or not f:
        return 0.0, ""
    if q == f:
        return 1.0, "exact"
    lq, lf = len(q), len(f)
    if lf > lq:
        ratio = lq / lf
        if f.startswith(q) and f[lq] == " ":
            return 0.78 + 0.12 * ratio, "starts with"
        if f.endswith(q) and f[-lq - 1] == " ":
            return 0.72 + 0.1 * ratio, "contains"
        if f" {q} " in f:
            return 0.70 + 0.1 * ratio, "contains"
    best = 0.0
    how = ""
    if q_stems and q_stems <= f_stems:
        best, how = 0.66 + 0.1 * len(q_stems) / max(len(f_stems), 1), "all words"
    elif lq > lf >= 2 and (q.startswith(f + " ") or q.endswith(" " + f) or f" {f} " in q):
        best, how = 0.40 + 0.3 * lf / lq, "part of the words"
    if max(lq, lf) <= 1.9 * min(lq, lf):
        r = max(
            fuzz.ratio(q, f, score_cutoff=70),
            fuzz.token_sort_ratio(q, f, score_cutoff=70),
        )
        if r:
            s = 0.85 * r / 100
            if s > best:
                best, how = s, f"fuzzy {round(r)}"
    f_words = f.split()
    n = q.count(" ") + 1
    if len(f_words) > n and best < 0.68:
        # A misspelt first word or two: "Mumbay" for "Mumbai (BOM)".
        r = fuzz.ratio(q, " ".join(f_words[:n]), score_cutoff=80)
        if r:
            best, how = 0.8 * r / 100, f"fuzzy {round(r)}"
    return best, how
