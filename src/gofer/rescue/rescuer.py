"""``ModelRescuer``: a reasoning model's guidance for a failed step, judged, with repairs."""

from __future__ import annotations

import logging

from gofer.errors import ModelError
from gofer.models import CallMeter, LanguageModel, Message, extract_json_object
from gofer.rescue.judge import judge
from gofer.rescue.render import render
from gofer.rescue.types import Briefing, Guidance

__all__ = ["REPAIRS", "ModelRescuer"]

log = logging.getLogger("gofer.rescue")

REPAIRS = 2
"""How many times a rejected answer goes back to the model with what is wrong."""


class ModelRescuer:
    """Asks ``model`` how to get past a failed step; every answer goes through
    :func:`~gofer.rescue.judge.judge`. It never acts and never sees the screen itself:
    only the briefing's text."""

    def __init__(self, model: LanguageModel, *, repairs: int = REPAIRS) -> None:
        self.model = model
        self.repairs = repairs

    async def guide(self, briefing: Briefing, meter: CallMeter | None = None) -> Guidance:
        """Judged guidance; raises RESCUE_INVALID when no valid answer came back, and
        the model's ModelError when a call fails."""
        messages = render(briefing)
        problems: list[str] = []
        for attempt in range(self.repairs + 1):
            answer = await self.model.complete(messages, meter=meter)
            try:
                data = extract_json_object(answer.text)
            except ModelError as exc:
                problems = [exc.message]
            else:
                guidance, problems = judge(data, briefing)
                if guidance is not None:
                    log.info("rescuer: %s after %d repairs", guidance.action, attempt)
                    return guidance
            messages = [
                *messages,
                Message("assistant", answer.text),
                Message(
                    "user",
                    "Those steps are invalid:\n"
                    + "\n".join(f"- {p}" for p in problems[:20])
                    + "\nAnswer again with one corrected JSON object.",
                ),
            ]
        raise ModelError(
            f"the rescuer gave no valid guidance in {self.repairs + 1} tries: "
            + "; ".join(problems[:3]),
            code="RESCUE_INVALID",
            problems=problems,
        )
