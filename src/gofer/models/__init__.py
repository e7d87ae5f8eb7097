"""gofer.models: language models behind one narrow call, and what their passes share.

* :class:`LanguageModel`: messages in; text, usage and finish reason out.
* :class:`OpenAIChatModel`: any OpenAI-compatible chat completions endpoint.
* :class:`ModelsConfig`: which model each pass (planner, rescue, output, decider)
  asks, on which endpoint.
* :class:`CallMeter`: every call is counted against the task's ``max_model_calls``.
* For tests: :class:`ScriptedModel`, :class:`FunctionModel`,
  :func:`set_model_requests` to make real requests fail, and :class:`ChatServer`, a
  local OpenAI-compatible server with scripted answers.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gofer.models.config import DEFAULT_MODELS, ROLES, ModelRoute, ModelsConfig, open_model
from gofer.models.openai_chat import OpenAIChatModel, ReasoningEffort
from gofer.models.prompting import (
    UNTRUSTED_RULE,
    UNTRUSTED_TAG,
    extract_json_object,
    untrusted,
)
from gofer.models.server import ChatServer, Reply, ServerAnswer
from gofer.models.switch import (
    RequestPolicy,
    check_model_request,
    model_requests,
    set_model_requests,
)
from gofer.models.types import CallMeter, Completion, LanguageModel, Message, Role, Usage

if TYPE_CHECKING:
    from gofer.models.testing import FunctionModel, ModelFunction, ScriptedModel

__all__ = [
    "DEFAULT_MODELS",
    "ROLES",
    "UNTRUSTED_RULE",
    "UNTRUSTED_TAG",
    "CallMeter",
    "ChatServer",
    "Completion",
    "FunctionModel",
    "LanguageModel",
    "Message",
    "ModelFunction",
    "ModelRoute",
    "ModelsConfig",
    "OpenAIChatModel",
    "ReasoningEffort",
    "Reply",
    "RequestPolicy",
    "Role",
    "ScriptedModel",
    "ServerAnswer",
    "Usage",
    "check_model_request",
    "extract_json_object",
    "model_requests",
    "open_model",
    "set_model_requests",
    "untrusted",
]

_FAKES = {"FunctionModel", "ModelFunction", "ScriptedModel"}


def __getattr__(name: str) -> Any:
    """The fake models for tests (:mod:`gofer.models.testing`), imported on first use."""
    if name not in _FAKES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module("gofer.models.testing"), name)
