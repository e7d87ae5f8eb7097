"""The flow guide: markdown that teaches a person or a model to write flows.

Generated from the same specs that drive the parser, so it cannot drift from the
validator; every example in it is checked by the tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from gofer.flow.names import MAX_NAME_LENGTH
from gofer.flow.problems import PROBLEM_CODES
from gofer.flow.spec import (
    CONDITION_FORMS,
    KIND_SPECS,
    MODIFIERS,
    STEP_OUTCOMES,
    TIMEOUT_MAX_MS,
    FieldSpec,
    KindSpec,
)
from gofer.flow.steps import CONTRACT_VERSION, MAX_DEPTH, MAX_STEPS, REPEAT_DEFAULT, REPEAT_MAX

__all__ = ["EXAMPLES", "Example", "flow_guide"]


@dataclass(frozen=True, slots=True)
class Example:
    """A worked example: what it shows, the facts it expects, and the flow."""

    title: str
    about: str
    flow: dict[str, Any] | list[Any]
    facts: tuple[str, ...] = ()
    secrets: tuple[str, ...] = field(default=())


EXAMPLES: tuple[Example, ...] = (
    Example(
        "Book a room, up to payment",
        "Fill a booking form from the caller's facts, read what it costs, and stop in front "
        "of the payment so the caller decides. `total` starts empty and a `read` fills it, "
        "so it comes back as a record.",
        {
            "vars": {"total": ""},
            "steps": [
                {"browse": "https://hotel.example/"},
                {"enter": "${city}", "into": "Destination"},
                {"choose": "${check-in}", "in": "Check-in date"},
                {"choose": "${check-out}", "in": "Check-out date"},
                {"click": "Search", "intent": "look for rooms on those dates"},
                {"choose": "Price (lowest first)", "in": "Sort by"},
                {"click": "Reserve", "within": "the first room"},
                {"enter": "${first name}", "into": "First name"},
                {"enter": "${last name}", "into": "Last name"},
                {"enter": "${email}", "into": "Email address"},
                {
                    "if": {"shows": "Add breakfast"},
                    "then": [{"choose": "No breakfast", "in": "Breakfast"}],
                },
                {"click": "Continue to payment"},
                {"read": "the total price with taxes", "as": "total"},
                {"stop_before": "paying for the booking"},
            ],
        },
        facts=("city", "check-in", "check-out", "first name", "last name", "email"),
    ),
    Example(
        "Search and read a list of results",
        "Search a shop, load more results a few times, and read every result as a record. "
        "A bare list of steps is a flow too.",
        [
            {"browse": "https://shop.example/"},
            {
                "if": "a cookie banner is showing",
                "then": [{"click": "Accept all"}],
                "optional": True,
            },
            {"enter": "${query}", "into": "Search products", "submit": True},
            {"wait": {"not_shows": "Loading"}, "timeout_ms": 20000},
            {
                "repeat_until": {"any": [{"not_shows": "Load more"}, {"shows": "48 of"}]},
                "do": [{"click": "Load more"}],
                "max": 3,
            },
            {"read": "each result: name, price and rating", "as": "results", "list": True},
        ],
        facts=("query",),
    ),
    Example(
        "Sign in with a secret password",
        "A secret fact goes only into an `enter` step's value; anywhere else the flow is "
        "rejected before it runs. Here `password` is secret and `email` is shared.",
        {
            "vars": {"balance": ""},
            "steps": [
                {"browse": "https://bank.example/login"},
                {"enter": "${email}", "into": "Email"},
                {"enter": "${password}", "into": "Password", "submit": True},
                {"wait": {"any": [{"shows": "Sign out"}, {"shows": "Incorrect password"}]}},
                {"verify": {"shows": "Sign out"}, "intent": "make sure the sign-in worked"},
                {"click": "Accounts"},
                {"read": "the current account balance", "as": "balance"},
                {
                    "if": {"var": "balance", "empty": True},
                    "then": [{"do": "find where the balance of the current account is shown"}],
                    "else": [{"press": "Escape"}],
                },
            ],
        },
        facts=("email", "password"),
        secrets=("password",),
    ),
    Example(
        "Apply with a CV, keep the receipt and read it",
        "Files given to the task (`cv`, and `passport`, a secret file) go into the form's "
        "upload controls; the confirmation page is kept as a PDF and the receipt the site "
        "offers is downloaded, then read. Each kept file comes back as a record: its name, "
        "type, size and SHA-256.",
        [
            {"browse": "https://jobs.example/apply"},
            {"enter": "${full name}", "into": "Full name"},
            {"upload": "${cv}", "into": "Upload your CV"},
            {"upload": "${passport}", "into": "Identity document"},
            {"click": "Submit application"},
            {"wait": {"shows": "Application received"}},
            {"save_pdf": "confirmation"},
            {"download": "Download your receipt", "as": "receipt"},
            {"read": "the application number", "from": "receipt", "as": "application number"},
        ],
        facts=("full name", "cv", "passport"),
        secrets=("passport",),
    ),
)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _render(flow: dict[str, Any] | list[Any]) -> str:
    """A flow as JSON with one step per line."""
    steps = flow["steps"] if isinstance(flow, dict) else flow
    body = ",\n".join(f"    {_json(step)}" for step in steps)
    if isinstance(flow, list):
        return "[\n" + body.replace("\n    ", "\n  ").removeprefix("  ") + "\n]"
    head = [f'  "{key}": {_json(value)},' for key, value in flow.items() if key != "steps"]
    return "\n".join(["{", *head, '  "steps": [', body, "  ]", "}"])


def _fields_summary(spec: KindSpec) -> str:
    parts = []
    for fs in spec.fields:
        name = fs.short if fs is spec.main else f"`{fs.key}` {fs.short}"
        parts.append(name if fs.required else f"optional {name}")
    return ", ".join(parts)


def _field_row(fs: FieldSpec) -> str:
    needed = "required" if fs.required else "optional"
    default = f" (default `{_json(fs.default)}`)" if fs.default not in (None, ()) else ""
    return f"| `{fs.key}` | {fs.type_label} | {needed}{default} | {fs.description} |"


def _kinds_section() -> list[str]:
    lines = [
        "## Step kinds",
        "",
        "Every step is an object with exactly one kind key. Target words name a control the "
        "way the screen itself names it: its label, its text, its placeholder, its "
        "accessible name.",
        "",
        "| kind | fields | does |",
        "| --- | --- | --- |",
    ]
    lines += [f"| `{k.kind}` | {_fields_summary(k)} | {k.summary} |" for k in KIND_SPECS]
    for spec in KIND_SPECS:
        lines += [
            "",
            f"### `{spec.kind}`",
            "",
            f"{spec.summary[0].upper()}{spec.summary[1:]}.",
            "",
            "| field | type | required | meaning |",
            "| --- | --- | --- | --- |",
            *(_field_row(fs) for fs in spec.fields),
            "",
            f"`{_json(spec.example)}`",
        ]
    return lines


def _modifiers_section() -> list[str]:
    return [
        "## Modifiers",
        "",
        "Any step may carry these.",
        "",
        "| field | type | required | meaning |",
        "| --- | --- | --- | --- |",
        *(_field_row(fs) for fs in MODIFIERS),
    ]


def _conditions_section() -> list[str]:
    lines = [
        "## Conditions",
        "",
        "`verify`, `wait`, `if` and `repeat_until` take a condition. Words are judged "
        "against the screen and need a model decider to judge reliably; the object forms "
        "are checked deterministically and need none.",
        "",
        "| form | holds when |",
        "| --- | --- |",
    ]
    lines += [f"| `{_json(f.example)}` | {f.description} |" for f in CONDITION_FORMS]
    return lines


def _variables_section() -> list[str]:
    return [
        "## Variables, facts and secrets",
        "",
        "`${name}` anywhere in a string stands for a variable or a fact. Names may hold "
        "letters, digits, spaces, hyphens and underscores (`${first name}`), at most "
        f"{MAX_NAME_LENGTH} characters. `vars` declares the flow's own variables with their "
        "starting values: one the caller passes and the flow leaves as it was is input; one "
        "that starts empty and a `read` fills is a record, reported in the task's answer. A "
        "`read` step's `as` supplies its variable too.",
        "",
        "A name that no variable, no fact and no `read` supplies is a question: the task "
        "asks for it before anything runs. Secret facts (card data, passwords, one-time "
        "codes, identity and account numbers, and any fact the caller marks secret) may "
        "appear only as an `enter` step's value (a secret file, only as an `upload`'s). "
        "Anywhere else, including `browse`, `open`, target words, conditions and `intent`, "
        "the flow is rejected before anything runs.",
        "",
        "A file given to the task is a name too: `${cv}` in an `upload` puts that file into "
        "the page, and nothing else can (an upload never reads a path). A `download` or a "
        "`save_pdf` keeps a file under its `as`: a record of the file's name, type, size and "
        "SHA-256, which a later `upload` may name and a `read` with `from` reads (a CSV's "
        "rows as a table, a PDF's text as its page lays it out, a text file's lines).",
    ]


def _limits_section() -> list[str]:
    return [
        "## Limits",
        "",
        f"- At most {MAX_STEPS} steps, counting the steps inside `if` and `repeat_until`.",
        f"- Steps nest at most {MAX_DEPTH} levels deep (top-level steps are level 1).",
        f"- `repeat_until` runs at most `max` rounds: {REPEAT_DEFAULT} unless given, "
        f"from 1 to {REPEAT_MAX}.",
        f"- `wait.timeout_ms` is from 1 to {TIMEOUT_MAX_MS}.",
        "- A `browse` address starts with `http://` or `https://`, or with a `${name}` "
        "that holds such an address.",
    ]


def _outcomes_section() -> list[str]:
    return [
        "## Step outcomes",
        "",
        "Each step the runtime ran is reported with one of:",
        "",
        *(f"- `{name}`: {meaning}" for name, meaning in STEP_OUTCOMES),
    ]


def _problems_section() -> list[str]:
    return [
        "## Problems",
        "",
        "A flow that breaks these rules is rejected with every problem at once, each with a "
        "code, the step's path (`3` is the fourth top-level step, `5.then.1` the second step "
        "of the sixth step's `then`) and the field.",
        "",
        "| code | meaning |",
        "| --- | --- |",
        *(f"| `{code}` | {meaning} |" for code, meaning in PROBLEM_CODES.items()),
    ]


def _examples_section() -> list[str]:
    lines = ["## Examples"]
    for example in EXAMPLES:
        facts = ", ".join(f"`{name}`" for name in example.facts if name not in example.secrets)
        secrets = ", ".join(f"`{name}`" for name in example.secrets)
        given = f"Facts: {facts}." if facts else ""
        if secrets:
            given += f" Secret facts: {secrets}."
        lines += [
            "",
            f"### {example.title}",
            "",
            example.about,
            *(["", given.strip()] if given else []),
            "",
            "```json",
            _render(example.flow),
            "```",
        ]
    return lines


def flow_guide() -> str:
    """The flow guide as markdown: kinds, fields, modifiers, conditions, variables and
    secrets, limits, outcomes, problem codes, and worked examples."""
    sections = [
        [
            f"# Writing gofer flows (contract {CONTRACT_VERSION})",
            "",
            'A flow is a JSON object, `{"vars": {...}, "steps": [...]}`, that gofer runs '
            "step by step on a browser page or a desktop application. A bare list of steps "
            'is accepted as `{"steps": [...]}`. Write steps in the screen\'s own words, one '
            "action per step, and end any job that pays, sends or deletes with a "
            "`stop_before` naming that action.",
        ],
        _kinds_section(),
        _modifiers_section(),
        _conditions_section(),
        _variables_section(),
        _limits_section(),
        _outcomes_section(),
        _problems_section(),
        _examples_section(),
    ]
    return "\n\n".join("\n".join(section) for section in sections) + "\n"
