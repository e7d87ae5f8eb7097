"""The declarative description of every step kind: one source for the parser, the
checker, the flow guide, :func:`step_kinds` and the JSON Schema.

Each kind's first field is keyed by the kind's own name (``{"click": "Search"}``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from gofer.flow import steps as s
from gofer.flow.problems import ProblemCode

__all__ = [
    "CONDITION_FORMS",
    "KIND_SPECS",
    "MODIFIERS",
    "STEP_OUTCOMES",
    "SURFACES",
    "TIMEOUT_MAX_MS",
    "ConditionForm",
    "FieldSpec",
    "FieldType",
    "KindSpec",
    "kind_spec",
]

TIMEOUT_MAX_MS = 120_000
SURFACES: tuple[str, ...] = ("browser", "desktop")


class FieldType(StrEnum):
    """What a field holds; decides its JSON type and which rules apply to it."""

    TEXT = "text"  # any string, may be empty
    TARGET = "target words"  # words naming a control the way the screen names it
    WORDS = "words"  # non-blank plain words
    ADDRESS = "address"  # an http or https address
    KEY = "key name"
    NAME = "variable name"
    BOOL = "boolean"
    INT = "integer"
    CONDITION = "condition"
    STEPS = "steps"
    SURFACE = "surface"


STRING_TYPES = frozenset(
    {FieldType.TEXT, FieldType.TARGET, FieldType.WORDS, FieldType.ADDRESS, FieldType.KEY}
)


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One JSON key of a step: its dataclass attribute, type, and rules."""

    key: str
    attr: str
    type: FieldType
    description: str
    required: bool = False
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    range_code: str | None = None
    label: str | None = None

    @property
    def short(self) -> str:
        """How the kinds table names the field's value."""
        return self.label or self.type_label

    @property
    def type_label(self) -> str:
        """The type as the guide shows it."""
        if self.type is FieldType.INT and self.minimum is not None:
            return f"integer {self.minimum}..{self.maximum}"
        if self.type is FieldType.SURFACE:
            return " or ".join(f"`{name}`" for name in SURFACES)
        return str(self.type)


@dataclass(frozen=True, slots=True)
class KindSpec:
    """One step kind: its key, class, what it does, its fields, and a one-step example."""

    kind: str
    cls: type[s.StepBase]
    summary: str
    fields: tuple[FieldSpec, ...]
    example: dict[str, Any]

    @property
    def main(self) -> FieldSpec:
        """The field keyed by the kind's own name."""
        return self.fields[0]

    def field(self, key: str) -> FieldSpec | None:
        """The field with JSON key ``key``, if the kind has one."""
        return next((f for f in self.fields if f.key == key), None)


def _within() -> FieldSpec:
    return FieldSpec(
        "within",
        "within",
        FieldType.TARGET,
        "target words naming the region to look in (a card, a dialog, a row) when the "
        "same control appears more than once",
    )


KIND_SPECS: tuple[KindSpec, ...] = (
    KindSpec(
        "browse",
        s.Browse,
        "load a web address (http or https)",
        (
            FieldSpec(
                "browse",
                "url",
                FieldType.ADDRESS,
                "the address to load, starting http:// or https:// (or a ${name} holding one)",
                required=True,
            ),
        ),
        {"browse": "https://shop.example/"},
    ),
    KindSpec(
        "open",
        s.Open,
        "open a desktop application",
        (
            FieldSpec(
                "open",
                "app",
                FieldType.WORDS,
                "the application's name",
                required=True,
                label="application name",
            ),
        ),
        {"open": "Calculator", "surface": "desktop"},
    ),
    KindSpec(
        "click",
        s.Click,
        "press a button, link, tab, card or menu item",
        (
            FieldSpec(
                "click",
                "target",
                FieldType.TARGET,
                "the control's own words: its label, text or accessible name",
                required=True,
            ),
            _within(),
        ),
        {"click": "Add to basket", "within": "the first result"},
    ),
    KindSpec(
        "enter",
        s.Enter,
        "type a value into a field",
        (
            FieldSpec(
                "enter",
                "value",
                FieldType.TEXT,
                "the text to type; the only place a secret fact may appear",
                required=True,
                label="value",
            ),
            FieldSpec(
                "into",
                "into",
                FieldType.TARGET,
                "the field's label, placeholder or accessible name",
                required=True,
            ),
            _within(),
            FieldSpec(
                "submit", "submit", FieldType.BOOL, "press Enter after typing", default=False
            ),
        ),
        {"enter": "${email}", "into": "Email", "submit": False},
    ),
    KindSpec(
        "choose",
        s.Choose,
        "pick an option in a select, list, radio group, checkbox, tab or date picker",
        (
            FieldSpec(
                "choose",
                "option",
                FieldType.TARGET,
                "the option's own words",
                required=True,
                label="option words",
            ),
            FieldSpec(
                "in",
                "in_",
                FieldType.TARGET,
                "the control's label or accessible name",
                required=True,
            ),
            _within(),
        ),
        {"choose": "14 October", "in": "Departure date"},
    ),
    KindSpec(
        "press",
        s.Press,
        "press a key on the focused element",
        (
            FieldSpec(
                "press",
                "key",
                FieldType.KEY,
                "a key name: Enter, Escape, Tab, ArrowDown, ...",
                required=True,
            ),
        ),
        {"press": "Escape"},
    ),
    KindSpec(
        "verify",
        s.Verify,
        "fail unless the condition holds on the screen",
        (
            FieldSpec(
                "verify",
                "condition",
                FieldType.CONDITION,
                "the condition that must hold",
                required=True,
            ),
        ),
        {"verify": {"shows": "Order summary"}},
    ),
    KindSpec(
        "read",
        s.Read,
        "save visible text into a variable (a list of records with `list`)",
        (
            FieldSpec(
                "read",
                "what",
                FieldType.WORDS,
                "words naming what to read",
                required=True,
                label="words naming what to read",
            ),
            FieldSpec("as", "as_", FieldType.NAME, "the variable to save it in", required=True),
            FieldSpec(
                "list",
                "list",
                FieldType.BOOL,
                "read every matching item as a list of records",
                default=False,
            ),
            FieldSpec(
                "from",
                "from_",
                FieldType.NAME,
                "a file the task holds (given to it, or kept by a `download` or `save_pdf`) "
                "to read instead of the screen: a CSV, a PDF's text or a text file",
            ),
        ),
        {"read": "the total price", "as": "total"},
    ),
    KindSpec(
        "upload",
        s.Upload,
        "put files given to the task into a file field or a drop zone",
        (
            FieldSpec(
                "upload",
                "files",
                FieldType.WORDS,
                "the file to put in, as ${name} of a file given to the task (several "
                "separated by commas, for a field that takes several), or the name a "
                "`download` kept it under",
                required=True,
                label="file names",
            ),
            FieldSpec(
                "into",
                "into",
                FieldType.TARGET,
                "the file field's label, or the words of the button or drop zone that "
                "opens the file chooser",
                required=True,
            ),
            _within(),
        ),
        {"upload": "${cv}", "into": "Upload your CV"},
    ),
    KindSpec(
        "download",
        s.Download,
        "press a link or button and keep the file it downloads or opens",
        (
            FieldSpec(
                "download",
                "target",
                FieldType.TARGET,
                "the link's or button's own words",
                required=True,
            ),
            FieldSpec(
                "as",
                "as_",
                FieldType.NAME,
                "the name the task keeps the file under (its record, and the name to fetch it by)",
                required=True,
            ),
            _within(),
        ),
        {"download": "Invoice March 2026", "as": "march invoice"},
    ),
    KindSpec(
        "save_pdf",
        s.SavePdf,
        "keep the page as it shows now as a PDF file",
        (
            FieldSpec(
                "save_pdf",
                "as_",
                FieldType.NAME,
                "the name the task keeps the PDF under",
                required=True,
                label="file name",
            ),
        ),
        {"save_pdf": "booking confirmation"},
    ),
    KindSpec(
        "wait",
        s.Wait,
        "wait until the condition holds",
        (
            FieldSpec(
                "wait", "condition", FieldType.CONDITION, "the condition to wait for", required=True
            ),
            FieldSpec(
                "timeout_ms",
                "timeout_ms",
                FieldType.INT,
                "how long to wait at most, in milliseconds",
                minimum=1,
                maximum=TIMEOUT_MAX_MS,
                range_code=ProblemCode.TIMEOUT_RANGE,
            ),
        ),
        {"wait": {"not_shows": "Loading"}, "timeout_ms": 15000},
    ),
    KindSpec(
        "stop_before",
        s.StopBefore,
        "find the control that does an irreversible action and stop in front of it",
        (
            FieldSpec(
                "stop_before",
                "action",
                FieldType.TARGET,
                "words naming the irreversible action (paying, sending, deleting)",
                required=True,
                label="words naming an irreversible action",
            ),
        ),
        {"stop_before": "placing the order"},
    ),
    KindSpec(
        "if",
        s.If,
        "branch on the screen",
        (
            FieldSpec(
                "if", "condition", FieldType.CONDITION, "the condition to test", required=True
            ),
            FieldSpec("then", "then", FieldType.STEPS, "steps to run when it holds", required=True),
            FieldSpec(
                "else", "else_", FieldType.STEPS, "steps to run when it does not", default=()
            ),
        ),
        {"if": {"shows": "Accept cookies"}, "then": [{"click": "Accept cookies"}]},
    ),
    KindSpec(
        "repeat_until",
        s.RepeatUntil,
        "repeat steps until the condition holds",
        (
            FieldSpec(
                "repeat_until",
                "condition",
                FieldType.CONDITION,
                "the condition that ends the loop (tested before each round)",
                required=True,
            ),
            FieldSpec("do", "do", FieldType.STEPS, "the steps of one round", required=True),
            FieldSpec(
                "max",
                "max",
                FieldType.INT,
                "rounds at most",
                default=s.REPEAT_DEFAULT,
                minimum=1,
                maximum=s.REPEAT_MAX,
                range_code=ProblemCode.REPEAT_MAX_RANGE,
            ),
        ),
        {"repeat_until": {"not_shows": "Show more"}, "do": [{"click": "Show more"}], "max": 5},
    ),
    KindSpec(
        "do",
        s.Do,
        "a plain-language intent: a model decider picks the one control to press (needs one)",
        (
            FieldSpec(
                "do",
                "instruction",
                FieldType.WORDS,
                "the intent, in one sentence",
                required=True,
                label="a plain-language intent",
            ),
        ),
        {"do": "close whatever promotion is covering the page"},
    ),
)

MODIFIERS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "intent", "intent", FieldType.TEXT, "one sentence for people and models, shown in views"
    ),
    FieldSpec(
        "optional",
        "optional",
        FieldType.BOOL,
        "when true, the step's failure does not fail the flow",
        default=False,
    ),
    FieldSpec(
        "surface", "surface", FieldType.SURFACE, "where the step runs: the browser or the desktop"
    ),
)

_BY_KIND = {spec.kind: spec for spec in KIND_SPECS}


def kind_spec(kind: str) -> KindSpec | None:
    """The spec of step kind ``kind``, if it is one."""
    return _BY_KIND.get(kind)


@dataclass(frozen=True, slots=True)
class ConditionForm:
    """One way to write a condition."""

    keys: tuple[str, ...]
    cls: type[Any]
    description: str
    example: str | dict[str, Any]


CONDITION_FORMS: tuple[ConditionForm, ...] = (
    ConditionForm(
        (),
        s.Judged,
        "words judged against the screen; needs a model decider to judge reliably",
        "a cookie banner is showing",
    ),
    ConditionForm(("shows",), s.Shows, "the screen shows this text", {"shows": "Basket (1)"}),
    ConditionForm(
        ("not_shows",), s.NotShows, "the screen does not show this text", {"not_shows": "Loading"}
    ),
    ConditionForm(
        ("var", "equals"),
        s.VarEquals,
        "a variable holds exactly this text",
        {"var": "status", "equals": "confirmed"},
    ),
    ConditionForm(
        ("var", "empty"),
        s.VarEmpty,
        "a variable is empty (`true`) or not (`false`)",
        {"var": "cheapest", "empty": True},
    ),
    ConditionForm(
        ("all",),
        s.AllOf,
        "every listed condition holds",
        {"all": [{"shows": "Total"}, {"not_shows": "Sold out"}]},
    ),
    ConditionForm(
        ("any",),
        s.AnyOf,
        "at least one listed condition holds",
        {"any": [{"shows": "No results"}, {"shows": "0 results"}]},
    ),
)

STEP_OUTCOMES: tuple[tuple[str, str], ...] = (
    ("done", "the step did what it says"),
    ("already_done", "the screen already showed the result"),
    ("gated", "a `stop_before` stopped in front of its control"),
    ("failed", "the step could not be done; the reason is given in plain words"),
    ("skipped", "an `optional` step that failed, or a branch not taken"),
)
