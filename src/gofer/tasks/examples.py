"""Worked examples of the task API, as ``describe`` returns them.

Each example is a sequence of calls with their requests and the part of each reply
that matters. A unit test plays every example through a controller on a
:class:`~gofer.tasks.seams.ScriptedRunner` fed with the example's ``script``, and
checks each documented reply, so the examples cannot drift from what the API does.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import JsonValue

from gofer.tasks.contract import (
    Call,
    Example,
    ExampleCall,
)
from gofer.tasks.state import State
from gofer.tasks.testing import ScriptEntry, complete, fail, gate

__all__ = ["WORKED_EXAMPLES", "WorkedExample", "examples"]

_SITE = "https://flights.example.com/"


@dataclass(frozen=True, slots=True)
class WorkedExample:
    """An example as published, plus the scripted runs that make it play out."""

    example: Example
    script: tuple[ScriptEntry, ...]


def _call(
    call: Call,
    request: dict[str, JsonValue],
    state: State | None,
    next_calls: list[Call] | None = None,
) -> ExampleCall:
    reply: dict[str, JsonValue] = {}
    if state is not None:
        reply["status"] = {"state": str(state)}
    if next_calls is not None:
        reply["next"] = [str(c) for c in next_calls]
    return ExampleCall(call=call, request=request, reply=reply)


_AWAIT: dict[str, JsonValue] = {"id": "task-1", "timeout_ms": 60000}
_SEARCH: list[JsonValue] = [
    {"browse": _SITE},
    {"choose": "Delhi", "in": "From"},
    {"choose": "Srinagar", "in": "To"},
    {"choose": "14 October", "in": "Departure date"},
    {"click": "Search flights"},
    {"choose": "Lowest price", "in": "Sort by"},
    {"read": "the first result: airline, departure time and price", "as": "cheapest"},
]

WORKED_EXAMPLES: tuple[WorkedExample, ...] = (
    WorkedExample(
        Example(
            title="Run a flow to the end",
            description="Start a task with a flow, wait for it, then read the full report. "
            "The answer lists what the flow read.",
            calls=[
                _call(
                    Call.START_TASK,
                    {"flow": {"vars": {"cheapest": ""}, "steps": _SEARCH}},
                    State.RUNNING,
                    [Call.AWAIT_TASK, Call.CANCEL_TASK],
                ),
                _call(Call.AWAIT_TASK, _AWAIT, State.DONE, [Call.TASK_REPORT]),
                _call(Call.TASK_REPORT, {"id": "task-1"}, None),
            ],
        ),
        (complete({"cheapest": "IndiGo · 08:00 · ₹7,346"}),),
    ),
    WorkedExample(
        Example(
            title="Give a value the flow needs",
            description="A ${name} that no fact supplies is asked for before anything runs; "
            "answer with inputs.",
            calls=[
                _call(
                    Call.START_TASK,
                    {
                        "flow": [
                            {"browse": _SITE + "contact"},
                            {"enter": "${first name}", "into": "First name"},
                            {"enter": "${email}", "into": "Email"},
                        ],
                        "facts": {"first name": "Asha"},
                    },
                    State.NEEDS_INPUT,
                    [Call.CONTINUE_TASK, Call.CANCEL_TASK],
                ),
                _call(
                    Call.CONTINUE_TASK,
                    {"id": "task-1", "inputs": {"email": "asha@example.com"}},
                    State.RUNNING,
                ),
                _call(Call.AWAIT_TASK, _AWAIT, State.DONE),
            ],
        ),
        (complete(),),
    ),
    WorkedExample(
        Example(
            title="Approve an irreversible action",
            description="A stop_before stops in front of the control; approving presses it "
            "and runs the rest, declining cancels the task.",
            calls=[
                _call(
                    Call.START_TASK,
                    {
                        "flow": [
                            {"browse": _SITE + "support"},
                            {"enter": "${message}", "into": "Message"},
                            {"stop_before": "sending the message"},
                            {"verify": {"shows": "Message sent"}},
                        ],
                        "facts": {"message": "Please change my seat to 12A."},
                    },
                    State.RUNNING,
                ),
                _call(
                    Call.AWAIT_TASK,
                    _AWAIT,
                    State.NEEDS_APPROVAL,
                    [Call.CONTINUE_TASK, Call.CANCEL_TASK],
                ),
                _call(Call.CONTINUE_TASK, {"id": "task-1", "approve": True}, State.RUNNING),
                _call(Call.AWAIT_TASK, _AWAIT, State.DONE),
            ],
        ),
        (gate("2", "Send"), complete(), complete()),
    ),
    WorkedExample(
        Example(
            title="Stop before paying",
            description="A booking ends at a final checkpoint in front of the control that "
            "pays; the browser stays open on that page for a person until cancel_task releases "
            "it, and the status stays checkpoint (released true).",
            calls=[
                _call(
                    Call.START_TASK,
                    {
                        "flow": [
                            *_SEARCH[:5],
                            {"click": "Select", "within": "the first result"},
                            {"enter": "${first name}", "into": "First name"},
                            {"stop_before": "paying for the booking"},
                        ],
                        "facts": {"first name": "Asha"},
                        "constraints": {"origins": ["https://.example.com"]},
                    },
                    State.RUNNING,
                ),
                _call(
                    Call.AWAIT_TASK, _AWAIT, State.CHECKPOINT, [Call.CANCEL_TASK, Call.TASK_REPORT]
                ),
                _call(Call.CANCEL_TASK, {"id": "task-1"}, State.CHECKPOINT, [Call.TASK_REPORT]),
            ],
        ),
        (gate("7", "Pay now", "payment"),),
    ),
    WorkedExample(
        Example(
            title="Get a person past a captcha",
            description="A step that fails in front of a captcha or a login wall waits for a "
            "person; continuing runs that step and the rest again on the same page.",
            calls=[
                _call(Call.START_TASK, {"flow": _SEARCH[:5]}, State.RUNNING),
                _call(
                    Call.AWAIT_TASK,
                    _AWAIT,
                    State.NEEDS_HUMAN,
                    [Call.CONTINUE_TASK, Call.CANCEL_TASK],
                ),
                _call(Call.CONTINUE_TASK, {"id": "task-1"}, State.RUNNING),
                _call(Call.AWAIT_TASK, _AWAIT, State.DONE),
            ],
        ),
        (
            fail("4", "no control named Search flights", screen_text="Verify you are human"),
            complete(),
        ),
    ),
    WorkedExample(
        Example(
            title="A plain-language task with no planner",
            description="Without a planner configured, a task given in words answers "
            "needs_plan with the flow guide; write a flow with it and start again.",
            calls=[
                _call(
                    Call.START_TASK,
                    {"task": "Find the cheapest flight from Delhi to Srinagar on 14 October"},
                    State.NEEDS_PLAN,
                    [Call.START_TASK],
                ),
            ],
        ),
        (),
    ),
)


def examples() -> list[Example]:
    """The published examples."""
    return [worked.example for worked in WORKED_EXAMPLES]
