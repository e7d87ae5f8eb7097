"""gofer.planner: a language model turns a plain-language task into a flow.

It never acts and never sees the screen: it is told the protocol, the flow guide,
the task, the surfaces and the fact *names*; its reply is checked with the flow
validator and sent back with the errors up to :data:`REPAIRS` times.
"""

from __future__ import annotations

from gofer.planner.address import start_address
from gofer.planner.plan import ModelPlanner, plan_messages
from gofer.planner.protocol import PROTOCOL, REPAIRS
from gofer.planner.types import PlanBrief

__all__ = ["PROTOCOL", "REPAIRS", "ModelPlanner", "PlanBrief", "plan_messages", "start_address"]
