"""``ModelShaper``: one pass over a finished task's records into the caller's shape.

The records come from web pages, so they reach the model only wrapped as untrusted
data. The answer is checked against the schema and sent back with what is wrong up
to :data:`REPAIRS` times; one that never fits raises OUTPUT_MISFIT.
"""

from __future__ import annotations

import json
import logging

from gofer.errors import ModelError
from gofer.flow.steps import JSONValue
from gofer.models import (
    UNTRUSTED_RULE,
    CallMeter,
    LanguageModel,
    Message,
    extract_json_object,
    untrusted,
)
from gofer.shape.schema import schema_violations
from gofer.shape.types import ShapeBrief

__all__ = ["REPAIRS", "SHAPE_PROTOCOL", "ModelShaper", "shape_messages"]

log = logging.getLogger("gofer.shape")

REPAIRS = 2
"""How many times a result that does not fit goes back to the model."""

SHAPE_PROTOCOL = f"""\
You give the records a finished web task collected the shape its caller asked for.
Answer with exactly one JSON object and nothing else.
- Use only what the records say; never invent a value. Leave out, or use null for, \
what the records do not hold (as far as the schema allows).
- Follow the caller's instructions and, when one is given, the JSON Schema exactly.
- Values written like ‹name› or ${{name}} stand for the caller's private details: keep \
them exactly as written.
- {UNTRUSTED_RULE}
"""


def shape_messages(brief: ShapeBrief) -> list[Message]:
    """The conversation the shaper opens with."""
    parts = [
        f"The task: {brief.goal or '(not given in words)'}",
        f"The caller's instructions: {brief.instructions}",
    ]
    if brief.schema is not None:
        parts.append(
            "The JSON Schema the answer must fit:\n"
            + json.dumps(brief.schema, ensure_ascii=False, indent=1)
        )
    parts.append(
        "The records the task collected:\n"
        + untrusted(json.dumps(brief.records, ensure_ascii=False, indent=1), "records")
    )
    return [Message("system", SHAPE_PROTOCOL), Message("user", "\n\n".join(parts))]


class ModelShaper:
    """Shapes records with ``model``, repairing a misfit up to ``repairs`` times."""

    def __init__(self, model: LanguageModel, *, repairs: int = REPAIRS) -> None:
        self.model = model
        self.repairs = repairs

    async def shape(self, brief: ShapeBrief, meter: CallMeter | None = None) -> JSONValue:
        """The result; raises OUTPUT_MISFIT when no answer fits."""
        messages = shape_messages(brief)
        wrong: list[str] = []
        for attempt in range(self.repairs + 1):
            answer = await self.model.complete(messages, meter=meter)
            try:
                result: JSONValue = extract_json_object(answer.text)
            except ModelError as exc:
                wrong = [exc.message]
            else:
                wrong = (
                    [str(v) for v in schema_violations(result, brief.schema)]
                    if brief.schema is not None
                    else []
                )
                if not wrong:
                    log.info("shaper: a result after %d repairs", attempt)
                    return result
            messages = [
                *messages,
                Message("assistant", answer.text),
                Message(
                    "user",
                    "That answer does not fit:\n"
                    + "\n".join(f"- {w}" for w in wrong[:20])
                    + "\nAnswer again with the whole corrected JSON object.",
                ),
            ]
        raise ModelError(
            f"no answer fitted in {self.repairs + 1} tries: " + "; ".join(wrong[:3]),
            code="OUTPUT_MISFIT",
            problems=wrong,
        )
