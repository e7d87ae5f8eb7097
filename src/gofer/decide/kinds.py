"""Controls named by their kind: "the text field", "the second list", "the checkboxes".

People and planners often name a control by what it is rather than by its label:
"type X into the text field", "choose Y from the list", "tick A in the checkboxes",
"the dropdown", "the search box", "the date", "the password field", "the second
text field", "the tab". :func:`kind_phrase` reads such words (a kind, an optional
ordinal, and any other words beside it); :func:`ground_kind` grounds them to a
control of that kind on a screen: the only one, the one that holds the option being
chosen, the nth in reading order, or the one the other words name. It answers with
low confidence only when the screen leaves the choice open.

:func:`holding_group` is the last resort of ``choose``: when its ``in`` words match
nothing, the one list, select or group on the screen that holds the option words is
the answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from gofer.decide.dates import format_hint
from gofer.decide.options import match_option
from gofer.decide.prepared import DATE_INPUTS, ElementInfo, Prepared
from gofer.decide.regions import Region, resolve_regions
from gofer.decide.text import normalise, stem_tokens, text_score
from gofer.decide.types import Want
from gofer.surfaces.screen import Element, Screen

__all__ = [
    "KIND_SURE",
    "TOGGLE_ROLES",
    "KindPhrase",
    "KindPick",
    "ground_kind",
    "holding_group",
    "kind_phrase",
]

KIND_SURE = 0.9
"""The confidence of a control that its kind alone (or its place in order) singles out."""

_HOLDING = 0.8
"""The confidence of the one group on the screen that holds the option words."""


@dataclass(frozen=True, slots=True)
class _Kind:
    name: str  # how the kind reads in evidence and reasons
    test: Callable[[Element, Screen], bool]
    wants: frozenset[Want]
    holds_options: bool = False  # for choose, its units are lists and groups of options


TOGGLE_ROLES = frozenset({"checkbox", "switch", "menuitemcheckbox"})
"""The roles of a control that is ticked or not on its own."""
_TEXT_TYPES = frozenset({"", "text", "email", "tel", "url", "search"})
_DATE_WORDS = frozenset({"date", "day", "dob", "birthday"})
_TIME_WORDS = frozenset({"time"})
_HH_MM = re.compile(r"\bhh?\s*:\s*mm\b", re.IGNORECASE)


def _words_of(el: Element) -> set[str]:
    return set(normalise(" ".join((el.name, el.label, el.placeholder, el.title))).split())


def _is_text(el: Element, _s: Screen) -> bool:
    if el.tag == "textarea" or (el.role == "textbox" and el.editable and not el.tag):
        return True
    if el.tag == "input" and el.input_type not in _TEXT_TYPES:
        return False
    return el.role == "textbox" or (el.role == "combobox" and el.editable)


def _is_field(el: Element, s: Screen) -> bool:
    return (
        _is_text(el, s)
        or el.input_type in ("password", "number")
        or el.role == "spinbutton"
        or el.input_type in DATE_INPUTS
    )


_ACCOUNT_GAP_PX = 80.0
"""How far below an account's name field its password field may stand."""


def _is_account(el: Element, s: Screen) -> bool:
    """A sign-in form's name field: the text field the password field follows (a form
    whose two boxes carry no label of their own, under one "Login" heading)."""
    if not (_is_text(el, s) or el.input_type == "email"):
        return False
    after = False
    for other in s.elements:
        if other.ref == el.ref:
            after = True
        elif after and other.visible:
            return other.input_type == "password" and 0 <= other.box.y - el.box.y <= (
                _ACCOUNT_GAP_PX
            )
    return False


def _is_search(el: Element, _s: Screen) -> bool:
    return (
        el.role == "searchbox"
        or el.input_type == "search"
        or (el.role in ("textbox", "combobox") and "search" in _words_of(el))
    )


def _is_date(el: Element, s: Screen) -> bool:
    if el.input_type in ("date", "datetime-local", "month", "week"):
        return True
    if not _is_text(el, s) and el.role not in ("button", "combobox"):
        return False
    return bool(_words_of(el) & _DATE_WORDS) or (_is_text(el, s) and bool(format_hint(el, s)))


def _is_time(el: Element, s: Screen) -> bool:
    if el.input_type == "time":
        return True
    return _is_text(el, s) and (
        bool(_words_of(el) & _TIME_WORDS) or bool(_HH_MM.search(el.placeholder or el.title))
    )


def _is_select(el: Element, _s: Screen) -> bool:
    return (
        el.role == "combobox"
        or (el.tag == "select" and el.role != "listbox")
        or (el.role in ("button", "clickable") and el.expanded is not None and not el.record)
    )


def _is_list(el: Element, s: Screen) -> bool:
    return (
        _is_select(el, s)
        or el.role in ("listbox", "option", "radio", "tab", *TOGGLE_ROLES)
        or (pressable(el))
    )


def pressable(el: Element) -> bool:
    """A button that shows a pressed state (``aria-pressed``): a row of them is a group
    to choose among, one of them a toggle."""
    return el.role == "button" and el.checked is not None


def _role(*roles: str) -> Callable[[Element, Screen], bool]:
    wanted = frozenset(roles)
    return lambda el, _s: el.role in wanted


def _input(*types: str) -> Callable[[Element, Screen], bool]:
    wanted = frozenset(types)
    return lambda el, _s: el.input_type in wanted


_TYPING = frozenset({Want.FIELD, Want.CONTROL, Want.CLICK})
_PICKING = frozenset({Want.CONTROL, Want.CLICK})
_TEXT = _Kind("text field", _is_text, _TYPING)
_FIELD = _Kind("field", _is_field, _TYPING)
_SELECT = _Kind("dropdown", _is_select, _PICKING, holds_options=True)
_LIST = _Kind("list", _is_list, frozenset({Want.CONTROL}), holds_options=True)
_CHECKBOX = _Kind("checkbox", _role(*TOGGLE_ROLES), _PICKING, holds_options=True)
_RADIO = _Kind("radio button", _role("radio", "menuitemradio"), _PICKING, holds_options=True)
_TAB = _Kind("tab", _role("tab"), _PICKING, holds_options=True)

_NOUNS: dict[str, _Kind] = {}
for _kind, _phrases in (
    (
        _TEXT,
        "text field|text box|textbox|text input|input field|input box|entry field|"
        "text entry|free text field",
    ),
    (_FIELD, "field|input|form field|entry"),
    (
        _Kind("search box", _is_search, _TYPING),
        "search box|search field|search bar|search input|searchbox|search",
    ),
    (
        _Kind("password field", _input("password"), _TYPING),
        "password field|password box|password input|password",
    ),
    (
        _Kind("username field", _is_account, frozenset({Want.FIELD})),
        "username|user name|username field|user name field|login name|user id|userid|account name",
    ),
    (
        _Kind("email field", _input("email"), _TYPING),
        "email field|email box|email input|email address field|e mail field",
    ),
    (
        _Kind("phone field", _input("tel"), _TYPING),
        "phone field|phone number field|telephone field|phone box|tel field",
    ),
    (
        _Kind(
            "number field",
            lambda el, _s: el.role == "spinbutton" or el.input_type == "number",
            _TYPING,
        ),
        "number field|number box|number input|spinner|spin box|spinbox|stepper",
    ),
    (
        _Kind("date field", _is_date, _TYPING),
        "date|date field|date box|date input|date picker|datepicker|calendar|date selector",
    ),
    (
        _Kind("time field", _is_time, _TYPING),
        "time|time field|time box|time input|time picker|timepicker",
    ),
    (
        _Kind("text area", lambda el, _s: el.tag == "textarea", _TYPING),
        "text area|textarea|message box|comment box|comments box|message field|comments field",
    ),
    (
        _SELECT,
        "dropdown|drop down|dropdown list|drop down list|dropdown menu|drop down menu|"
        "dropdown box|select|select box|select list|select menu|selector|combo box|"
        "combobox|picker|pull down|pulldown",
    ),
    (
        _LIST,
        "list|list box|listbox|options|option list|list of options|choices|option|choice|selection",
    ),
    (_CHECKBOX, "checkbox|check box|tick box|tickbox|checklist|check list"),
    (_RADIO, "radio|radio button|radio group|radio option|option button|radio list"),
    (_TAB, "tab|tab bar|tab list|tablist|tab strip"),
    (_Kind("switch", _role("switch", "checkbox"), _PICKING), "switch|toggle|toggle switch"),
    (_Kind("button", _role("button"), frozenset({Want.CLICK})), "button"),
    (_Kind("link", _role("link"), frozenset({Want.CLICK})), "link"),
):
    for _phrase in _phrases.split("|"):
        _NOUNS[_phrase] = _kind
        _NOUNS.setdefault(_phrase + "s", _kind)
        if _phrase.endswith(("x", "ch", "sh")):
            _NOUNS.setdefault(_phrase + "es", _kind)
_LONGEST = max(len(p.split()) for p in _NOUNS)

_ARTICLES = frozenset({"the", "a", "an", "this", "that", "its", "your", "my", "one", "any"})
_ORDINALS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "seventh": 7,
    "eighth": 8,
    "ninth": 9,
    "tenth": 10,
    "last": -1,
    "top": 1,
    "bottom": -1,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "next": 0,
}
_NTH = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)$")
_QUALIFIERS = frozenset({"only", "single", "lone", "sole", "empty", "blank", "available"})
_LINKS = (
    "next to",
    "close to",
    "near to",
    "right of",
    "left of",
    "to the right of",
    "to the left of",
    "beside",
    "besides",
    "by",
    "near",
    "for",
    "of",
    "in",
    "inside",
    "within",
    "under",
    "below",
    "beneath",
    "above",
    "over",
    "after",
    "before",
    "on",
    "at",
    "with",
    "labelled",
    "labeled",
    "called",
    "named",
    "marked",
    "that says",
    "saying",
)
_LINK_TOKENS = sorted((tuple(p.split()) for p in _LINKS), key=len, reverse=True)


@dataclass(frozen=True, slots=True)
class KindPhrase:
    """Target words read as a kind of control: which kind, which one, and what else."""

    kind: str  # the kind as evidence says it ("text field", "dropdown", ...)
    ordinal: int | None  # 1-based place in reading order, -1 for the last; None when unsaid
    rest: str  # other words beside the kind ("shipping", "country"), normalised
    _kind: _Kind


@dataclass(frozen=True, slots=True)
class KindPick:
    """What :func:`ground_kind` found: the element, how sure, why, and the others."""

    element: Element | None
    confidence: float
    evidence: tuple[str, ...]
    others: tuple[tuple[Element, float, tuple[str, ...]], ...]
    low: bool
    reason: str = ""


def kind_phrase(words: str, want: Want) -> KindPhrase | None:
    """``words`` read as a kind of control for a step that wants ``want``, or None.

    "the second text field" is (text field, 2, ""); "the Country dropdown" is
    (dropdown, None, "country"); "the list next to Sort by" is (list, None, "sort by").
    """
    tokens = normalise(words).split()
    while tokens and tokens[0] in _ARTICLES:
        tokens = tokens[1:]
    ordinal: int | None = None
    if tokens:
        first = tokens[0]
        m = _NTH.match(first)
        if first in _ORDINALS and _ORDINALS[first] != 0:
            ordinal, tokens = _ORDINALS[first], tokens[1:]
        elif m:
            ordinal, tokens = int(m.group(1)), tokens[1:]
    while tokens and tokens[0] in _QUALIFIERS:
        tokens = tokens[1:]
    if not tokens:
        return None
    if ordinal is None and len(tokens) >= 2 and tokens[-1].isdigit() and len(tokens[-1]) <= 2:
        noun = " ".join(tokens[:-1])  # "field 2", "list 3"
        if noun in _NOUNS and _NOUNS[noun].wants & {want}:
            kind = _NOUNS[noun]
            return KindPhrase(kind.name, int(tokens[-1]), "", kind)
    for size in range(min(_LONGEST, len(tokens)), 0, -1):
        tail = " ".join(tokens[-size:])
        if tail in _NOUNS and want in _NOUNS[tail].wants:
            kind = _NOUNS[tail]
            rest = tokens[:-size]
            return KindPhrase(kind.name, ordinal, " ".join(rest), kind)
    for size in range(min(_LONGEST, len(tokens) - 1), 0, -1):
        head = " ".join(tokens[:size])
        if head not in _NOUNS or want not in _NOUNS[head].wants:
            continue
        after = tokens[size:]
        for link in _LINK_TOKENS:
            if tuple(after[: len(link)]) == link:
                rest = after[len(link) :]
                while rest and rest[0] in _ARTICLES:
                    rest = rest[1:]
                if rest:
                    kind = _NOUNS[head]
                    return KindPhrase(kind.name, ordinal, " ".join(rest), kind)
        return None
    return None


@dataclass(frozen=True, slots=True)
class _Unit:
    """One thing a kind can mean: a field or a select, or a group of options."""

    members: tuple[ElementInfo, ...]
    index: int  # reading-order index of its first member

    @property
    def lead(self) -> Element:
        return self.members[0].element


def _usable(info: ElementInfo) -> bool:
    return info.element.visible


def _units(
    prep: Prepared, kind: _Kind, region: Region | None, exclude: frozenset[str], grouped: bool
) -> list[_Unit]:
    screen = prep.screen
    singles: list[_Unit] = []
    groups: dict[tuple[str, str], list[ElementInfo]] = {}
    holders = [
        info
        for info in prep.elements
        if info.element.role == "listbox" and info.element.tag != "select"
    ]
    for info in prep.elements:
        el = info.element
        if el.ref in exclude or not _usable(info) or not kind.test(el, screen):
            continue
        if region is not None and region.kind != "near" and not region.contains(el):
            continue
        family = _family(el)
        if grouped and family:
            if family == "option" and any(h.element.box.contains(el.box) for h in holders):
                key = (
                    "option",
                    next(h.element.ref for h in holders if h.element.box.contains(el.box)),
                )
            else:
                key = (family, el.group or el.section)
            groups.setdefault(key, []).append(info)
            continue
        if (
            grouped
            and el.role == "listbox"
            and el.tag != "select"
            and any(
                o.element.role == "option"
                and el.box.contains(o.element.box)
                and kind.test(o.element, screen)
                for o in prep.elements
            )
        ):
            continue  # its options are its unit
        singles.append(_Unit((info,), info.index))
    units = singles + [_Unit(tuple(m), m[0].index) for m in groups.values()]
    units.sort(key=lambda u: u.index)
    return units


def _family(el: Element) -> str:
    role = el.role
    if pressable(el):
        return "pressed"
    if role in TOGGLE_ROLES:
        return "checkbox"
    if role in ("radio", "menuitemradio"):
        return "radio"
    if role in ("tab", "option"):
        return role
    return ""


def _member_for(unit: _Unit, option: str) -> tuple[Element, bool]:
    """The element of ``unit`` to act on for ``option``, and whether it holds the option."""
    lead = unit.lead
    if len(unit.members) == 1 and not _family(lead):
        if lead.options:
            return lead, match_option(option, lead.options) is not None
        return lead, False
    names = [m.element.display_name for m in unit.members]
    best = match_option(option, names) if option else None
    if best is None:
        return lead, False
    return unit.members[best[0]].element, True


def _says(unit: _Unit) -> str:
    lead = unit.lead
    if len(unit.members) > 1:
        return f"{lead.role} group of {len(unit.members)}"
    return f"{lead.role} '{(lead.display_name or lead.ref)[:40]}'"


def _rest_score(unit: _Unit, rest: str, near: Region | None) -> float:
    """How well the other words beside the kind name ``unit`` (0..1)."""
    stems = stem_tokens(rest)
    best = 0.0
    for info in unit.members:
        el = info.element
        norms = [src.norm for src in info.sources]
        norms += [normalise(el.section), normalise(el.group)]
        for norm in norms:
            if norm:
                best = max(best, text_score(rest, stems, norm, stem_tokens(norm))[0])
    if near is not None and best < 0.66:
        best = max(
            best,
            0.6 * near.nearness(unit.lead)
            if near.kind == "near"
            else 0.7
            if near.contains(unit.lead)
            else 0.0,
        )
    return best


def ground_kind(
    phrase: KindPhrase,
    prep: Prepared,
    region: Region | None,
    *,
    option: str = "",
    want: Want,
    exclude: frozenset[str] = frozenset(),
) -> KindPick:
    """The control of ``phrase``'s kind that the words mean on the prepared screen.

    For ``choose`` (``want`` is CONTROL, with the ``option`` words), a kind of list
    counts its lists and groups, and the one that holds the option is meant; the
    element to act on is the select itself, or the option, radio, checkbox or tab
    in the group that the option words name. Otherwise the nth in reading order
    (with an ordinal), the one the other words name, or the only one.
    """
    kind = phrase._kind
    grouped = want is Want.CONTROL and kind.holds_options
    units = _units(prep, kind, region, exclude, grouped)
    what = f"a {phrase.kind}"
    if not units:
        where = f" inside {region.describe}" if region is not None and region.kind != "near" else ""
        return KindPick(None, 0.0, (), (), True, f"there is no {phrase.kind} on the screen{where}")
    picks = [(u, *_member_for(u, option)) for u in units]
    others = tuple((el, 0.5, (what,)) for _u, el, _h in picks)
    if phrase.ordinal is not None:
        return _by_ordinal(phrase, phrase.ordinal, picks, what, others)
    if phrase.rest:
        named = _by_rest(phrase, prep, picks, what, others)
        if named is not None:
            return named
    if grouped and option:
        holding = _by_option(phrase, picks, option, what, others)
        if holding is not None:
            return holding
    if len(picks) == 1:
        unit, el, _h = picks[0]
        return KindPick(
            el, KIND_SURE, (what, f"the only {phrase.kind} on the screen"), others, False
        )
    unit, el, _h = picks[0]
    return KindPick(
        el,
        0.5,
        (what, "the first in reading order"),
        others,
        True,
        f"there are {len(picks)} {phrase.kind}s on the screen and the words do not "
        f"say which; took the first ({_says(unit)})",
    )


_Picks = list[tuple[_Unit, Element, bool]]
_Others = tuple[tuple[Element, float, tuple[str, ...]], ...]


def _by_ordinal(phrase: KindPhrase, n: int, picks: _Picks, what: str, others: _Others) -> KindPick:
    """The nth of the kind in reading order ("the second text field", "the last list";
    ``n`` -1 for the last)."""
    index = len(picks) - 1 if n == -1 else n - 1
    if not 0 <= index < len(picks):
        return KindPick(
            None,
            0.0,
            (),
            others,
            True,
            f"there are {len(picks)} {phrase.kind}s on the screen, "
            f"not {n if n > 0 else 'a last one'}",
        )
    _unit, el, _holds = picks[index]
    order = "last" if n == -1 else f"number {n}"
    return KindPick(
        el, KIND_SURE, (what, f"{order} of {len(picks)} in reading order"), others, False
    )


def _by_rest(
    phrase: KindPhrase, prep: Prepared, picks: _Picks, what: str, others: _Others
) -> KindPick | None:
    """The one of the kind the other words name ("the list under Shipping"), if one is."""
    near = resolve_regions(phrase.rest, prep.screen)
    anchor = near[0] if near else None
    ranked = sorted(
        ((_rest_score(u, phrase.rest, anchor), i) for i, (u, _e, _h) in enumerate(picks)),
        key=lambda s: (-s[0], s[1]),
    )
    top_score, top = ranked[0]
    if top_score >= 0.5:
        close = len(ranked) > 1 and ranked[1][0] >= top_score - 0.05
        unit, el, _h = picks[top]
        conf = round(0.55 + 0.4 * top_score, 4)
        note = f"'{phrase.rest}' names it ({top_score:.2f})"
        reason = (
            (
                f"two {phrase.kind}s fit '{phrase.rest}' equally: {_says(unit)} and "
                f"{_says(picks[ranked[1][1]][0])}; took the first"
            )
            if close
            else ""
        )
        return KindPick(el, conf, (what, note), others, close, reason)
    return None


def _by_option(
    phrase: KindPhrase, picks: _Picks, option: str, what: str, others: _Others
) -> KindPick | None:
    """The one of the kind that holds the option a ``choose`` asks for, if one does."""
    holding = [(u, el) for u, el, holds in picks if holds]
    if len(holding) == 1:
        unit, el = holding[0]
        return KindPick(el, KIND_SURE, (what, f"the one that holds '{option}'"), others, False)
    if len(holding) > 1:
        unit, el = holding[0]
        return KindPick(
            el,
            0.6,
            (what, f"holds '{option}'"),
            others,
            True,
            f"{len(holding)} {phrase.kind}s hold '{option}': "
            f"{_says(unit)} and {_says(holding[1][0])}; took the first",
        )
    return None


_ANY_LIST = _Kind("list", _is_list, frozenset({Want.CONTROL}), holds_options=True)


def _one_choice_drawn_twice(holding: list[tuple[_Unit, Element]]) -> list[tuple[_Unit, Element]]:
    """Groups whose picks are one choice on the screen (an ARIA option that wraps its own
    checkbox: Dash's checklists) count once, by the form control: the one that holds a
    state to read back."""
    boxes = [el.box for _u, el in holding]
    same = all(a.contains(b) or b.contains(a) for a in boxes for b in boxes)
    inputs = [(u, el) for u, el in holding if el.role in (*TOGGLE_ROLES, "radio")]
    return inputs if same and len(inputs) == 1 else holding


def holding_group(
    option: str, prep: Prepared, region: Region | None, exclude: frozenset[str] = frozenset()
) -> KindPick | None:
    """The one select, list or group of options on the screen holding ``option``, or None.

    None as well when several hold it: then the words are needed to tell them apart.
    """
    if not option.strip():
        return None
    units = _units(prep, _ANY_LIST, region, exclude, grouped=True)
    holding = [(u, el) for u in units for el, holds in (_member_for(u, option),) if holds]
    if len(holding) > 1:
        holding = _one_choice_drawn_twice(holding)
    if len(holding) != 1:
        return None
    unit, el = holding[0]
    return KindPick(
        el, _HOLDING, (f"the one {_says(unit)} on the screen that holds '{option}'",), (), False
    )
