"""The canary: secret facts never show in a view, a report, a log record or a trace.

The scripted runner here is hostile: it echoes the secret values into every field
of its results (step reasons, chosen elements, trace details, read values, the
screen text, gate labels, failure reasons, hints, errors), and the tasks go
through every status. Nothing the controller hands out may hold them.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from gofer.errors import SurfaceError
from gofer.runtime.types import (
    ChosenElement,
    Failure,
    Gate,
    GroundingHint,
    RunRequest,
    RunResult,
    RunStatus,
    Spend,
    StepOutcome,
    StepReport,
    TraceEvent,
)
from gofer.tasks import ScriptedRunner, Tasks, TaskView

CARD = "4111 1111 1111 1111"
PASSWORD = "hunter2-canary-Zq9"
CANARIES = (CARD, "4111111111111111", PASSWORD)
LEAK = f"card {CARD} / 4111111111111111, password {PASSWORD}"

FACTS = {"card number": CARD, "password": PASSWORD, "first name": "Asha"}
# Card details are only typed under fill_then_approve, which needs origins.
PAY = {"payment": "fill_then_approve", "origins": ["https://.example.com"]}
FLOW = [
    {"browse": "https://shop.example.com/"},
    {"enter": "${password}", "into": "Password"},
    {"verify": {"shows": f"Welcome {PASSWORD}"}},
    {"enter": "${card number}", "into": "Card number"},
    {"stop_before": "paying"},
]


def leaky(
    status: RunStatus,
    path: str = "2",
    *,
    label: str = "Send",
    consequence: str = "",
    wall: bool = False,
) -> Any:
    def make(request: RunRequest) -> RunResult:
        top = int(path)
        return RunResult(
            status=status,
            steps=[
                StepReport(
                    path=path,
                    kind="enter",
                    outcome=StepOutcome.DONE,
                    intent=f"type {LEAK}",
                    element=ChosenElement("textbox", LEAK),
                    reason=LEAK,
                )
            ],
            gate=Gate(
                path=path,
                action=f"paying {LEAK}",
                label=f"{label} {PASSWORD}",
                consequence=consequence or "irreversible",
                payment_screen=False,
            )
            if status is RunStatus.GATED
            else None,
            failure=Failure(path=path, kind="verify", reason=f"did not see {LEAK}")
            if status is RunStatus.FAILED
            else None,
            variables={"seen": LEAK, **request.variables},
            changed={"seen": LEAK, "list": [{"card": CARD}], "password": PASSWORD},
            trace=[
                TraceEvent(
                    at_ms=1.0,
                    path=path,
                    event="typed",
                    detail={"value": LEAK, "nested": [LEAK, {"deep": PASSWORD}]},
                )
            ],
            hints=[
                GroundingHint(
                    site="https://shop.example.com",
                    kind="enter",
                    words="Card number",
                    role="textbox",
                    name=LEAK,
                )
            ],
            spend=Spend(actions=1),
            top_level_done=top,
            screen_text=("Verify you are human. " if wall else "") + LEAK,
            wall="a human check" if wall else None,
            reason=LEAK,
        )

    return make


def find_canaries(text: str) -> list[str]:
    return [canary for canary in CANARIES if canary in text]


async def test_no_secret_leaves_through_any_status_view_report_log_or_trace(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    runner = ScriptedRunner.of(
        # 1: needs_input -> running -> needs_approval -> approve -> done
        leaky(RunStatus.GATED, "4"),
        leaky(RunStatus.COMPLETED, "0"),
        leaky(RunStatus.COMPLETED, "1"),
        # 2: needs_human -> continue -> failed (recoverable) -> cancel
        leaky(RunStatus.FAILED, "2", wall=True),
        leaky(RunStatus.FAILED, "2"),
        # 3: checkpoint -> cancel
        leaky(RunStatus.GATED, "4", label="Pay now", consequence="payment"),
        # 4: budget spent
        leaky(RunStatus.BUDGET_SPENT, "0"),
        # 5: invalid run
        leaky(RunStatus.INVALID, "0"),
        # 6 and 7: the runner raises
        SurfaceError(f"could not type {LEAK}"),
        RuntimeError(f"crashed while typing {LEAK}"),
    )
    seen: list[str] = []

    def keep(view: TaskView) -> TaskView:
        seen.append(view.model_dump_json())
        return view

    async with Tasks(runner) as tasks:

        async def follow(task_id: str) -> TaskView:
            async for view in tasks.watch(task_id):
                keep(view)
            return keep(await tasks.await_task({"id": task_id, "timeout_ms": 2000}))

        flow_with_question = [*FLOW[:1], {"enter": "${email}", "into": "Email"}, *FLOW[1:]]
        one = keep(
            await tasks.start_task({"flow": flow_with_question, "facts": FACTS, "constraints": PAY})
        )
        assert one.status.state == "needs_input"
        keep(await tasks.continue_task({"id": one.id, "inputs": {"email": "asha@example.com"}}))
        assert (await follow(one.id)).status.state == "needs_approval"
        keep(await tasks.continue_task({"id": one.id, "approve": True}))
        assert (await follow(one.id)).status.state == "done"

        two = keep(await tasks.start_task({"flow": FLOW, "facts": FACTS, "constraints": PAY}))
        assert (await follow(two.id)).status.state == "needs_human"
        keep(await tasks.continue_task({"id": two.id}))
        failed = await follow(two.id)
        assert failed.status.state == "failed" and failed.status.recoverable
        keep(await tasks.cancel_task({"id": two.id}))

        # Stopping at payment: the same flow without the card step.
        no_card = [s for s in FLOW if s.get("enter") != "${card number}"]
        three = keep(await tasks.start_task({"flow": no_card, "facts": FACTS}))
        assert (await follow(three.id)).status.state == "checkpoint"
        assert keep(await tasks.cancel_task({"id": three.id})).status.state == "checkpoint"

        for _ in range(4):
            task = keep(await tasks.start_task({"flow": FLOW, "facts": FACTS, "constraints": PAY}))
            assert (await follow(task.id)).status.state == "failed"

        plan = keep(await tasks.start_task({"task": f"pay with {LEAK}", "facts": FACTS}))
        assert plan.status.state == "needs_plan"

        reports = [
            (await tasks.task_report({"id": v.id})).model_dump_json()
            for v in (await tasks.list_tasks()).tasks
        ]
        listing = (await tasks.list_tasks()).model_dump_json()

    # The canaries did reach the runner (as values to type), so the test is wired right.
    assert runner.requests[0][1].variables["password"] == PASSWORD
    assert runner.requests[0][1].private == frozenset({"card number", "password"})
    assert {
        "needs_input",
        "needs_approval",
        "needs_human",
        "checkpoint",
        "done",
        "failed",
        "cancelled",
        "needs_plan",
        "running",
    } <= {state for text in seen for state in (TaskView.model_validate_json(text).status.state,)}
    assert any("‹password›" in text for text in seen)
    assert any("${password}" in report for report in reports)
    assert any('"event":"typed"' in report for report in reports)

    for text in [*seen, *reports, listing]:
        assert find_canaries(text) == [], text
    logs = "\n".join(f"{r.getMessage()} {r.exc_text or ''}" for r in caplog.records)
    assert "crashed" in logs
    assert find_canaries(logs) == []
