"""``describe``: what the controller can do, the flow guide, call schemas, and examples."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pydantic import BaseModel, JsonValue

from gofer.flow import CONTRACT_VERSION, flow_guide, flow_json_schema, step_kinds
from gofer.tasks import limits
from gofer.tasks.contract import (
    AwaitTaskRequest,
    Call,
    CallSchema,
    CancelTaskRequest,
    ContinueTaskRequest,
    DescribeReply,
    DescribeRequest,
    Example,
    ListTasksReply,
    ListTasksRequest,
    PlanTaskReply,
    PlanTaskRequest,
    StartTaskRequest,
    SurfaceInfo,
    TaskReport,
    TaskReportRequest,
    TaskView,
)

__all__ = ["CALL_MODELS", "RunnerPasses", "call_schemas", "describe_reply"]


@dataclass(frozen=True, slots=True)
class RunnerPasses:
    """The model passes the runner holds and the controller never runs, for
    ``describe`` to report (``decider``: the runner asks a model decider)."""

    decider: bool = False


CALL_MODELS: dict[Call, tuple[type[BaseModel], type[BaseModel]]] = {
    Call.DESCRIBE: (DescribeRequest, DescribeReply),
    Call.PLAN_TASK: (PlanTaskRequest, PlanTaskReply),
    Call.START_TASK: (StartTaskRequest, TaskView),
    Call.AWAIT_TASK: (AwaitTaskRequest, TaskView),
    Call.CONTINUE_TASK: (ContinueTaskRequest, TaskView),
    Call.CANCEL_TASK: (CancelTaskRequest, TaskView),
    Call.TASK_REPORT: (TaskReportRequest, TaskReport),
    Call.LIST_TASKS: (ListTasksRequest, ListTasksReply),
}
"""Each call's request and reply model."""

LIMITS: dict[str, int] = {
    "MAX_TASKS": limits.MAX_TASKS,
    "MAX_AWAIT_MS": limits.MAX_AWAIT_MS,
    "DEFAULT_MAX_ACTIONS": limits.DEFAULT_MAX_ACTIONS,
    "DEFAULT_MAX_MODEL_CALLS": limits.DEFAULT_MAX_MODEL_CALLS,
    "MAX_RESCUES": limits.MAX_RESCUES,
    "DEFAULT_VOTES": limits.DEFAULT_VOTES,
    "MAX_VOTES": limits.MAX_VOTES,
    "ARTIFACT_TTL_S": limits.ARTIFACT_TTL_S,
}


@cache
def call_schemas() -> dict[str, CallSchema]:
    """The JSON Schema of every call's request and reply."""
    return {
        str(call): CallSchema(
            request=request.model_json_schema(), reply=reply.model_json_schema(mode="serialization")
        )
        for call, (request, reply) in CALL_MODELS.items()
    }


def describe_reply(
    surfaces: dict[str, str | None],
    *,
    planner: bool,
    rescuer: bool,
    shaper: bool,
    decider: bool,
) -> DescribeReply:
    """The reply to ``describe`` for a controller with these surfaces and model passes."""
    kinds: list[dict[str, JsonValue]] = step_kinds()
    return DescribeReply(
        contract_version=CONTRACT_VERSION,
        surfaces={
            name: SurfaceInfo(available=reason is None, reason=reason)
            for name, reason in surfaces.items()
        },
        planner_configured=planner,
        rescue_configured=rescuer,
        output_configured=shaper,
        decider_configured=decider,
        step_kinds=kinds,
        guide=flow_guide(),
        flow_schema=flow_json_schema(),
        limits=dict(LIMITS),
        calls=call_schemas(),
        examples=_examples(),
    )


def _examples() -> list[Example]:
    """The worked examples (imported here: they are played out on the scripted fake,
    which ``import gofer.tasks`` does not load)."""
    from gofer.tasks.examples import examples

    return examples()
