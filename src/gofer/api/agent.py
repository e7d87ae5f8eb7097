"""What an agent reads besides the view: the MCP tasks status, where a person acts, and
plain words saying what to call next and with what.

:func:`agent_view` turns a :class:`~gofer.tasks.contract.TaskView` into an
:class:`AgentView`, the view every MCP tool answers with. A caller that follows its
``guidance`` (or just ``next``) cannot get the protocol wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from gofer.api.views import McpTaskStatus, mcp_status
from gofer.facts import is_secret_name
from gofer.safety import Consequence, consequence
from gofer.tasks.contract import Status, StepInfo, TaskView

__all__ = ["AgentView", "agent_view", "guidance_for", "secret_fields"]


class AgentView(BaseModel):
    """A task's view as an MCP client sees it: gofer's view, MCP's status word beside
    gofer's own, the task page for a person, and what to do next."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(description="the task's handle: pass it to every other tool")
    status: Status = Field(description="gofer's status: `state` and its details")
    task_status: McpTaskStatus = Field(
        description="the status in MCP's tasks words: working, input_required, completed, "
        "failed or cancelled"
    )
    summary: str = Field(description="one sentence, with the caller's values redacted")
    step: StepInfo | None
    progress: float = Field(ge=0.0, le=1.0)
    next: list[str] = Field(description="the tools that make sense from here")
    guidance: str = Field(description="what to do next, in plain words")
    page_url: str | None = Field(
        default=None,
        description="the task's page, where a person types secrets, approves payments "
        "and gets past captchas or logins",
    )


def secret_fields(fields: list[str]) -> list[str]:
    """The asked-for names that only a person should type (passwords, card data, ...)."""
    return [name for name in fields if is_secret_name(name)]


def for_a_person(view: TaskView) -> str | None:
    """Why the task needs a person on its page, in a sentence for them, or None when an
    agent may answer it: secret values to type, a payment to approve, a wall to get
    past, a stop a person takes over."""
    status = view.status
    if status.state == "needs_input" and secret_fields(status.fields):
        return (
            f"gofer's task “{view.summary}” needs {_names(secret_fields(status.fields))}, "
            "which only you type, on its page."
        )
    if status.state == "needs_approval" and Consequence.PAYMENT in (
        consequence(status.target),
        consequence(status.action),
    ):
        return (
            f"gofer's task “{view.summary}” waits in front of “{status.target}”, which "
            "pays: approve or decline it on its page."
        )
    if status.state == "needs_human":
        return (
            f"gofer's task “{view.summary}” needs you in its browser: {status.reason}. "
            "Open its page, get past it, then say you are done there."
        )
    if status.state == "checkpoint" and status.continuable:
        return (
            f"gofer's task “{view.summary}” stopped for you: {status.reason}. Open its "
            "page to take over."
        )
    return None


def _names(fields: list[str]) -> str:
    return ", ".join(json.dumps(name, ensure_ascii=False) for name in fields)


def guidance_for(view: TaskView, page_url: str | None) -> str:
    """What a caller should do with a task in ``view``'s status."""
    status = view.status
    page = f" at {page_url}" if page_url else ""
    match status.state:
        case "running":
            return (
                "The task is working in the background. Call await_task with this id; "
                "it returns as soon as the task needs you or finishes (at most 60 s a "
                "call), so call it again while task_status is working."
            )
        case "needs_input":
            secret = secret_fields(status.fields)
            plain = [f for f in status.fields if f not in secret]
            parts = []
            if plain:
                example = json.dumps({name: "..." for name in plain}, ensure_ascii=False)
                parts.append(
                    f"The task needs values for {_names(plain)}. Ask the user for "
                    f"them (never invent them), then call continue_task with this id "
                    f"and inputs {example}."
                )
            if secret:
                parts.append(
                    f"{_names(secret)} {'is' if len(secret) == 1 else 'are'} "
                    f"secret: the person types them on the task page{page}, not in "
                    "this chat. If the user gives one to you anyway, pass it in "
                    "inputs and name it in secret_inputs."
                )
            return " ".join(parts)
        case "needs_approval":
            if (
                consequence(status.target) is Consequence.PAYMENT
                or consequence(status.action) is Consequence.PAYMENT
            ):
                return (
                    f"The task waits in front of “{status.target}”, which pays. Only the "
                    f"person approves a payment: send them to the task page{page}. "
                    "continue_task with approve false cancels the task instead."
                )
            return (
                f"The task waits in front of “{status.target}” ({status.action}), which "
                "cannot be undone. Ask the user; then call continue_task with this id "
                "and approve true to press it, or approve false to cancel the task."
            )
        case "needs_human":
            return (
                f"A person must get past this in the browser: {status.reason}. Send them "
                f"to the task page{page}; once they are past it, call continue_task "
                "with just this id."
            )
        case "checkpoint":
            if status.continuable:
                return (
                    f"The task stopped for a person: {status.reason}. Once they are "
                    "done, call continue_task with this id, or cancel_task."
                )
            return (
                f"The task went as far as it may: {status.reason}. The browser stays "
                f"open there for the person{page}. Call task_report for what it read; "
                "call cancel_task once the person is done, to release the browser."
            )
        case "needs_plan":
            return (
                "No planner is configured, so a plain-language task cannot run. Call "
                "describe for the flow guide, write the job as a flow, and call "
                "start_task with flow."
            )
        case "done":
            return "Finished. Call task_report for everything it read and did."
        case "failed":
            if status.recoverable:
                return (
                    f"A step failed: {status.reason}. Call continue_task with this id to "
                    "try it again (after fixing what stood in the way), or cancel_task."
                )
            return (
                f"The task failed: {status.reason}. Call task_report to see what "
                "happened; start a new task to try again."
            )
        case _:
            return "The task was cancelled. Call task_report to see what it did."


def agent_view(view: TaskView, page_url: Callable[[str], str] | None = None) -> AgentView:
    """``view`` with MCP's status, the task page and guidance."""
    page = page_url(view.id) if page_url is not None else None
    return AgentView(
        id=view.id,
        status=view.status,
        task_status=mcp_status(view.status),
        summary=view.summary,
        step=view.step,
        progress=view.progress,
        next=[str(call) for call in view.next],
        guidance=guidance_for(view, page),
        page_url=page,
    )
