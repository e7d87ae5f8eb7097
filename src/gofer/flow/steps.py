"""Typed models of the flow contract: steps, conditions, and the flow itself.

These are plain frozen dataclasses; parsing from JSON and checking live in
:mod:`gofer.flow.parse` and :mod:`gofer.flow.check`. Field names follow the JSON
keys except where a key is a Python keyword (``in`` -> ``in_``, ``as`` -> ``as_``,
``else`` -> ``else_``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Literal, TypeAlias

JSONValue: TypeAlias = str | int | float | bool | list["JSONValue"] | dict[str, "JSONValue"] | None
SurfaceName = Literal["browser", "desktop"]

CONTRACT_VERSION = "1.1"
MAX_STEPS = 200
MAX_DEPTH = 8
REPEAT_DEFAULT = 10
REPEAT_MAX = 50


# ---------------------------------------------------------------- conditions


@dataclass(frozen=True, slots=True)
class Judged:
    """Words judged against the screen (needs a model decider to judge reliably)."""

    text: str


@dataclass(frozen=True, slots=True)
class Shows:
    """Holds when the screen shows ``text``."""

    text: str


@dataclass(frozen=True, slots=True)
class NotShows:
    """Holds when the screen does not show ``text``."""

    text: str


@dataclass(frozen=True, slots=True)
class VarEquals:
    """Holds when variable ``var`` equals ``value``."""

    var: str
    value: str


@dataclass(frozen=True, slots=True)
class VarEmpty:
    """Holds when variable ``var`` is empty (``empty: true``) or not (``empty: false``)."""

    var: str
    empty: bool = True


@dataclass(frozen=True, slots=True)
class AllOf:
    """Holds when every condition holds."""

    items: tuple[Condition, ...]


@dataclass(frozen=True, slots=True)
class AnyOf:
    """Holds when at least one condition holds."""

    items: tuple[Condition, ...]


Condition: TypeAlias = Judged | Shows | NotShows | VarEquals | VarEmpty | AllOf | AnyOf


# ---------------------------------------------------------------- steps


@dataclass(frozen=True, kw_only=True, slots=True)
class StepBase:
    """Modifiers any step may carry."""

    KIND: ClassVar[str] = ""
    intent: str | None = None
    optional: bool = False
    surface: SurfaceName | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Browse(StepBase):
    """Load a web address."""

    KIND: ClassVar[str] = "browse"
    url: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Open(StepBase):
    """Open a desktop application."""

    KIND: ClassVar[str] = "open"
    app: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Click(StepBase):
    """Press a button, link, tab, card or menu item."""

    KIND: ClassVar[str] = "click"
    target: str
    within: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Enter(StepBase):
    """Type ``value`` into the field named by ``into``."""

    KIND: ClassVar[str] = "enter"
    value: str
    into: str
    within: str | None = None
    submit: bool = False


@dataclass(frozen=True, kw_only=True, slots=True)
class Choose(StepBase):
    """Pick ``option`` in the control named by ``in_``."""

    KIND: ClassVar[str] = "choose"
    option: str
    in_: str
    within: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Press(StepBase):
    """Press a key on the focused element."""

    KIND: ClassVar[str] = "press"
    key: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Verify(StepBase):
    """Fail unless the condition holds."""

    KIND: ClassVar[str] = "verify"
    condition: Condition


@dataclass(frozen=True, kw_only=True, slots=True)
class Read(StepBase):
    """Save visible text into variable ``as_`` (a list of records with ``list``)."""

    KIND: ClassVar[str] = "read"
    what: str
    as_: str
    list: bool = False
    from_: str | None = None
    """A file the task holds (given or kept) to read instead of the screen."""


@dataclass(frozen=True, kw_only=True, slots=True)
class Upload(StepBase):
    """Put the files ``files`` names (``${cv}``, several separated by commas) into the file
    field, button or drop zone named by ``into``."""

    KIND: ClassVar[str] = "upload"
    files: str
    into: str
    within: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class Download(StepBase):
    """Press the link or button named by ``target`` and keep what the browser downloads
    as the file ``as_``."""

    KIND: ClassVar[str] = "download"
    target: str
    as_: str
    within: str | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class SavePdf(StepBase):
    """Keep the page as it shows now as a PDF file named ``as_``."""

    KIND: ClassVar[str] = "save_pdf"
    as_: str


@dataclass(frozen=True, kw_only=True, slots=True)
class Wait(StepBase):
    """Wait until the condition holds."""

    KIND: ClassVar[str] = "wait"
    condition: Condition
    timeout_ms: int | None = None


@dataclass(frozen=True, kw_only=True, slots=True)
class StopBefore(StepBase):
    """Find the control that does an irreversible action and stop in front of it."""

    KIND: ClassVar[str] = "stop_before"
    action: str


@dataclass(frozen=True, kw_only=True, slots=True)
class If(StepBase):
    """Branch on the screen."""

    KIND: ClassVar[str] = "if"
    condition: Condition
    then: tuple[Step, ...]
    else_: tuple[Step, ...] = ()


@dataclass(frozen=True, kw_only=True, slots=True)
class RepeatUntil(StepBase):
    """Repeat ``do`` until the condition holds, at most ``max`` rounds."""

    KIND: ClassVar[str] = "repeat_until"
    condition: Condition
    do: tuple[Step, ...]
    max: int = REPEAT_DEFAULT


@dataclass(frozen=True, kw_only=True, slots=True)
class Do(StepBase):
    """A plain-language intent only a model decider can ground."""

    KIND: ClassVar[str] = "do"
    instruction: str


Step: TypeAlias = (
    Browse
    | Open
    | Click
    | Enter
    | Choose
    | Press
    | Verify
    | Read
    | Upload
    | Download
    | SavePdf
    | Wait
    | StopBefore
    | If
    | RepeatUntil
    | Do
)

STEP_TYPES: tuple[type[StepBase], ...] = (
    Browse,
    Open,
    Click,
    Enter,
    Choose,
    Press,
    Verify,
    Read,
    Upload,
    Download,
    SavePdf,
    Wait,
    StopBefore,
    If,
    RepeatUntil,
    Do,
)
STEP_KINDS: tuple[str, ...] = tuple(t.KIND for t in STEP_TYPES)


@dataclass(frozen=True, slots=True)
class Flow:
    """A parsed flow: its own variables with starting values, and its steps."""

    steps: tuple[Step, ...]
    vars: Mapping[str, JSONValue] = field(default_factory=dict)
