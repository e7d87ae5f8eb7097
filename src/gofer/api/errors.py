"""Errors on the wire: each stable code with its HTTP status, and the JSON body.

==========================  ======  ==================================================
code                        status  when
==========================  ======  ==================================================
UNAUTHORIZED                401     no bearer token, or one no owner holds
CROSS_ORIGIN                403     a browser request with the token cookie from another site
STARTED_BY_TASK             403     a task's own turn tried to start a task
UNKNOWN_TASK                404     no task has that id, or another owner's task has it
UNKNOWN_ARTIFACT            404     no such artifact, or it expired
UNKNOWN_FLOW                404     no saved flow of the caller's has that name (version)
UNKNOWN_FILE                404     no upload of the caller's has that id, or the task holds
                                    no file by that name (another owner's answers the same)
NOT_FOUND                   404     no such route
METHOD_NOT_ALLOWED          405     the route takes another method
WRONG_STATE                 409     the call does not fit the task's status
IDEMPOTENCY_KEY_BUSY        409     the first request with this key still runs elsewhere
APPROVAL_STALE, _USED      409     the approval id is not the one the task waits for now,
                                    or it was approved already
LIVE_UNAVAILABLE            409     the task holds no browser here to take over
STILL_BLOCKED               409     "I've done it" while the wall is still on the page
FLOW_LIMIT                  409     a save would keep more saved flows than the operator
                                    allows the caller (names or bytes)
TOO_MANY_FILES              409     a task, or the caller's uploads waiting for one, would
                                    hold more files than the operator allows
REQUEST_TOO_LARGE           413     the body is over the server's limit
FILE_TOO_LARGE              413     a file is larger than the operator allows
INVALID_REQUEST, INVALID_*  422     the request breaks the contract (also UNKNOWN_SECRET,
                                    ORIGINS_REQUIRED, CARD_ENTRY_REFUSED,
                                    IDEMPOTENCY_KEY_REUSED, TOO_MANY_STARTS); a body
                                    that is not JSON, or not UTF-8, is INVALID_REQUEST
PLANNER_UNAVAILABLE, ...    422     the request needs a model pass or surface this
                                    server does not have (OUTPUT_UNAVAILABLE,
                                    SURFACE_UNAVAILABLE, LIVE_UNSUPPORTED): the caller
                                    changes the request (a flow instead of a task), as
                                    ``describe`` tells
TOO_MANY_TASKS              429     every slot holds a live task, or the owner has as
                                    many tasks waiting to run or running as it may
TOO_MANY_STREAMS            429     the owner holds as many event streams open as it may
TOO_MANY_WAITS              429     the owner holds as many await_task calls open as it may
MODEL_*                     502     a language model could not be asked
CLOSED, STORE_UNAVAILABLE   503     the service is closing, or its store is unreachable,
                                    full or read-only (any STORE_* error)
INTERNAL_ERROR              500     a bug (the body says nothing of it)
==========================  ======  ==================================================
"""

from __future__ import annotations

from typing import Any

from gofer.errors import GoferError, ModelError, StoreError

__all__ = ["STATUS", "error_body", "http_status"]

STATUS: dict[str, int] = {
    "UNAUTHORIZED": 401,
    "CROSS_ORIGIN": 403,
    "STARTED_BY_TASK": 403,
    "UNKNOWN_TASK": 404,
    "UNKNOWN_FLOW": 404,
    "UNKNOWN_FILE": 404,
    "TOO_MANY_FILES": 409,
    "FILE_TOO_LARGE": 413,
    "APPROVAL_STALE": 409,
    "APPROVAL_USED": 409,
    "UNKNOWN_ARTIFACT": 404,
    "NOT_FOUND": 404,
    "METHOD_NOT_ALLOWED": 405,
    "WRONG_STATE": 409,
    "IDEMPOTENCY_KEY_BUSY": 409,
    "LIVE_UNAVAILABLE": 409,
    "STILL_BLOCKED": 409,
    "FLOW_LIMIT": 409,
    "REQUEST_TOO_LARGE": 413,
    "INVALID_REQUEST": 422,
    "INVALID_INPUT": 422,
    "INVALID_FLOW": 422,
    "INVALID_OUTPUT": 422,
    "UNKNOWN_SECRET": 422,
    "ORIGINS_REQUIRED": 422,
    "BROWSER_ENDPOINT_REFUSED": 422,
    "CARD_ENTRY_REFUSED": 422,
    "IDEMPOTENCY_KEY_REUSED": 422,
    "TOO_MANY_STARTS": 422,
    "TOO_MANY_TASKS": 429,
    "TOO_MANY_STREAMS": 429,
    "TOO_MANY_WAITS": 429,
    "PLANNER_UNAVAILABLE": 422,
    "OUTPUT_UNAVAILABLE": 422,
    "SURFACE_UNAVAILABLE": 422,
    "LIVE_UNSUPPORTED": 422,
    "CLOSED": 503,
    "STORE_UNAVAILABLE": 503,
}
"""The HTTP status of each stable error code."""


def http_status(exc: GoferError) -> int:
    """The HTTP status ``exc`` is answered with."""
    if exc.code in STATUS:
        return STATUS[exc.code]
    if isinstance(exc, ModelError):
        return 502
    if isinstance(exc, StoreError):  # a full disk, a read-only file: never the caller's fault
        return 503
    if exc.code.startswith("INVALID_"):
        return 422
    return 500 if exc.code in ("INTERNAL_ERROR", "GOFER_ERROR") else 422


def error_body(exc: GoferError) -> dict[str, Any]:
    """``{"error": {"code", "message", "hint", "at", ...details}}`` for ``exc``: the
    same body over HTTP, as an MCP tool error's text, and from the CLI's ``--json``."""
    return {"error": exc.to_dict()}
