"""A task's working state as JSON, for the event log: what a run left, read back by
the next run on any worker.

Each run that ends writes the task's state into its ``ended`` event: the flow (a
planned one too), the segments still to run, the approval waiting, how far the flow
got, the variables and records read, the hints and rescues, what was spent, and the
page the browser was on. A later turn, on this worker or another one, or after a
restart, rebuilds the task's :class:`Cell` from it and goes on from there.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from gofer.decide.types import GroundingHint
from gofer.facts import Facts
from gofer.flow import flow_to_json, parse_flow
from gofer.flow.steps import Flow, Step
from gofer.runtime.types import Gate, Spend
from gofer.tasks.budget import BudgetLedger
from gofer.tasks.cell import Cell, Segment
from gofer.tasks.contract import PersonStepInfo, RescueInfo, StartTaskRequest, TaskView
from gofer.tasks.runner import WorkspaceOptions

__all__ = ["last_address", "restore", "snapshot"]


def _steps_json(steps: tuple[Step, ...]) -> list[Any]:
    if not steps:
        return []
    steps_json: list[Any] = flow_to_json(Flow(steps=steps))["steps"]
    return steps_json


def _steps(data: list[Any]) -> tuple[Step, ...]:
    return parse_flow(data).steps if data else ()


def _gate(data: dict[str, Any] | None) -> Gate | None:
    return None if data is None else Gate(**data)


def snapshot(cell: Cell, address: str | None) -> dict[str, Any]:
    """``cell``'s working state as JSON data (``address``: the page its browser is on)."""
    ledger = cell.ledger
    return {
        "flow": flow_to_json(cell.flow) if cell.flow is not None else None,
        "pending": [
            {
                "steps": _steps_json(seg.steps),
                "base": seg.base,
                "allow_destructive": seg.allow_destructive,
                "gate": asdict(seg.gate) if seg.gate is not None else None,
                "rescue": seg.rescue,
                "rescue_steps": seg.rescue_steps,
            }
            for seg in cell.pending
        ],
        "approval": asdict(cell.approval) if cell.approval is not None else None,
        "finished_top": cell.finished_top,
        "variables": dict(cell.variables),
        "records": dict(cell.records),
        "hints": [asdict(h) for h in cell.hints],
        "rescues": [r.model_dump(mode="json") for r in cell.rescues],
        "person": [p.model_dump(mode="json") for p in cell.person],
        "spend": {
            "actions": ledger.spent.actions,
            "model_calls": ledger.spent.model_calls,
            "elapsed_ms": ledger.elapsed_ms,
            "runs": ledger.runs,
            "rescues": ledger.rescues,
        },
        "address": address,
    }


def last_address(state: dict[str, Any] | None) -> str | None:
    """The page the task's browser was on when its last run ended (None: none known)."""
    address = (state or {}).get("address")
    return address if isinstance(address, str) and address else None


def restore(
    task_id: str,
    request: StartTaskRequest,
    facts: Facts,
    options: WorkspaceOptions,
    view: TaskView,
    state: dict[str, Any] | None,
) -> Cell:
    """The task's :class:`Cell` as its last run left it (``state`` None: before any
    run, with the request's flow as the one segment to run)."""
    flow: Flow | None = None
    if state is not None and state.get("flow") is not None:
        flow = parse_flow(state["flow"])
    elif request.flow is not None:
        flow = parse_flow(request.flow)
    cell = Cell(
        id=task_id,
        goal=request.task,
        flow=flow,
        facts=facts,
        constraints=request.constraints,
        ledger=BudgetLedger(request.budget),
        output=request.output,
        options=options,
        view=view,
    )
    if state is None:
        cell.hints = [GroundingHint(**h.model_dump()) for h in request.hints]
        if flow is not None:
            cell.pending = [Segment(flow.steps, 0, request.constraints.allow_destructive)]
        return cell
    cell.pending = [
        Segment(
            _steps(seg["steps"]),
            int(seg["base"]),
            bool(seg["allow_destructive"]),
            _gate(seg.get("gate")),
            rescue=int(seg.get("rescue", -1)),
            rescue_steps=int(seg.get("rescue_steps", 0)),
        )
        for seg in state.get("pending", [])
    ]
    cell.approval = _gate(state.get("approval"))
    cell.finished_top = int(state.get("finished_top", 0))
    cell.variables = dict(state.get("variables", {}))
    cell.records = dict(state.get("records", {}))
    cell.hints = [GroundingHint(**h) for h in state.get("hints", [])]
    cell.rescues = [RescueInfo.model_validate(r) for r in state.get("rescues", [])]
    cell.person = [PersonStepInfo.model_validate(p) for p in state.get("person", [])]
    spend = state.get("spend", {})
    cell.ledger.spent = Spend(
        actions=int(spend.get("actions", 0)), model_calls=int(spend.get("model_calls", 0))
    )
    cell.ledger.elapsed_ms = float(spend.get("elapsed_ms", 0.0))
    cell.ledger.runs = int(spend.get("runs", 0))
    cell.ledger.rescues = int(spend.get("rescues", 0))
    return cell
