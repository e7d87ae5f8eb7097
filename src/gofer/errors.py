"""gofer's exception tree.

Every error gofer raises on purpose derives from :class:`GoferError` and carries a
stable machine-readable ``code`` (``INVALID_FLOW``, ``UNKNOWN_SECRET``, ...), a
plain-language message, and optional ``details`` for callers. This module imports
nothing of gofer's, so the pure rule packages may use it.

    GoferError
    ├── InvalidFlow            INVALID_FLOW       the flow breaks the contract
    ├── UnknownSecret          UNKNOWN_SECRET     a secret name that is not a fact
    ├── InvalidOutput          INVALID_OUTPUT     an output schema outside the subset
    ├── InvalidRequest         INVALID_REQUEST    a malformed call
    ├── SurfaceError           SURFACE_*          a browser/desktop problem
    │   ├── SurfaceTimeout     *_TIMEOUT          the surface gave up waiting (an action,
    │   │                                         a load) before it could be done
    │   ├── BlockedOrigin      BLOCKED_ORIGIN     a load outside the allowed origins
    │   └── BlockedAddress     BLOCKED_ADDRESS    an address no task may load (not
    │                                             http(s), or a private one the
    │                                             operator did not allow)
    ├── ModelError             MODEL_*            a language model call failed
    │                                              (MODEL_TIMEOUT, MODEL_UNREACHABLE,
    │                                              MODEL_REFUSED, MODEL_BUDGET_SPENT,
    │                                              MODEL_REQUESTS_BLOCKED, ...), or its
    │                                              answers never passed their check
    │                                              (PLAN_INVALID, RESCUE_INVALID)
    ├── TaskError              TASK_* and others  the controller refused a call
    ├── StoreError             STORE_ERROR        the durable store refused or failed
    │   ├── LeaseLost          LEASE_LOST         a write on a lease that is no longer live
    │   └── StoreUnavailable   STORE_UNAVAILABLE  the database could not be reached
    └── ApiError               API_ERROR          a face (HTTP, MCP) refused a request
                                                  (UNAUTHORIZED, REQUEST_TOO_LARGE,
                                                  IDEMPOTENCY_KEY_REUSED, TOO_MANY_STARTS,
                                                  NOT_FOUND, METHOD_NOT_ALLOWED)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pydantic import ValidationError

__all__ = [
    "HINTS",
    "ApiError",
    "BlockedAddress",
    "BlockedOrigin",
    "GoferError",
    "InvalidFlow",
    "InvalidOutput",
    "InvalidRequest",
    "LeaseLost",
    "ModelError",
    "StoreError",
    "StoreUnavailable",
    "SurfaceError",
    "SurfaceTimeout",
    "TaskError",
    "UnknownSecret",
    "invalid_request",
    "problems_of",
]


class GoferError(Exception):
    """Base of every deliberate gofer error: a stable ``code`` plus a message."""

    code: str = "GOFER_ERROR"

    def __init__(self, message: str, *, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.details: dict[str, Any] = details

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """The error as a JSON-ready object for callers, the same on every face:
        ``code``, ``message``, ``hint`` (what to do about it, or null) and ``at``
        (the argument or flow step at fault, or null), then any details."""
        details = dict(self.details)
        hint = details.pop("hint", None) or HINTS.get(self.code)
        at = details.pop("at", None) or _place(details)
        return {"code": self.code, "message": self.message, "hint": hint, "at": at, **details}


HINTS: dict[str, str] = {
    "INVALID_REQUEST": 'fix the argument named in `at`; describe with detail "calls" gives '
    "every call's JSON Schema",
    "INVALID_FLOW": 'fix the step named in `at`; describe with detail "flow" gives the '
    "flow's guide and JSON Schema",
    "UNKNOWN_SECRET": "name in secret_facts only facts you pass in facts",
    "UNKNOWN_TASK": "pass the `id` of a view start_task gave you; list_tasks lists your tasks",
    "WRONG_STATE": "call one of the view's `next` calls instead; await_task shows the view now",
    "UNAUTHORIZED": "send `Authorization: Bearer <token>` with a token from `gofer token create`",
    "TOO_MANY_TASKS": "wait for a task to finish, or cancel_task one you no longer need",
    "PLANNER_UNAVAILABLE": "no planner is configured: write the job as a flow and pass `flow`",
    "ORIGINS_REQUIRED": "list the sites the task may load in constraints.origins",
    "REQUEST_TOO_LARGE": "send a smaller body",
}
"""What a caller does about an error of each code, when the error names nothing better."""


def _place(details: Mapping[str, Any]) -> str | None:
    """Where the first problem in ``details`` is: a request's argument, or a flow's step."""
    problems = details.get("problems")
    if not isinstance(problems, list) or not problems or not isinstance(problems[0], dict):
        return None
    first = problems[0]
    if isinstance(first.get("at"), str):
        return str(first["at"]) or None
    path, field = first.get("path"), first.get("field")
    place = "flow" + (f".steps.{path}" if path not in (None, "") else "")
    return place + (f".{field}" if field else "")


class InvalidFlow(GoferError):
    """The flow does not follow the contract; ``details['problems']`` lists every problem."""

    code = "INVALID_FLOW"


class UnknownSecret(GoferError):
    """A name was marked secret but no fact carries it."""

    code = "UNKNOWN_SECRET"


class InvalidOutput(GoferError):
    """An output schema uses something outside the supported JSON Schema subset."""

    code = "INVALID_OUTPUT"


class InvalidRequest(GoferError):
    """A call's arguments are malformed."""

    code = "INVALID_REQUEST"


class Invalid(Protocol):
    """A failed validation: pydantic's ``ValidationError``, or a web framework's error
    that carries its list (FastAPI's ``RequestValidationError``)."""

    def errors(self) -> Sequence[Mapping[str, Any]]:
        """Each problem, with its ``loc`` and ``msg``."""
        ...


def problems_of(exc: Invalid) -> list[dict[str, str]]:
    """Where a request broke its model and why (``at``, ``message``), never with the
    input itself: a fact's value may be a card number. ``at`` names the argument as the
    caller wrote it, the same over HTTP (whose framework puts ``body`` before it) and
    MCP."""
    framework = not isinstance(exc, ValidationError)
    errors = (
        exc.errors(include_input=False, include_url=False)
        if isinstance(exc, ValidationError)
        else exc.errors()
    )
    problems = []
    for err in errors:
        loc = [str(p) for p in err["loc"]]
        if framework and loc[:1] == ["body"]:
            loc = loc[1:]
        problems.append({"at": ".".join(loc), "message": str(err["msg"])})
    return problems


def invalid_request(exc: Invalid, what: str, *, most: int | None = None) -> InvalidRequest:
    """The :class:`InvalidRequest` for a failed validation: ``"<what>: <at>: <message>;
    ..."`` (the first ``most`` problems; all with None), every problem in its details."""
    problems = problems_of(exc)
    listed = "; ".join(f"{p['at'] or 'request'}: {p['message']}" for p in problems[:most])
    return InvalidRequest(f"{what}: {listed}", problems=problems)


class SurfaceError(GoferError):
    """A surface (browser or desktop) could not do what was asked."""

    code = "SURFACE_ERROR"


class SurfaceTimeout(SurfaceError):
    """The surface waited as long as it may for an action or a load, and gave up."""

    code = "SURFACE_TIMEOUT"


class BlockedOrigin(SurfaceError):
    """A navigation or request went to a site outside the task's ``origins``."""

    code = "BLOCKED_ORIGIN"


class BlockedAddress(SurfaceError):
    """An address no task may load: not http(s) at the top level, or a loopback,
    link-local, private or metadata address the operator did not allow."""

    code = "BLOCKED_ADDRESS"


class ModelError(GoferError):
    """A language model could not be asked, or its answers never made sense."""

    code = "MODEL_ERROR"


class TaskError(GoferError):
    """The task controller refused a call (unknown task, too many tasks, wrong state...)."""

    code = "TASK_ERROR"


class StoreError(GoferError):
    """The durable store (work queue, ledgers) refused a call or failed."""

    code = "STORE_ERROR"


class LeaseLost(StoreError):
    """``renew``, ``finish`` or ``release`` on a lease that expired, was taken over or
    never belonged to that claim's token; nothing was written."""

    code = "LEASE_LOST"


class StoreUnavailable(StoreError):
    """The database could not be reached or answered with a transient failure; the call
    may be retried."""

    code = "STORE_UNAVAILABLE"


class ApiError(GoferError):
    """A face of the service (HTTP, MCP) refused a request before any call was made:
    no or an unknown token, a body over the size limit, a replayed idempotency key
    with another body, more starts than one request may make."""

    code = "API_ERROR"
