"""``describe``: capabilities, schemas for every call, and worked examples that really run."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gofer.errors import GoferError
from gofer.flow import CONTRACT_VERSION
from gofer.tasks import Call, ScriptedRunner, Tasks
from gofer.tasks.examples import WORKED_EXAMPLES, WorkedExample


async def test_describe_reports_surfaces_model_passes_kinds_guide_and_limits() -> None:
    runner = ScriptedRunner(surfaces={"browser": None, "desktop": "not built yet"})
    async with Tasks(runner) as tasks:
        reply = await tasks.describe({"detail": "full"})
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
    assert reply.guide is not None and "stop_before" in reply.guide
    assert reply.limits["MAX_TASKS"] == 32
    assert reply.limits["MAX_AWAIT_MS"] == 60_000
    json.dumps(reply.model_dump(mode="json"))


async def test_describe_gives_a_schema_for_every_calls_request_and_reply() -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        calls = (await tasks.describe({"detail": "calls"})).calls
    assert calls is not None
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
        examples = (await tasks.describe({"detail": "examples"})).examples
    assert examples is not None
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


async def test_the_brief_fits_in_a_prompt_and_each_section_comes_on_demand() -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        brief = await tasks.describe()
        replies = {d: await tasks.describe({"detail": d}) for d in ("flow", "calls", "full")}
    assert brief.detail == "brief"
    assert len(brief.model_dump_json(exclude_none=True).encode()) <= 12 * 1024
    assert (brief.guide, brief.flow_schema, brief.calls, brief.examples) == (None,) * 4
    assert {str(call) for call in Call} | {"save_flow"} <= set(brief.call_summaries)
    assert all("example" in kind and "fields" not in kind for kind in brief.step_kinds)
    assert any("checkpoint" in rule and "stop_before" in rule for rule in brief.rules)
    assert set(brief.sections) == {"full", "flow", "calls", "examples"}
    flow = replies["flow"]
    assert flow.guide and flow.flow_schema and flow.calls is None
    assert all("fields" in kind for kind in flow.step_kinds)
    assert replies["calls"].calls is not None and replies["calls"].guide is None
    full = replies["full"]
    assert full.guide and full.flow_schema and full.calls and full.examples


async def test_describe_refuses_a_detail_it_does_not_know() -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        with pytest.raises(GoferError) as refused:
            await tasks.describe({"detail": "everything"})
    assert refused.value.code == "INVALID_REQUEST"
    assert refused.value.to_dict()["at"] == "detail"
