"""``describe``: capabilities, schemas for every call, and worked examples that really run."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gofer.flow import CONTRACT_VERSION
from gofer.tasks import Call, ScriptedRunner, Tasks
from gofer.tasks.examples import WORKED_EXAMPLES, WorkedExample


async def test_describe_reports_surfaces_model_passes_kinds_guide_and_limits() -> None:
    runner = ScriptedRunner(surfaces={"browser": None, "desktop": "not built yet"})
    async with Tasks(runner) as tasks:
        reply = await tasks.describe()
    assert reply.contract_version == CONTRACT_VERSION
    assert reply.surfaces["browser"].available is True
    assert reply.surfaces["desktop"].model_dump() == {"available": False, "reason": "not built yet"}
    assert (
        reply.planner_configured,
        reply.rescue_configured,
        reply.output_configured,
        reply.decider_configured,
    ) == (False, False, False, False)
    assert "stop_before" in [kind["name"] for kind in reply.step_kinds]
    assert "stop_before" in reply.guide
    assert reply.limits["MAX_TASKS"] == 32
    assert reply.limits["MAX_AWAIT_MS"] == 60_000
    json.dumps(reply.model_dump(mode="json"))


async def test_describe_gives_a_schema_for_every_calls_request_and_reply() -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        calls = (await tasks.describe()).calls
    assert set(calls) == {str(call) for call in Call}
    start = calls["start_task"]
    assert {"task", "flow", "facts", "constraints", "budget", "output"} <= set(
        start.request["properties"]
    )  # type: ignore[arg-type]
    view_defs = start.reply["$defs"]
    assert isinstance(view_defs, dict)
    states = {
        name
        for name in view_defs
        if name
        in {
            "Running",
            "NeedsInput",
            "NeedsApproval",
            "NeedsHuman",
            "Checkpoint",
            "NeedsPlan",
            "Done",
            "Failed",
            "Cancelled",
        }
    }
    assert len(states) == 9
    assert "schema" in json.dumps(calls["start_task"].request)


@pytest.mark.parametrize("worked", WORKED_EXAMPLES, ids=lambda w: w.example.title)
async def test_every_worked_example_plays_out_as_documented(worked: WorkedExample) -> None:
    runner = ScriptedRunner.of(*worked.script)
    async with Tasks(runner) as tasks:
        started: str | None = None  # ids are random: the examples' "task-1" names this one
        for step in worked.example.calls:
            method = getattr(tasks, step.call.value)
            request = step.request
            if started is not None and isinstance(request, dict) and "id" in request:
                request = {**request, "id": started}
            reply: Any = await method(request)
            if step.call == Call.START_TASK:
                started = reply.id
            expected: Any = step.reply
            if "status" in expected:
                assert reply.status.model_dump()["state"] == expected["status"]["state"], (
                    step.call,
                    expected,
                )
            if "next" in expected:
                assert [str(c) for c in reply.next] == expected["next"]
    assert not runner.script, "every scripted run was used"


async def test_describe_publishes_the_worked_examples() -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        examples = (await tasks.describe()).examples
    assert [e.title for e in examples] == [w.example.title for w in WORKED_EXAMPLES]
    states = {
        c.reply.get("status", {}).get("state")
        for e in examples  # type: ignore[union-attr]
        for c in e.calls
    }
    assert {
        "done",
        "needs_input",
        "needs_approval",
        "checkpoint",
        "needs_human",
        "needs_plan",
    } <= states
