"""The flow contract: typed steps, parsing from JSON, checking, and the flow guide.

Pure rules: no I/O, and nothing of gofer's but :mod:`gofer.errors`. The problem
codes are listed in :mod:`gofer.flow.problems`.
"""

from __future__ import annotations

from gofer.flow.check import check_flow, validate_flow
from gofer.flow.describe import describe_condition, describe_step
from gofer.flow.guide import EXAMPLES, flow_guide
from gofer.flow.names import is_valid_name, names_in, substitute
from gofer.flow.parse import flow_to_json, parse_flow
from gofer.flow.problems import PROBLEM_CODES, FlowCheck, Problem, ProblemCode
from gofer.flow.schema import flow_json_schema, step_kinds
from gofer.flow.steps import (
    CONTRACT_VERSION,
    MAX_DEPTH,
    MAX_STEPS,
    REPEAT_DEFAULT,
    REPEAT_MAX,
    STEP_KINDS,
    STEP_TYPES,
    AllOf,
    AnyOf,
    Browse,
    Choose,
    Click,
    Condition,
    Do,
    Enter,
    Flow,
    If,
    JSONValue,
    Judged,
    NotShows,
    Open,
    Press,
    Read,
    RepeatUntil,
    Shows,
    Step,
    StepBase,
    StopBefore,
    VarEmpty,
    VarEquals,
    Verify,
    Wait,
)
from gofer.flow.walk import iter_steps, names_in_step, step_at

__all__ = [
    "CONTRACT_VERSION",
    "EXAMPLES",
    "MAX_DEPTH",
    "MAX_STEPS",
    "PROBLEM_CODES",
    "REPEAT_DEFAULT",
    "REPEAT_MAX",
    "STEP_KINDS",
    "STEP_TYPES",
    "AllOf",
    "AnyOf",
    "Browse",
    "Choose",
    "Click",
    "Condition",
    "Do",
    "Enter",
    "Flow",
    "FlowCheck",
    "If",
    "JSONValue",
    "Judged",
    "NotShows",
    "Open",
    "Press",
    "Problem",
    "ProblemCode",
    "Read",
    "RepeatUntil",
    "Shows",
    "Step",
    "StepBase",
    "StopBefore",
    "VarEmpty",
    "VarEquals",
    "Verify",
    "Wait",
    "check_flow",
    "describe_condition",
    "describe_step",
    "flow_guide",
    "flow_json_schema",
    "flow_to_json",
    "is_valid_name",
    "iter_steps",
    "names_in",
    "names_in_step",
    "parse_flow",
    "step_at",
    "step_kinds",
    "substitute",
    "validate_flow",
]
