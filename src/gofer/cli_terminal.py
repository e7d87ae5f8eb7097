"""What the ``gofer`` commands show and ask a person at a terminal, alike for a task
run embedded (``gofer run``) and one on a server (``gofer start --server``)."""

from __future__ import annotations

import getpass
import json
from typing import TextIO

from gofer.facts import is_secret_name
from gofer.tasks import ContinueTaskRequest, NeedsApproval, NeedsHuman, NeedsInput, TaskView

__all__ = ["ask_at_terminal", "print_details"]


def print_details(view: TaskView, out: TextIO) -> None:
    """The view's status details, one a line, and the calls that come next."""
    status = view.status.model_dump(exclude={"state"}, mode="json")
    for key, value in status.items():
        shown = (
            "(see `gofer describe`)" if key == "guide" else json.dumps(value, ensure_ascii=False)
        )
        out.write(f"  {key}: {shown}\n")
    out.write(f"  next: {', '.join(str(c) for c in view.next)}\n")


def ask_at_terminal(view: TaskView, stdin: TextIO, out: TextIO) -> ContinueTaskRequest | None:
    """Ask the person what the paused task needs (values, secret ones unechoed; an
    approval; a person's step in the browser): the answer to send, or None when they
    give none."""
    status = view.status
    if isinstance(status, NeedsInput):
        inputs: dict[str, str] = {}
        secret: list[str] = []
        for name in status.fields:
            if is_secret_name(name):
                value = getpass.getpass(f"{name} (hidden): ")
                secret.append(name)
            else:
                out.write(f"{name}: ")
                out.flush()
                value = stdin.readline().rstrip("\n")
            if not value:
                return None
            inputs[name] = value
        return ContinueTaskRequest(id=view.id, inputs=inputs, secret_inputs=secret)
    if isinstance(status, NeedsApproval):
        out.write(f"Press '{status.target}' ({status.action})? [y/N] ")
        out.flush()
        yes = stdin.readline().strip().casefold() in ("y", "yes")
        return ContinueTaskRequest(id=view.id, approve=yes, approval_id=status.approval_id)
    if isinstance(status, NeedsHuman):
        out.write(
            f"A person must get past {status.reason} in the browser; "
            "press Enter when done (or type 'q' to stop): "
        )
        out.flush()
        if stdin.readline().strip().casefold() == "q":
            return None
        return ContinueTaskRequest(id=view.id)
    return None
