"""The deterministic grounder: which one element a step's words mean on a screen.

Each element is scored by how well the words name it (exact, then word prefix,
containment, all words, fuzzy similarity), times how well its role fits what the
step wants, times its state (hidden, disabled, covered), and for a ``within`` that
names a place, times its nearness. A ``within`` that names a record, section or
group excludes everything outside it. Words that name a kind of control ("the
second text field", "the list", "tabs") and label no element are grounded by kind
(``decide.kinds``), and a ``choose`` whose ``in`` words match nothing takes the one
group on the screen holding its option. When the best score is weak or the runner-up
is too close, the answer is marked ``low_confidence`` with the candidates, so the
caller can ask a model decider only then.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gofer.decide import scoring
from gofer.decide.hints import hint_for, hint_names
from gofer.decide.kinds import (
    TOGGLE_ROLES,
    KindPhrase,
    KindPick,
    ground_kind,
    holding_group,
    kind_phrase,
)
from gofer.decide.options import tick_state
from gofer.decide.prepared import Prepared, box_distance, prepare
from gofer.decide.regions import Region, caption_field, resolve_regions
from gofer.decide.text import normalise
from gofer.decide.types import GroundingHint, Query, Want
from gofer.surfaces.screen import Box, Element, Screen

__all__ = [
    "CLOSE_MARGIN",
    "HINT_FLOOR",
    "MAX_CANDIDATES",
    "WEAK",
    "Candidate",
    "Grounding",
    "Query",
    "Want",
    "describe",
    "ground",
]

WEAK = 0.55
"""A best score below this is too weak to act on without a second opinion."""

CLOSE_MARGIN = 0.08
"""A runner-up within this of the best score makes the choice a coin toss."""

HINT_FLOOR = 0.9
"""The least confidence a remembered element gets when it is present and usable."""

MAX_CANDIDATES = 5
"""How many ranked candidates a :class:`Grounding` carries."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One element that might be meant, with its score and the reasons for it."""

    element: Element
    score: float
    evidence: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Grounding:
    """The grounder's answer: the element to act on (or none), and how sure it is."""

    element: Element | None
    confidence: float
    evidence: tuple[str, ...]
    candidates: tuple[Candidate, ...]
    low_confidence: bool
    reason: str = ""
    region_missing: bool = False
    """The ``within`` words named no place on the screen: the pick ignored them."""


def ground(query: Query, screen: Screen, hints: Sequence[GroundingHint] = ()) -> Grounding:
    """Choose the one element ``query`` means on ``screen``.

    ``hints`` are remembered resolutions; one for this site, step kind and words
    puts its element first when that element is present, usable (visible, enabled,
    not covered by a popup), and inside the ``within`` region. The answer carries up
    to :data:`MAX_CANDIDATES` ranked candidates, and ``low_confidence`` with a plain
    ``reason`` when the best is weaker than :data:`WEAK` or a runner-up is within
    :data:`CLOSE_MARGIN`. ``within`` words that name several places are tried in
    turn (see :func:`~gofer.decide.regions.resolve_regions`): the first reading
    whose best match is usable and not under a popup is taken.
    """
    prep = prepare(screen)
    found = _ground_words(query, prep, hints)
    if query.want in (Want.OPTION, Want.ACTION):
        return found
    phrase = kind_phrase(query.words, query.want)
    if phrase is not None and not _named_outright(found, phrase):
        region, missing = _first_region(query, screen)
        pick = ground_kind(
            phrase, prep, region, option=query.option, want=query.want, exclude=query.exclude
        )
        if pick.element is not None:
            return _picked(pick, query, missing)
        if found.element is None:
            return Grounding(None, 0.0, (), (), True, pick.reason)
    toggle = _toggle_named(query, prep, found)
    if toggle is not None:
        return toggle
    captioned = _captioned(query, prep, found) or _submitted_by(query, prep, found)
    if captioned is not None:
        return captioned
    if (
        query.want is Want.CONTROL
        and query.option
        and (found.element is None or found.confidence < WEAK)
    ):
        region, missing = _first_region(query, screen)
        held = holding_group(query.option, prep, region, query.exclude)
        if held is not None:
            return _picked(held, query, missing)
    return found


_CAPTION_BEATS = 0.85
"""A control named less well than this gives way to the field a caption line names."""


def _captioned(query: Query, prep: Prepared, found: Grounding) -> Grounding | None:
    """The option's group inside the field whose caption line reads the ``in`` words
    ("Replies:" over its own Yes and No, among other Yes/No pairs of one fieldset),
    when no control is named by them outright."""
    if query.want is not Want.CONTROL or not query.option or query.within:
        return None
    if found.element is not None and found.confidence >= _CAPTION_BEATS:
        return None
    field = caption_field(query.words, prep.screen)
    if field is None:
        return None
    held = holding_group(query.option, prep, field, query.exclude)
    if held is not None:
        return _picked(held, query, False)
    # Else the one closed dropdown under the caption, which shows its options once open:
    # failing a control that says so, the box right under the caption that takes a click
    # (a select drawn as a focusable div showing its placeholder or its chips).
    inside = [e for e in prep.screen.elements if field.contains(e) and e.ref not in query.exclude]
    shut = [e for e in inside if _shut(e)] or sorted(
        (e for e in inside if _drawn_select(e, prep.screen)), key=lambda e: (e.box.y, e.box.x)
    )[:1]
    why = (f"the one closed dropdown in the field '{query.words}'",)
    top = Candidate(shut[0], _CAPTION_BEATS, why) if len(shut) == 1 else None
    return Grounding(top.element, top.score, why, (top,), False) if top else None


def _toggle_named(query: Query, prep: Prepared, found: Grounding) -> Grounding | None:
    """The one checkbox or switch the ``in`` words name exactly, when the option words
    ask a state of it ("yes", "ticked", "off") and the pick is the list around it (a
    checklist of one, drawn as a listbox of options)."""
    el = found.element
    if query.want is not Want.CONTROL or not query.option or el is None or query.within:
        return None
    if el.role in TOGGLE_ROLES or tick_state(query.option, query.words) is None:
        return None
    words = normalise(query.words)
    named = [
        e
        for e in prep.screen.elements
        if e.role in TOGGLE_ROLES
        and e.visible
        and e.ref not in query.exclude
        and normalise(e.display_name) == words
    ]
    if len(named) != 1:
        return None
    why = (f"the one checkbox named '{query.words}'",)
    top = Candidate(named[0], max(found.confidence, WEAK), why)
    return Grounding(top.element, top.score, why, (top,), False)


def _drawn_select(el: Element, screen: Screen) -> bool:
    """A box that takes a click, drawn as wide and as tall as a field (not a day of a
    calendar or a chip), showing words of its own and holding no field to type in: a
    select drawn without a role."""
    return (
        el.role == "clickable"
        and el.visible
        and el.on_top
        and el.box.width >= 120
        and 20 <= el.box.height <= 80
        and bool(el.name or el.text)
        and not any(
            o.ref != el.ref and o.role in _TYPED and el.box.contains(o.box) for o in screen.elements
        )
    )


_TYPED = frozenset({"textbox", "combobox", "searchbox", "spinbutton"})


def _shut(el: Element) -> bool:
    return el.visible and (el.role == "combobox" or el.expanded is False)


_SUBMIT_GAP = 40.0
"""How far (px) a button may stand right of the field it submits, on the same line."""

_SUBMITTED_CONFIDENCE = 0.8
"""An exactly named button's one unlabelled field beside it is what the words mean."""


def _submitted_by(query: Query, prep: Prepared, found: Grounding) -> Grounding | None:
    """The field a button named by the words submits, when a field was asked for.

    A search form draws one unlabelled box (its placeholder lists what it searches)
    beside its "Search" button: the words name the button, and the field they mean is
    the one the button stands right beside on its line, with nothing between them.
    """
    button = found.element
    if query.want is not Want.FIELD or button is None or button.role != "button":
        return None
    if not found.evidence or not found.evidence[0].startswith("exact"):
        return None
    b = button.box
    line = [
        info
        for info in prep.elements
        if info.element.visible
        and info.element.ref != button.ref
        and abs((info.element.box.y + info.element.box.height / 2) - (b.y + b.height / 2))
        <= b.height / 2
        and info.element.box.x + info.element.box.width <= b.x + 1
    ]
    if not line:
        return None
    beside = max(line, key=lambda info: info.element.box.x + info.element.box.width)
    field = beside.element
    gap = b.x - (field.box.x + field.box.width)
    if not beside.is_field or field.label or field.disabled or gap > _SUBMIT_GAP:
        return None
    evidence = (f"the field its button '{button.name}' submits",)
    top = Candidate(field, _SUBMITTED_CONFIDENCE, evidence)
    return Grounding(field, _SUBMITTED_CONFIDENCE, evidence, (top, *found.candidates), False)


def _named_outright(found: Grounding, phrase: KindPhrase) -> bool:
    """Whether an element is labelled with the words themselves, so they are not a kind.

    Words that are only a kind ("the list", "tabs") give way to an exact label alone;
    a kind with other words ("the Country dropdown") to any strong match.
    """
    if found.element is None or not found.evidence:
        return False
    exact = found.evidence[0].startswith("exact")
    if phrase.rest and phrase.ordinal is None:
        return exact or found.confidence >= 0.85
    return exact


def _first_region(query: Query, screen: Screen) -> tuple[Region | None, bool]:
    """The first place the ``within`` words name, and whether they named none."""
    if not (query.within and query.within.strip()):
        return None, False
    regions = resolve_regions(query.within, screen)
    return (regions[0], False) if regions else (None, True)


def _picked(pick: KindPick, query: Query, region_missing: bool) -> Grounding:
    """A :class:`KindPick` as the grounder's answer."""
    assert pick.element is not None
    top = Candidate(pick.element, round(pick.confidence, 4), pick.evidence)
    others = tuple(
        Candidate(el, round(score, 4), evidence)
        for el, score, evidence in pick.others
        if el.ref != pick.element.ref
    )
    low, reason = pick.low, pick.reason
    if region_missing:
        low = True
        reason = f"could not find '{query.within}' on the screen" + (
            f"; {reason}" if reason else ""
        )
    return Grounding(
        pick.element,
        top.score,
        top.evidence,
        (top, *others)[:MAX_CANDIDATES],
        low,
        reason,
        region_missing,
    )


def _ground_words(query: Query, prep: Prepared, hints: Sequence[GroundingHint]) -> Grounding:
    """The element whose own words (name, label, text...) best name ``query``'s words."""
    screen = prep.screen
    variants = scoring.variants(query.words)
    if query.want is Want.ACTION:
        variants += scoring.verb_variants(variants[0][0], prep)
    regions: tuple[Region | None, ...] = (None,)
    region_missing = False
    if query.within and query.within.strip():
        found = resolve_regions(query.within, screen)
        region_missing = not found
        regions = found or (None,)
    hint = hint_for(query, screen, hints) if hints else None
    if hint is not None and sum(hint_names(hint, el, screen) for el in screen.elements) > 1:
        hint = None  # it names several controls alike: it no longer tells which

    # The within words may name several places: take the first reading that holds a
    # usable match, preferring one a person can reach (not under a popup).
    chosen: list[tuple[bool, float, int, Candidate]] = []
    region = regions[0]
    rank_best = -1
    named_record = next((p for p in regions if p is not None and p.kind == "record"), None)
    for place in regions:
        scored = _score(query, prep, variants, place, region_missing, hint)
        if named_record is not None and place is not named_record:
            # The words name a record: a control of another record like it (the next
            # row's "Edit") is never what they mean, whatever reading finds it.
            scored = [s for s in scored if not _in_other_record(s[3].element, named_record, screen)]
        if not scored:
            continue
        lead = max(scored, key=lambda s: (s[0], s[1]))
        el = lead[3].element
        rank = 2 if lead[1] >= WEAK and el.on_top and el.visible else 1 if lead[1] >= WEAK else 0
        if rank > rank_best:
            chosen, region, rank_best = scored, place, rank
        if rank == 2:
            break
    scored = chosen
    scored.sort(key=lambda s: (not s[0], -s[1], s[2]))
    candidates = tuple(s[3] for s in scored[:MAX_CANDIDATES])
    if not scored:
        where = f" inside {region.describe}" if region is not None and region.kind != "near" else ""
        return Grounding(
            None, 0.0, (), (), True, f"no control on the screen{where} matches '{query.words}'"
        )
    settled = _break_tie(query, scored, prep)
    if settled:
        candidates = tuple(s[3] for s in scored[:MAX_CANDIDATES])
    best = scored[0]
    top = best[3]
    low = False
    reason = ""
    if settled:
        top = Candidate(top.element, top.score, (*top.evidence, settled))
    elif len(scored) > 1 and scored[1][0] == best[0] and scored[1][1] >= best[1] - CLOSE_MARGIN:
        low = True
        second = scored[1][3]
        how = "equally" if abs(scored[1][1] - best[1]) < 1e-9 else "almost equally"
        reason = (
            f"two controls match '{query.words}' {how}: {describe(top.element)} and "
            f"{describe(second.element)}; took the first"
        )
    elif best[1] < WEAK:
        low = True
        reason = (
            f"the best match for '{query.words}' is weak ({top.score:.2f}): {describe(top.element)}"
        )
    if region_missing:
        low = True
        reason = f"could not find '{query.within}' on the screen" + (
            f"; {reason}" if reason else ""
        )
    return Grounding(top.element, top.score, top.evidence, candidates, low, reason, region_missing)


def _in_other_record(el: Element, named: Region, screen: Screen) -> bool:
    """Whether ``el`` belongs to a record of the same list as ``named`` but not to it."""
    if named.record is None:
        return False
    g, r = named.record
    if el.record is not None and el.record[0] == g:
        return el.record[1] != r
    return any(
        i != r and rec.box.width > 0 and rec.box.height > 0 and rec.box.contains(el.box)
        for i, rec in enumerate(screen.records[g].records)
    )


_NEARER_PX = 24.0
"""How much nearer to the ``within`` words one of two equal candidates must be to win."""


def _break_tie(
    query: Query, scored: list[tuple[bool, float, int, Candidate]], prep: Prepared
) -> str:
    """Settle equal best candidates, reordering ``scored``; the evidence that did, or "".

    Between candidates the words name equally, one that shows the words in their
    exact case ("Save" for "Save", not "SAVE") wins; then the one in a menu that is
    open (words asked after opening a menu mean its items); then the one whose own
    record shows the ``within`` words; then the one nearer to them on the screen.
    """
    if len(scored) < 2:
        return ""
    best = scored[0]
    tied = [s for s in scored if s[0] == best[0] and abs(s[1] - best[1]) < 1e-9]
    if len(tied) < 2:
        return ""
    words = query.words.strip()
    exact = [s for s in tied if words and words in _raw_names(s[3].element)]
    if exact and len(exact) < len(tied):
        if len(exact) == 1:
            _to_front(scored, exact[0])
            return "shows the words in their exact case"
        tied = exact
    opened = _open_menu(prep)
    inside = [s for s in tied if s[3].element.ref in opened]
    if len(inside) == 1:
        _to_front(scored, inside[0])
        return "in the menu that is open"
    if query.within:
        own = [s for s in tied if _record_shows(prep.screen, s[3].element, query.within)]
        if len(own) == 1:
            _to_front(scored, own[0])
            return f"its own record shows '{query.within}'"
    anchors = _anchors(query.within, prep) if query.within else ()
    if anchors:
        ranked = sorted(tied, key=lambda s: min(box_distance(a, s[3].element.box) for a in anchors))
        near = [min(box_distance(a, s[3].element.box) for a in anchors) for s in ranked[:2]]
        if near[1] - near[0] >= _NEARER_PX:
            _to_front(scored, ranked[0])
            return f"nearest to '{query.within}'"
        # Tight rows (chips, each "English ×" beside "German ×"): a control goes with
        # the words nearest it, so the one whose nearest words are the within words wins.
        lines = [ln.box for ln in prep.screen.lines if ln.box.width > 0 and ln.box.height > 0]
        owned = [s for s in tied if _nearest_is(s[3].element.box, anchors, lines)]
        if len(owned) == 1:
            _to_front(scored, owned[0])
            return f"beside '{query.within}'"
    return ""


def _open_menu(prep: Prepared) -> frozenset[str]:
    """The controls of the menus an expanded control holds open: the run of elements
    that follow it in the page's order and hang below it, overlapping its width."""
    refs: set[str] = set()
    infos = prep.elements
    for i, info in enumerate(infos):
        opener = info.element
        if not opener.expanded or not opener.visible:
            continue
        top = opener.box.y + opener.box.height - 2
        left, right = opener.box.x, opener.box.x + opener.box.width
        for follower in infos[i + 1 :]:
            box = follower.element.box
            if box.y < top or box.x >= right or box.x + box.width <= left:
                break
            refs.add(follower.element.ref)
    return frozenset(refs)


def _nearest_is(box: Box, anchors: tuple[Box, ...], lines: list[Box]) -> bool:
    """Whether the words nearest ``box`` on the screen are one of ``anchors``."""
    to_anchor = min(box_distance(a, box) for a in anchors)
    return all(to_anchor < box_distance(line, box) for line in lines if line not in anchors)


def _record_shows(screen: Screen, el: Element, within: str) -> bool:
    """Whether the record ``el`` belongs to shows the ``within`` words (a chip's × in
    the chip that says "German", not in the chip beside it)."""
    if el.record is None:
        return False
    group, index = el.record
    if group >= len(screen.records) or index >= len(screen.records[group].records):
        return False
    words = normalise(within.split(":", 1)[0])
    shown = normalise(screen.records[group].records[index].text)
    return bool(words) and f" {words} " in f" {shown} "


def _raw_names(el: Element) -> tuple[str, ...]:
    return tuple(w.strip() for w in (el.name, el.label, el.text, el.placeholder, el.title) if w)


def _to_front(
    scored: list[tuple[bool, float, int, Candidate]], item: tuple[bool, float, int, Candidate]
) -> None:
    scored.remove(item)
    scored.insert(0, item)


def _anchors(within: str, prep: Prepared) -> tuple[Box, ...]:
    """The boxes of the text lines that show the ``within`` words."""
    words = normalise(within.split(":", 1)[0])
    if not words:
        return ()
    padded = f" {words} "
    shown = [
        (line.box, norm)
        for line, norm in zip(prep.screen.lines, prep.line_norms, strict=True)
        if line.box.width > 0 and line.box.height > 0
    ]
    exact = tuple(box for box, norm in shown if norm == words)
    return exact or tuple(box for box, norm in shown if padded in f" {norm} ")


def _score(
    query: Query,
    prep: Prepared,
    variants: tuple[tuple[str, frozenset[str], float], ...],
    region: Region | None,
    region_missing: bool,
    hint: GroundingHint | None,
) -> list[tuple[bool, float, int, Candidate]]:
    """Every element that may be meant inside ``region``: (hinted, score, index, candidate)."""
    scored: list[tuple[bool, float, int, Candidate]] = []
    seen_groups: set[str] = set()
    sources = scoring.SOURCES_FOR[query.want]
    for info in prep.elements:
        el = info.element
        if el.ref in query.exclude:
            continue
        evidence: list[str] = []
        if region is not None and region.kind != "near":
            if not region.contains(el):
                continue
            evidence.append(f"inside {region.describe}")
        match, how_field = scoring.best_match(info, variants, sources)
        fit, fit_note = scoring.fit(query.want, info, how_field)
        hinted = (
            hint is not None
            and hint_names(hint, el, prep.screen)
            and el.visible
            and el.on_top  # under a popup, a remembered element is no surer than any other
            and not el.disabled
            and fit >= 0.75
        )
        if match <= 0.0 and not hinted:
            continue
        if how_field.endswith("group name") and query.want is Want.CONTROL:
            if el.group in seen_groups:
                continue
            seen_groups.add(el.group)
        score = match * fit
        evidence.insert(0, how_field)
        evidence.append(fit_note)
        score *= scoring.state(query.want, el, evidence)
        if region is not None and region.kind == "near":
            near = region.nearness(el)
            score *= near
            evidence.append(f"{region.describe} ({near:.2f})")
        if region_missing:
            evidence.append(f"could not find '{query.within}' on the screen")
        if hinted:
            score = max(score, HINT_FLOOR)
            evidence.append("remembered from an earlier run")
        cand = Candidate(el, round(min(score, 1.0), 4), tuple(e for e in evidence if e))
        scored.append((hinted, score, info.index, cand))
    return scored


def describe(el: Element) -> str:
    """An element as a person would point at it: "button 'Select' in result 2, under 'Flights'"."""
    label = el.display_name or el.ref
    if len(label) > 60:
        label = label[:57] + "..."
    out = f"{el.role} '{label}'"
    if el.record is not None:
        out += f" in result {el.record[1] + 1}"
    if el.section:
        out += f"{',' if el.record is not None else ''} under '{el.section}'"
    return out
