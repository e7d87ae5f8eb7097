"""The errors the controller's calls raise, each with a stable code.

==================== ===================================================================
code                 raised when
==================== ===================================================================
UNKNOWN_TASK         no task has that id (or it was dropped to make room)
TOO_MANY_TASKS       MAX_TASKS live tasks are held and none has finished
WRONG_STATE          the call does not fit the task's status (``details['state']``)
PLANNER_UNAVAILABLE  ``plan_task`` with no planner configured
OUTPUT_UNAVAILABLE   ``output`` asked for with no output shaper configured
ORIGINS_REQUIRED     ``payment: fill_then_approve`` without ``origins``
BROWSER_ENDPOINT_REFUSED  a ``browser_endpoint`` the operator did not allow
CARD_ENTRY_REFUSED   a flow types card details without ``payment: fill_then_approve``
SURFACE_UNAVAILABLE  the task needs a surface the runner cannot give it
UNKNOWN_ARTIFACT     no such artifact, or it expired
LIVE_UNAVAILABLE     the task holds no browser here to take over (let go, or elsewhere)
STILL_BLOCKED        "I've done it" (``continue_task`` after needs_human) while the wall
                     is still on the task's page: the message says what is still showing
CLOSED               the controller was closed
WORKER_FAILED        this process's worker died of an error it could not survive (its
                     claim loop); the process stops
APPROVAL_STALE       ``continue_task`` names an approval the task does not wait for now
                     (the page changed and it asked again, or no such approval)
APPROVAL_USED        ``continue_task`` names an approval already approved (used once)
UNKNOWN_FLOW         no saved flow of the caller's has that name (and version)
FLOW_LIMIT           a save would pass the operator's cap on the caller's saved flows
                     (``details['limit']``: names or bytes)
UNKNOWN_FILE         no upload of the caller's has that id (another owner's is none), or
                     the task holds no file by that name
FILE_TOO_LARGE       a file is larger than the operator allows (``details['limit']``:
                     bytes; GOFER_FILE_BYTES)
TOO_MANY_FILES       a task would hold more files than the operator allows, or the caller
                     more uploads no task took (``details['limit']``; GOFER_FILE_COUNT)
STARTED_BY_TASK      ``start_task`` called from inside a task's own turn (its run, or a
                     model pass of it): a task never starts another task by itself
==================== ===================================================================

Besides these, calls raise :class:`~gofer.errors.InvalidRequest` (``INVALID_REQUEST``),
:class:`~gofer.errors.InvalidFlow` (``INVALID_FLOW``),
:class:`~gofer.errors.InvalidOutput` (``INVALID_OUTPUT``) and
:class:`~gofer.errors.UnknownSecret` (``UNKNOWN_SECRET``).
"""

from __future__ import annotations

from collections.abc import Sequence

from gofer.errors import InvalidRequest, TaskError

__all__ = [
    "approval_stale",
    "approval_used",
    "card_entry_refused",
    "closed",
    "endpoint_refused",
    "file_too_large",
    "flow_limit",
    "live_unavailable",
    "origins_required",
    "output_unavailable",
    "planner_unavailable",
    "seed_unusable",
    "started_by_task",
    "still_blocked",
    "surface_unavailable",
    "too_many_files",
    "too_many_tasks",
    "unknown_artifact",
    "unknown_file",
    "unknown_flow",
    "unknown_task",
    "worker_failed",
    "wrong_state",
]


def unknown_task(task_id: str) -> TaskError:
    """No task has ``task_id``."""
    return TaskError(f"there is no task {task_id!r}", code="UNKNOWN_TASK", id=task_id)


def approval_used(task_id: str, approval_id: str) -> TaskError:
    """``approval_id`` was approved already: an approval presses once."""
    return TaskError(
        f"approval {approval_id!r} of task {task_id!r} was used already; an approval "
        "presses its control once",
        code="APPROVAL_USED",
        id=task_id,
        approval_id=approval_id,
    )


def approval_stale(
    task_id: str, approval_id: str, current: str | None, *, known: bool
) -> TaskError:
    """``approval_id`` is not the approval the task waits for now."""
    why = (
        "the task asked again since (what it would press changed)"
        if known
        else "the task never asked under it"
    )
    # The current id is left out: an approval names what the person was shown, so
    # the caller reads the view again (await_task) rather than retrying with an id.
    now = "; read the task's view again and ask about what it shows now" if current else ""
    return TaskError(
        f"approval {approval_id!r} is not the one task {task_id!r} waits for: {why}{now}",
        code="APPROVAL_STALE",
        id=task_id,
        approval_id=approval_id,
    )


def flow_limit(what: str, limit: int) -> TaskError:
    """A save would keep more of the caller's saved flows than the operator allows."""
    said = {"names": f"{limit} flow names", "bytes": f"{limit} bytes of flows"}[what]
    return TaskError(
        f"saving this would keep more than {said}, the most this server keeps for you: "
        "delete a flow you no longer need first",
        code="FLOW_LIMIT",
        limit=what,
        most=limit,
    )


def unknown_flow(name: str, version: int | None = None) -> TaskError:
    """No saved flow of the caller's is ``name`` (at ``version``)."""
    at = "" if version is None else f" version {version}"
    return TaskError(
        f"there is no saved flow {name!r}{at}; list_flows shows yours",
        code="UNKNOWN_FLOW",
        name=name,
        version=version,
    )


def started_by_task(task_id: str) -> TaskError:
    """``start_task`` from inside the turn of ``task_id``."""
    return TaskError(
        f"task {task_id!r} tried to start a task from its own turn; a task never starts "
        "another task by itself (only its caller or a person starts tasks)",
        code="STARTED_BY_TASK",
        by=task_id,
    )


def too_many_tasks(limit: int) -> TaskError:
    """Every slot holds a live task."""
    return TaskError(
        f"{limit} tasks are live already; cancel one or wait for one to finish",
        code="TOO_MANY_TASKS",
        limit=limit,
    )


def wrong_state(
    task_id: str, state: str, call: str, next_calls: Sequence[str], what: str = ""
) -> TaskError:
    """``call`` (or ``what`` in it) does not fit a task that is ``state``."""
    return TaskError(
        f"task {task_id!r} is {state}; {what or call} does not apply (try {', '.join(next_calls)})",
        code="WRONG_STATE",
        id=task_id,
        state=state,
        call=call,
        next=list(next_calls),
    )


def planner_unavailable() -> TaskError:
    """No planner is configured."""
    return TaskError(
        "no planner is configured; write a flow with the guide from describe and pass it as `flow`",
        code="PLANNER_UNAVAILABLE",
    )


def output_unavailable() -> TaskError:
    """No output shaper is configured."""
    return TaskError(
        "no output shaper is configured; leave out `output` and read the records",
        code="OUTPUT_UNAVAILABLE",
    )


def endpoint_refused(endpoint: str) -> InvalidRequest:
    """A ``browser_endpoint`` outside the operator's allow-list."""
    return InvalidRequest(
        "constraints.browser_endpoint names a browser this server does not let tasks "
        "attach to; leave it out (the operator lists the allowed ones)",
        code="BROWSER_ENDPOINT_REFUSED",
    )


def seed_unusable(name: str, why: str) -> InvalidRequest:
    """The fact ``name`` looks like an authenticator's seed and gives no codes (``why``
    never holds its value): it would be typed as it is, so the task is refused."""
    return InvalidRequest(
        f"the fact {name!r} looks like an authenticator's seed but gives no one-time "
        f"codes: {why}; gofer never types a seed, so pass a time-based (totp) seed or "
        "the code itself",
        at=f"facts.{name}",
        name=name,
    )


def origins_required() -> InvalidRequest:
    """``fill_then_approve`` needs ``origins``."""
    return InvalidRequest(
        "payment 'fill_then_approve' types card details, so it needs constraints.origins "
        "to say which sites may receive them",
        code="ORIGINS_REQUIRED",
    )


def surface_unavailable(surface: str, reason: str) -> TaskError:
    """The task needs ``surface`` and it cannot be had."""
    return TaskError(
        f"the {surface} surface is not available: {reason}",
        code="SURFACE_UNAVAILABLE",
        surface=surface,
        reason=reason,
    )


def unknown_artifact(task_id: str, name: str) -> TaskError:
    """No artifact ``name`` (it may have expired)."""
    return TaskError(
        f"task {task_id!r} has no artifact {name!r} (artifacts expire after five minutes)",
        code="UNKNOWN_ARTIFACT",
        id=task_id,
        name=name,
    )


def unknown_file(what: str, *, task_id: str | None = None) -> TaskError:
    """No upload ``what`` of the caller's, or no file by that name in the task."""
    if task_id is None:
        return TaskError(f"there is no upload {what!r}", code="UNKNOWN_FILE", id=what)
    return TaskError(
        f"task {task_id!r} holds no file named {what!r}",
        code="UNKNOWN_FILE",
        id=task_id,
        name=what,
    )


def file_too_large(size: int, limit: int) -> TaskError:
    """A file of ``size`` bytes is past the operator's ``limit``."""
    return TaskError(
        f"the file is {size} bytes; this server takes files of at most {limit} bytes",
        code="FILE_TOO_LARGE",
        size=size,
        limit=limit,
    )


def too_many_files(limit: int, what: str) -> TaskError:
    """Past the operator's count of files (``what``: a task's, or uploads waiting)."""
    return TaskError(
        f"{what} may hold at most {limit} files",
        code="TOO_MANY_FILES",
        limit=limit,
    )


def live_unavailable(task_id: str) -> TaskError:
    """The task holds no open browser in this process for a person to take over."""
    return TaskError(
        "the task holds no open browser here to take over: it was let go after waiting "
        "too long, or the task runs on another worker; continue the task to open its "
        "last page again",
        code="LIVE_UNAVAILABLE",
        id=task_id,
    )


def still_blocked(task_id: str, words: str) -> TaskError:
    """The wall a person was to get past is still on the task's page (``words`` say
    which, in a person's words)."""
    return TaskError(words, code="STILL_BLOCKED", id=task_id)


def closed() -> TaskError:
    """The controller was closed."""
    return TaskError("the task controller is closed", code="CLOSED")


def card_entry_refused(name: str, path: str) -> TaskError:
    """A flow types card details while the task may not fill a payment form."""
    return TaskError(
        f"step {path} types the card detail '{name}'; card details are only typed from "
        "secret facts, under constraints.payment 'fill_then_approve' (which also needs "
        "origins)",
        code="CARD_ENTRY_REFUSED",
        fact=name,
        step=path,
    )


def worker_failed(worker_id: str, error: BaseException) -> TaskError:
    """The worker's claim loop died of an error it could not survive (named by type only:
    its message may quote a store's words)."""
    return TaskError(
        f"the worker {worker_id} stopped claiming work after an unexpected "
        f"{type(error).__name__}; this process stops",
        code="WORKER_FAILED",
    )
