"""What a page says back about a form it was sent: the field errors it shows.

A form that comes back with "This field is required", "Enter a valid date", fields
marked ``aria-invalid`` or an alert beside a field did not take what was sent, even
though the click that sent it changed the page. :func:`form_errors` compares the
screens before and after such a click and names each error by its field, so the
step fails saying what the page objected to instead of reporting ``done``.
"""

from __future__ import annotations

import re

from gofer.decide.prepared import box_distance, is_field
from gofer.decide.text import normalise
from gofer.surfaces.screen import Box, Element, Screen, TextLine

__all__ = ["MAX_ERRORS", "SENDING_ROLES", "form_errors", "is_error_text"]

MAX_ERRORS = 5
"""How many field errors a reason names at most."""

SENDING_ROLES = frozenset({"button", "link", "clickable", "menuitem"})
"""Roles of controls whose click can send a form."""

_ERROR_WORDS = re.compile(
    r"\b(?:(?:is|are) (?:required|mandatory|missing|invalid|not valid|incorrect|wrong|"
    r"too (?:short|long|small|large|big|early|late)|already (?:taken|in use|registered|used))"
    r"|(?:this|the) field|required field|field is required|fields? (?:marked|highlighted)"
    r"|(?:must|should) (?:be|not|contain|have|match|include)|can ?not be (?:blank|empty)"
    r"|can't be (?:blank|empty)|may not be (?:blank|empty)|please (?:enter|provide|fill|select|"
    r"choose|check|correct|fix|use|type|give|tick|accept|agree|review|complete)"
    r"|(?:enter|choose|select|pick|provide) an? (?:valid|correct|real|later|earlier|future|past)"
    r"|not (?:a )?valid|invalid|does not match|doesn't match|do not match|don't match"
    r"|at least \d+|no more than \d+|at most \d+|problems? with|errors? (?:below|above|in)"
    r"|^error\b|^errors?:|there (?:was|were) (?:a |an |\d+ )?(?:problem|error))",
    re.IGNORECASE,
)
_NEAR_FIELD_PX = 80.0
_SAVED = re.compile(
    r"\b(?:has|have) been (?:saved|updated|changed|edited|created|added|submitted|sent)\b"
    r"|\bsuccessfully (?:saved|updated|changed|created|added|submitted|sent)\b"
    r"|\b(?:saved|updated|created) successfully\b|\bchanges (?:were |have been )?saved\b",
    re.IGNORECASE,
)


def is_error_text(text: str) -> bool:
    """Whether ``text`` reads as a complaint about what was entered."""
    return bool(text) and len(text) <= 200 and bool(_ERROR_WORDS.search(text))


def _field_key(el: Element) -> tuple[str, str, str]:
    return el.role, normalise(el.display_name), normalise(el.section)


def _fields(screen: Screen) -> list[Element]:
    return [
        e
        for e in screen.elements
        if e.visible
        and (is_field(e) or e.role in ("combobox", "listbox", "checkbox", "radio", "switch"))
    ]


def _name(el: Element) -> str:
    if el.role in ("radio", "checkbox", "switch") and (el.group or el.section):
        return el.group or el.section  # a group's error is about the question it asks
    return el.display_name or el.placeholder or el.role


_ATTACHED_PX = 12.0


def _owner(box: Box, fields: list[Element]) -> Element | None:
    """The field an error line is about.

    Pages put the message right under its field (Bootstrap's feedback) or between
    the label and the field (GOV.UK, Django's error lists): a field the line hangs
    from wins, then the nearest one below it, then the nearest one at all.
    """

    def across(el: Element) -> bool:
        return el.box.x < box.x + box.width and box.x < el.box.x + el.box.width

    top, bottom = box.y, box.y + box.height
    hanging = [
        el for el in fields if across(el) and 0 <= top - (el.box.y + el.box.height) <= _ATTACHED_PX
    ]
    if hanging:
        return min(hanging, key=lambda el: top - (el.box.y + el.box.height))
    below = [el for el in fields if across(el) and 0 <= el.box.y - bottom + 2 <= _NEAR_FIELD_PX]
    if below:
        return min(below, key=lambda el: el.box.y - bottom)
    near = [el for el in fields if box_distance(box, el.box) <= _NEAR_FIELD_PX]
    return min(near, key=lambda el: box_distance(box, el.box)) if near else None


def form_errors(before: Screen, after: Screen, *, reloaded: bool = False) -> list[str]:
    """The field errors ``after`` shows that ``before`` did not, as "Field: message".

    Counted: a field the page now marks invalid (with its error message when the
    page links one, or the error line beside it), and a new line that reads as an
    error ("This field is required", "Enter a valid date") beside a field. When the
    page was ``reloaded`` (the server answered the send with a page), the errors it
    shows count even if the page before showed the same ones. A page with no fields
    left is not the form again, and shows none.
    """
    fields = _fields(after)
    if not fields:
        return []
    was_invalid = {_field_key(e) for e in before.elements if e.invalid}
    known = {_field_key(e) for e in before.elements}
    seen_lines = {normalise(line.text) for line in before.lines}
    errors = [line for line in after.lines if is_error_text(line.text)]
    fresh: list[TextLine] = [line for line in errors if normalise(line.text) not in seen_lines]
    invalid = [el for el in fields if el.invalid]
    if not fresh and all(_field_key(el) in was_invalid for el in invalid):
        if not reloaded:
            return []
        if any(
            _SAVED.search(line.text)
            for line in after.lines
            if normalise(line.text) not in seen_lines
        ):
            # The page answered with its notice that the send was taken ("Settings have
            # been saved.") and the form again: its standing text is no complaint.
            return []
        # Sent again and shown again with the same errors: they still stand.
        fresh, was_invalid = errors, set()
    # Text beside a field that was not there before explains the new field (an added
    # passenger's "Name as on passport"); beside a field that was, it answers the send.
    answered = [el for el in fields if _field_key(el) in known or el.invalid]
    out: list[str] = []
    used: set[str] = set()
    for el in invalid:
        if not fresh and _field_key(el) in was_invalid:
            continue
        message = el.describedby if is_error_text(el.describedby) else ""
        if not message:
            near = [line for line in fresh if box_distance(line.box, el.box) <= _NEAR_FIELD_PX]
            if near:
                message = min(near, key=lambda ln: box_distance(ln.box, el.box)).text
        if message:
            used.add(normalise(message))
        out.append(f"{_name(el)}: {message}" if message else f"{_name(el)} is marked invalid")
    top = min(el.box.y for el in answered) if answered else None
    over: list[str] = []
    for line in fresh:
        if normalise(line.text) in used:
            continue
        owner = _owner(line.box, fields)
        if owner is None and top is not None and line.box.y + line.box.height <= top:
            # An alert over the form that came back (a page-level error): the send
            # was refused, though no field is named (an error summary only leads them).
            over.append(line.text.strip())
            continue
        if owner is None or owner not in answered:
            continue
        used.add(normalise(line.text))
        out.append(f"{_name(owner)}: {line.text.strip()}")
    return list(dict.fromkeys(out or over))[:MAX_ERRORS]
