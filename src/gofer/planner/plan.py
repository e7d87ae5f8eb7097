"""``ModelPlanner``: a plain-language task to a checked flow, with up to two repairs."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from gofer.errors import ModelError
from gofer.flow import Flow, flow_guide, validate_flow
from gofer.models import CallMeter, LanguageModel, Message, extract_json_object
from gofer.planner.protocol import PROTOCOL, REPAIRS
from gofer.planner.types import PlanBrief

__all__ = ["ModelPlanner", "plan_messages"]

log = logging.getLogger("gofer.planner")


def plan_messages(brief: PlanBrief) -> list[Message]:
    """The opening conversation: the protocol and guide, then the task and the names."""
    secret = set(brief.secrets)
    shared = [n for n in brief.facts if n not in secret]
    lines = [
        f"The job: {brief.task}",
        f"Surfaces it may use: {', '.join(brief.surfaces) or 'browser'}",
        "Facts you may use as ${name}: " + (", ".join(shared) if shared else "none"),
        "Secret facts (only ever an `enter` step's value): "
        + (", ".join(sorted(secret)) if secret else "none"),
        "Reply with the flow as one JSON object.",
    ]
    return [
        Message("system", PROTOCOL + "\n# The flow guide\n\n" + flow_guide()),
        Message("user", "\n".join(lines)),
    ]


class ModelPlanner:
    """Plans tasks with ``model``: parse and check the reply with the flow validator,
    send an invalid flow back with its errors up to ``repairs`` times.

    Names the flow uses that no fact supplies are left in it: the controller asks
    for them (``needs_input``) before anything runs.
    """

    def __init__(self, model: LanguageModel, *, repairs: int = REPAIRS) -> None:
        self.model = model
        self.repairs = repairs

    async def plan(self, brief: PlanBrief, meter: CallMeter | None = None) -> Flow:
        """A valid flow for ``brief.task``; raises PLAN_INVALID when none came back."""
        messages = plan_messages(brief)
        problems: Sequence[str] = ()
        for attempt in range(self.repairs + 1):
            answer = await self.model.complete(messages, meter=meter)
            flow, problems = _read(answer.text, brief)
            if flow is not None:
                log.info("planner: a flow of %d steps after %d repairs", len(flow.steps), attempt)
                return flow
            log.info(
                "planner: reply %d was not a valid flow (%d problems)", attempt + 1, len(problems)
            )
            messages = [
                *messages,
                Message("assistant", answer.text),
                Message(
                    "user",
                    "That flow is invalid:\n"
                    + "\n".join(f"- {p}" for p in problems)
                    + "\nReply with the whole corrected flow as one JSON object.",
                ),
            ]
        raise ModelError(
            f"the planner gave no valid flow in {self.repairs + 1} tries: "
            + "; ".join(problems[:3]),
            code="PLAN_INVALID",
            problems=list(problems),
        )


def _read(text: str, brief: PlanBrief) -> tuple[Flow | None, list[str]]:
    try:
        data = extract_json_object(text)
    except ModelError as exc:
        return None, [exc.message]
    if "steps" not in data and isinstance(data.get("flow"), dict):
        data = data["flow"]
    flow, check = validate_flow(data, brief.facts, brief.secrets)
    if flow is None or check.problems:
        return None, [p.message for p in check.problems] or ["the reply is not a flow"]
    return flow, []
