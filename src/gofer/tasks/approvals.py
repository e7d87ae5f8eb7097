"""Approvals bound to what was seen: each ``needs_approval`` names its approval (an id)
and the control it would press; approving names that id, which is used once. An id
that is not the approval the task waits for now is refused with APPROVAL_STALE, one
already approved with APPROVAL_USED."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from gofer.runtime.types import Gate
from gofer.tasks import errors
from gofer.tasks.contract import ControlInfo, NeedsApproval, Status
from gofer.tasks.events import Event, Reply

__all__ = ["approval_needed", "check_approval_id", "new_approval_id"]


def new_approval_id() -> str:
    """A fresh approval id (random: one cannot be guessed from another)."""
    return "appr-" + secrets.token_hex(8)


def approval_needed(gate: Gate) -> NeedsApproval:
    """The status asking to approve ``gate``'s control."""
    return NeedsApproval(
        action=gate.action,
        target=gate.label or gate.action,
        approval_id=gate.id or None,
        control=ControlInfo(
            label=gate.label or gate.action,
            kind=gate.role or ("key" if gate.key else "control"),
            address=gate.url,
            section=gate.section,
            record=gate.record,
        ),
    )


def _asked(event: Event) -> str | None:
    """The approval id a logged view asks under, if it asks for one."""
    status = getattr(getattr(event, "view", None), "status", None)
    return status.approval_id if isinstance(status, NeedsApproval) else None


def check_approval_id(
    task_id: str, status: Status, approval_id: str, logged: Sequence[Event]
) -> None:
    """Refuse ``approval_id`` unless it is the approval the task waits for now: one
    approved before that pressed its control is APPROVAL_USED; one the task asked
    again in place of (its control changed), or never asked under, APPROVAL_STALE."""
    issued = used = superseded = False
    for event in logged:
        asked = _asked(event)
        issued = issued or asked == approval_id
        if isinstance(event, Reply) and event.approve and event.approval_id == approval_id:
            used = True
        elif used and asked is not None and asked != approval_id:
            superseded = True
    if used and not superseded:
        raise errors.approval_used(task_id, approval_id)
    if not used and isinstance(status, NeedsApproval) and status.approval_id == approval_id:
        return
    current = status.approval_id if isinstance(status, NeedsApproval) else None
    raise errors.approval_stale(task_id, approval_id, current, known=issued)
