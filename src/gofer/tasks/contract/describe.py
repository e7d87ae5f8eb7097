"""What ``describe`` answers: what a controller can do and how to call it."""

from __future__ import annotations

from pydantic import Field, JsonValue

from gofer.tasks.contract.calls import Call, DescribeDetail, Model

__all__ = [
    "CallSchema",
    "DescribeReply",
    "Example",
    "ExampleCall",
    "SurfaceInfo",
]


class SurfaceInfo(Model):
    """Whether a surface can be used, and why not."""

    available: bool
    reason: str | None = None


class CallSchema(Model):
    """JSON Schemas of one call's request and reply."""

    request: dict[str, JsonValue]
    reply: dict[str, JsonValue]


class ExampleCall(Model):
    """One call of a worked example, with the part of the reply that matters."""

    call: Call
    request: dict[str, JsonValue]
    reply: dict[str, JsonValue]


class Example(Model):
    """A worked example: a sequence of calls and what each returns."""

    title: str
    description: str
    calls: list[ExampleCall]


class DescribeReply(Model):
    """What this controller can do and how to call it. The brief leaves out ``guide``,
    ``flow_schema``, ``calls`` and ``examples`` (null) and each step kind's ``fields``;
    ``sections`` says which ``detail`` brings each back."""

    contract_version: str
    detail: DescribeDetail = "full"
    surfaces: dict[str, SurfaceInfo]
    planner_configured: bool
    rescue_configured: bool
    output_configured: bool
    decider_configured: bool
    call_summaries: dict[str, str] = Field(
        default_factory=dict, description="each call in one line: when to make it, what it answers"
    )
    rules: list[str] = Field(
        default_factory=list, description="what every caller must know, one rule a line"
    )
    step_kinds: list[dict[str, JsonValue]]
    limits: dict[str, int]
    sections: dict[str, str] = Field(
        default_factory=dict, description="the other details describe gives, and what each adds"
    )
    guide: str | None = None
    flow_schema: dict[str, JsonValue] | None = None
    calls: dict[str, CallSchema] | None = None
    examples: list[Example] | None = None
