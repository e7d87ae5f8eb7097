"""Reading a caller's answer to a paused task against its log: the same answer sent
twice while its turn runs."""

from __future__ import annotations

from gofer.tasks.book import TaskBook
from gofer.tasks.contract import ContinueTaskRequest
from gofer.tasks.events import Again, Reply
from gofer.tasks.status import TaskReading

__all__ = ["repeated"]


async def repeated(
    book: TaskBook, owner: str, reading: TaskReading, req: ContinueTaskRequest
) -> bool:
    """Whether the turn running now is this very answer, sent a second time (two
    "Try again" at once run once)."""
    turn = reading.open_turn
    if turn is None or turn.kind not in (Reply.KIND, Again.KIND):
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
