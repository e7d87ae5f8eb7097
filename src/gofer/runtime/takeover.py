"""A person's take-over kept as flow steps, and which steps of a flow it already did.

While a person acts in a task's live view, the page is read (a :class:`Screen`, as the
grounder reads it) before each click and each Enter they press, and once more when
they hand the task back. A :class:`Recorder` turns those readings into steps in the
page's own words: a click on the element under the pointer, named as the grounder
names it; a value that appeared in a field since the reading before (an ``enter``, or
a ``choose`` for a list). A value typed is never kept as it is: one equal to a fact's
becomes ``${name}`` of that fact, and any other becomes ``${label}`` (the field's
words), a value to ask for when the steps run again: whatever a person types may be a
secret no rule knows (a recovery key, a password in another language, a password box
shown as text). An option chosen from a list is page text and is kept, unless it is a
secret fact's value or the field is secret by the rules. Nothing done on a screen
that shows a captcha or a human check is kept: a wall stays a wall.

:func:`done_by_person` says how many of a flow's next steps the person's actions
already did: the same control pressed, the same value entered into the same field
(each judged by grounding the step's words on the screen the person acted on), or,
for a click, its control gone while the step after it is on the page now (the page
that step leads to is already showing). When the first step left is a click whose
control is gone, nothing after it is on the page, and the page is another than the one
the person took over, the page has moved on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from gofer.decide.ground import WEAK, Query, Want, ground
from gofer.facts import secret_reason
from gofer.flow.steps import Choose, Click, Enter, Step
from gofer.safety.walls import CAPTCHA, HUMAN_CHECK, human_wall
from gofer.surfaces.screen import Box, Element, Screen

__all__ = ["Handback", "PersonStep", "Recorder", "done_by_person", "element_at"]

_FIELD_ROLES = frozenset({"textbox", "searchbox", "spinbutton", "combobox"})
_LISTS = frozenset({"combobox", "listbox"})
_NOT_A_PRESS = frozenset({"textbox", "searchbox", "spinbutton", "combobox", "listbox", "slider"})
_NAME = re.compile(r"[^a-z0-9 ]+")


@dataclass(frozen=True, slots=True)
class PersonStep:
    """One thing a person did, as a flow step in the page's own words, on the page at
    ``url``. ``secret``: the value typed matched no fact the task shares (a secret
    fact, or no fact at all), so the step names it (``${name}``) and it is not kept."""

    step: Click | Enter | Choose
    url: str
    secret: bool = False


@dataclass(frozen=True, slots=True)
class _Act:
    """One action with what matching it needs: the screen it was done on, the element,
    and the raw value (kept in memory only, for comparing with a step's)."""

    kind: str
    screen: Screen
    element: Element
    value: str = ""


@dataclass(frozen=True, slots=True)
class Handback:
    """What the person's actions did of the flow's next steps: the first ``done`` of
    them; ``moved_on`` when the step after those is a click whose control is gone and
    nothing later is on the page either."""

    done: int
    moved_on: bool = False


def element_at(screen: Screen, x: float, y: float) -> Element | None:
    """The smallest visible element of ``screen`` whose box holds the point (CSS pixels
    of the viewport), or None."""
    point = Box(x, y, 0, 0)
    hits = [
        e
        for e in screen.elements
        if e.visible and e.box.width > 0 and e.box.height > 0 and e.box.contains(point)
    ]
    return min(hits, key=lambda e: e.box.width * e.box.height) if hits else None


def _address(url: str) -> str:
    return url.split("#", 1)[0].rstrip("/")


def _walled(screen: Screen) -> bool:
    return human_wall(screen.text) in (CAPTCHA, HUMAN_CHECK)


def _key(el: Element) -> tuple[str, str, str, str]:
    return (el.frame, el.role, el.display_name, el.input_type)


def _fields(screen: Screen) -> Iterator[Element]:
    for el in screen.elements:
        if el.role in _FIELD_ROLES or el.editable:
            yield el


def _name_for(words: str) -> str:
    name = " ".join(_NAME.sub(" ", words.casefold()).split())
    return name or "value"


@dataclass(slots=True)
class Recorder:
    """Keeps a person's actions (see the module): :meth:`look` at each reading of the
    page, :meth:`steps` to have them as flow steps."""

    _acts: list[_Act] = field(default_factory=list)
    _first: Screen | None = None
    _last: Screen | None = None

    @property
    def acted(self) -> bool:
        """Whether anything was kept."""
        return bool(self._acts)

    @property
    def last(self) -> Screen | None:
        """The latest reading of the page."""
        return self._last

    def moved(self, now: Screen) -> bool:
        """Whether ``now`` is another page than the one the person took over."""
        first = self._first
        return first is None or _address(first.url) != _address(now.url)

    def look(self, screen: Screen, clicked: Element | None = None) -> None:
        """A reading of the page before a click on ``clicked`` (or an Enter, or the
        hand-back): what was typed since the reading before, then the click."""
        last, self._last = self._last, screen
        if self._first is None:
            self._first = screen
        if _walled(screen):
            return
        if last is not None and last.url == screen.url:
            before = {_key(e): e.value for e in _fields(last)}
            for el in _fields(screen):
                if el.value and before.get(_key(el)) != el.value and el.display_name:
                    kind = "choose" if el.role in _LISTS and el.options else "enter"
                    self._acts.append(_Act(kind, screen, el, el.value))
        if clicked is None or clicked.role in _NOT_A_PRESS or clicked.editable:
            return
        if clicked.display_name:
            self._acts.append(_Act("click", screen, clicked))

    def steps(
        self, facts: Mapping[str, str] | None = None, secret: frozenset[str] = frozenset()
    ) -> list[PersonStep]:
        """What the person did, in order, as steps: a value equal to one of ``facts``
        is ``${name}``; a typed one matching none is ``${label}``, never the value."""
        facts = facts or {}
        out: list[PersonStep] = []
        for act in self._acts:
            el = act.element
            if act.kind == "click":
                words = el.display_name
                found = ground(Query(words, Want.CLICK), act.screen)
                within = None
                if found.element is None or found.element.ref != el.ref:
                    within = el.section or None
                out.append(PersonStep(Click(target=words, within=within), act.screen.url))
                continue
            value = act.value
            named = next((n for n, v in facts.items() if v and v == value), None)
            hidden = (named is not None and named in secret) or (
                named is None
                and (
                    act.kind == "enter"
                    or el.input_type == "password"
                    or secret_reason(el.display_name, value) is not None
                )
            )
            shown = "${" + (named or _name_for(el.display_name)) + "}" if named or hidden else value
            step: Click | Enter | Choose = (
                Choose(option=shown, in_=el.display_name)
                if act.kind == "choose"
                else Enter(value=shown, into=el.display_name)
            )
            out.append(PersonStep(step, act.screen.url, secret=hidden))
        return out


def _query(step: Step) -> Query | None:
    match step:
        case Click(target=target, within=within):
            return Query(target, Want.CLICK, within=within, kind="click")
        case Enter(into=into, within=within):
            return Query(into, Want.FIELD, within=within, kind="enter")
        case Choose(in_=in_, option=option, within=within):
            return Query(in_, Want.CONTROL, within=within, kind="choose", option=option)
        case _:
            return None


def _fill(text: str, variables: Mapping[str, str]) -> str:
    for name, value in variables.items():
        text = text.replace("${" + name + "}", value)
    return text


def _same(step: Step, act: _Act, variables: Mapping[str, str]) -> bool:
    query = _query(step)
    if query is None or act.kind != step.KIND:
        return False
    found = ground(query, act.screen)
    if found.element is None or found.element.ref != act.element.ref:
        return False
    if isinstance(step, Enter):
        return _fill(step.value, variables).strip() == act.value.strip()
    if isinstance(step, Choose):
        return _fill(step.option, variables).casefold().strip() == act.value.casefold().strip()
    return True


def _shows(step: Step, screen: Screen) -> bool:
    query = _query(step)
    if query is None:
        return False
    found = ground(query, screen)
    return found.element is not None and found.confidence >= WEAK and not found.low_confidence


def done_by_person(
    recorder: Recorder,
    steps: Sequence[Step],
    variables: Mapping[str, str],
    now: Screen | None,
) -> Handback:
    """How many of ``steps`` (the flow's next top-level steps) the person's actions did
    (see the module); ``now`` is the page as they handed it back."""
    acts = recorder._acts
    at = 0
    done = 0
    for i, step in enumerate(steps):
        k = next((k for k in range(at, len(acts)) if _same(step, acts[k], variables)), None)
        if k is not None:
            at = k + 1
            done = i + 1
            continue
        if (
            isinstance(step, Click)
            and now is not None
            and recorder.acted
            and not _shows(step, now)
            and i + 1 < len(steps)
            and _shows(steps[i + 1], now)
        ):
            done = i + 1
            continue
        break
    moved_on = False
    if done < len(steps) and now is not None and recorder.acted and recorder.moved(now):
        step = steps[done]
        later = steps[done + 1 :]
        moved_on = (
            isinstance(step, Click)
            and not _shows(step, now)
            and not any(_shows(s, now) for s in later if _query(s) is not None)
        )
    return Handback(done, moved_on)
