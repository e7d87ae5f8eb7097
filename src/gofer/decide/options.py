"""Picking among options: native select options, suggestions, and calendar day cells."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

from gofer.decide.text import normalise, stem_tokens, text_score
from gofer.decide.when import MONTHS, date_parts
from gofer.surfaces.screen import Element

__all__ = ["OPTION_MIN", "match_date_cell", "match_option", "says_off", "tick_state"]

OPTION_MIN = 0.5
"""Below this score no option is taken to match the words."""
# An option list is a closed set of names: a near spelling picks one only when it is
# very near ("Berln" for "Berlin", "Mumbay" for "Mumbai"); "Narnia" is not "Armenia".
_FUZZY_MIN = 80

_SORT_MEANINGS: tuple[tuple[str, tuple[tuple[str, ...], ...]], ...] = (
    (
        "price up",
        (
            ("lowest", "price"),
            ("price", "lowest"),
            ("cheapest",),
            ("low", "price"),
            ("price", "low", "high"),
            ("low", "to", "high"),
            ("price", "ascending"),
            ("lowest", "fare"),
            ("cheapest", "first"),
        ),
    ),
    (
        "price down",
        (
            ("highest", "price"),
            ("price", "highest"),
            ("most", "expensive"),
            ("price", "high", "low"),
            ("high", "to", "low"),
            ("price", "descending"),
        ),
    ),
    (
        "earliest",
        (("earliest",), ("departure", "earliest"), ("early", "departure"), ("departure", "time")),
    ),
    ("shortest", (("shortest",), ("fastest",), ("duration",), ("quickest",))),
    ("newest", (("newest",), ("latest",), ("most", "recent"), ("date", "new", "old"))),
    (
        "rating",
        (
            ("best", "rated"),
            ("highest", "rated"),
            ("top", "rated"),
            ("rating",),
            ("customer", "rating"),
        ),
    ),
    (
        "relevance",
        (("relevance",), ("recommended",), ("best", "match"), ("featured",), ("most", "relevant")),
    ),
)


_OFF = frozenset(
    {
        "no",
        "off",
        "false",
        "unticked",
        "unchecked",
        "untick",
        "uncheck",
        "unselected",
        "cleared",
        "not ticked",
        "not checked",
        "not selected",
    }
)


def says_off(words: str, label: str) -> bool:
    """Whether a checkbox's option words ask for it unticked: "off", "no", "unticked",
    or its own label negated ("not Is Active", "no Newsletter")."""
    norm = normalise(words)
    if norm == normalise(label):
        return False
    if norm in _OFF:
        return True
    head, _, rest = norm.partition(" ")
    return head in ("not", "no", "un") and bool(rest) and rest == normalise(label)


_ON = frozenset(
    {"yes", "on", "true", "ticked", "checked", "tick", "check", "selected", "select", "set"}
)


def tick_state(words: str, label: str) -> bool | None:
    """The state a choose's option words ask of a checkbox or switch labelled ``label``:
    True for "ticked", "on", "yes" or the label itself, False for "unticked", "off", "no"
    or the label negated, None when the words name neither it nor a state."""
    if says_off(words, label):
        return False
    norm = normalise(words)
    if norm in _ON or (norm and match_option(words, [label]) is not None):
        return True
    return None


def _in_order(phrase: tuple[str, ...], words: list[str]) -> bool:
    it = iter(words)
    return all(any(w == p for w in it) for p in phrase)


def _meaning(norm: str) -> str | None:
    """The sort order a short phrase means, when it is one of the common ones."""
    words = norm.split()
    best: tuple[int, str] | None = None
    for key, phrasings in _SORT_MEANINGS:
        for p in phrasings:
            if (
                len(words) <= len(p) + 2
                and _in_order(p, words)
                and (best is None or len(p) > best[0])
            ):
                best = (len(p), key)
    return best[1] if best else None


def match_option(words: str, options: Sequence[str]) -> tuple[int, float] | None:
    """The option ``words`` pick, as (index, score 0..1), or ``None`` when none fits.

    Exact (normalised) text wins; then an option that starts with the words ("Delhi"
    picks "Delhi (DEL) Indira Gandhi International"), contains them, holds all of
    them, or means the same common sort order ("Lowest price" picks "Price: low to
    high"); then fuzzy similarity. Ties go to the first option.
    """
    q = normalise(words)
    if not q:
        return None
    q_stems = stem_tokens(q)
    q_meaning = _meaning(q)
    best: tuple[int, float] | None = None
    for i, option in enumerate(options):
        f = normalise(option)
        f_stems = stem_tokens(f)
        score, how = text_score(q, q_stems, f, f_stems)
        if how.startswith("fuzzy ") and int(how.removeprefix("fuzzy ")) < _FUZZY_MIN:
            score = 0.0
        if q_meaning is not None and score < 0.9 and _meaning(f) == q_meaning:
            score = 0.9
        if score >= OPTION_MIN and (best is None or score > best[1]):
            best = (i, score)
    return best


def match_date_cell(day: date, elements: Iterable[Element]) -> Element | None:
    """The calendar cell for ``day`` among ``elements``, or ``None``.

    A cell names its date in its accessible name, label, title or text ("Wednesday,
    14 October 2026", "14 Oct 2026", "2026-10-14"). A cell that shows only "14" is
    placed by the month and year in its grid's name (``group``) or ``section``
    ("October 2026"). With no month anywhere, a lone "14" is taken when it is the
    only one; when several show it, the cells are read as the grids of consecutive
    months a calendar lays out (each day running 1, 2, ... 28-31 in reading order),
    and the one in the first whole month is taken: the month a calendar shows first.
    Enabled, visible cells are preferred.
    """
    elements = list(elements)
    exact: list[Element] = []
    same_month: list[Element] = []
    unplaced: list[Element] = []
    for el in elements:
        placed = _cell_date(el)
        if placed is None or placed[0] != day.day:
            continue
        _d, month, year = placed
        if month is None:
            unplaced.append(el)
        elif month == day.month and year == day.year:
            exact.append(el)
        elif month == day.month and year is None:
            same_month.append(el)
    for pool in (exact, same_month):
        if pool:
            usable = [e for e in pool if e.visible and not e.disabled]
            return (usable or pool)[0]
    if len(unplaced) == 1:
        return unplaced[0]
    return _in_first_month(day.day, elements) if unplaced else None


def _in_first_month(day: int, elements: list[Element]) -> Element | None:
    """The cell showing ``day`` in the first whole month of bare day numbers, or None.

    Bare numbers in reading order form runs that go up by one; a run from 1 to 28 or
    more is a month's grid. A run that does not start at 1 (the days before the first
    of the month) or stops short (pagination, the next month's first days) is not.
    """
    run: list[tuple[int, Element]] = []
    numbered = [(_bare_day(el), el) for el in elements]
    for number, el in [*numbered, (None, None)]:
        if number is not None and el is not None and run and number == run[-1][0] + 1:
            run.append((number, el))
            continue
        if run and run[0][0] == 1 and run[-1][0] >= 28:
            return next((cell for n, cell in run if n == day), None)
        run = [(number, el)] if number is not None and el is not None else []
    return None


def _bare_day(el: Element) -> int | None:
    """The day number a cell shows when it shows nothing else ("14"), else None."""
    raw = normalise(el.name or el.text)
    if raw.isdigit() and len(raw) <= 2 and 1 <= int(raw) <= 31:
        return int(raw)
    return None


_MONTH_GRID = 20  # day cells naming one month that make a calendar's grid of it


def cells_month(elements: Iterable[Element]) -> tuple[int, int] | None:
    """(year, month) of the grid a calendar's day cells show when the cells name whole
    dates ("October 14, 2026"): the month most of them name, once a grid's worth do.
    What the days say beats a month or year control that was typed into but not taken."""
    counts: dict[tuple[int, int], int] = {}
    for el in elements:
        for raw in (el.name, el.label, el.title):
            if not raw:
                continue
            d, m, y = date_parts(raw)
            if d is not None and m is not None and y is not None:
                counts[(y, m)] = counts.get((y, m), 0) + 1
                break
    if not counts:
        return None
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] >= _MONTH_GRID else None


def _cell_date(el: Element) -> tuple[int, int | None, int | None] | None:
    """(day, month, year) a cell stands for, or ``None`` when it names no day."""
    for raw in (el.name, el.label, el.title, el.text):
        if not raw:
            continue
        d, m, y = date_parts(raw)
        if d is None:
            continue
        if m is not None:
            return d, m, y
        if normalise(raw) != str(d):
            continue  # a number among other words is not a day cell
        for ctx in (el.group, el.section):
            cm, cy = _month_context(ctx)
            if cm is not None:
                return d, cm, cy
        return d, None, None
    return None


def _month_context(text: str) -> tuple[int | None, int | None]:
    if not text:
        return None, None
    tokens = normalise(text).split()
    month = next((MONTHS[t] for t in tokens if t in MONTHS), None)
    year = next((int(t) for t in tokens if len(t) == 4 and t.isdigit()), None)
    return month, year
