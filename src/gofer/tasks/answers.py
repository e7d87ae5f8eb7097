"""Reading a caller's answer to a paused task against its log: the same answer sent
twice while its turn runs, and a run cut short that an answer tries again."""

from __future__ import annotations

from gofer.tasks.book import TaskBook
from gofer.tasks.contract import ContinueTaskRequest
from gofer.tasks.events import Again, Reply
from gofer.tasks.state import turn_ran_out
from gofer.tasks.status import TaskReading

__all__ = ["out_of_runs", "repeated"]


async def repeated(
    book: TaskBook, owner: str, reading: TaskReading, req: ContinueTaskRequest
) -> bool:
    """Whether the turn running now is this very answer, sent a second time (two
    "Try again" at once run once)."""
    turn = reading.open_turn
    if turn is None or turn.kind not in ("reply", "again"):
        return False
    answers = await book.events(owner, reading.record.id)
    sent = next(
        (e for _at, e in reversed(answers) if isinstance(e, Reply | Again) and e.item == turn.id),
        None,
    )
    if sent is None or sent.kind != turn.kind:
        return False
    return (
        sent.inputs == dict(req.inputs)
        and sent.secret == list(req.secret_inputs)
        and sent.approve == req.approve
        and sent.approval_id == req.approval_id
    )


def out_of_runs(reading: TaskReading) -> int | None:
    """The id of the task's last turn when it ran out of runs with no run ending it."""
    last = reading.turns[-1] if reading.turns else None
    if last is None or not turn_ran_out(last):
        return None
    return None if reading.ended(last) else last.id
