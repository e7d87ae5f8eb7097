"""What the task page needs to offer "save this as a flow": the names the saved flow
will ask for, the request its form makes, and the note shown once it is saved."""

from __future__ import annotations

import re

from pydantic import ValidationError

from gofer.errors import invalid_request
from gofer.tasks import FLOW_NAME_PATTERN, PersonStepInfo, SaveFlowRequest, flow_params

__all__ = ["flow_params", "person_params", "save_request", "saved_note"]

_SAVED = re.compile(FLOW_NAME_PATTERN[:-1] + r" v[0-9]{1,6}$")
_PARAM = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_ .-]*)\}")


def person_params(person: list[PersonStepInfo]) -> list[str]:
    """The ``${names}`` the person's steps ask for, in the order they come."""
    names: list[str] = []
    for info in person:
        for value in info.step.values():
            if isinstance(value, str):
                names.extend(n for n in _PARAM.findall(value) if n not in names)
    return names


def save_request(task_id: str, name: object, description: object) -> SaveFlowRequest:
    """The save the page's form asks for (INVALID_REQUEST for a name that does not fit)."""
    try:
        return SaveFlowRequest(
            name=name if isinstance(name, str) else "",
            description=description if isinstance(description, str) else "",
            task_id=task_id,
        )
    except ValidationError as exc:
        raise invalid_request(exc, "the flow's name does not fit") from None


def saved_note(saved: str | None) -> str | None:
    """``name vN`` from the page's address once a save went through; None for anything
    else (only a name and a version are ever shown back)."""
    return saved if saved is not None and _SAVED.fullmatch(saved) else None
