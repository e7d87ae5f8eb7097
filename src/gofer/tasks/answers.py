"""A caller's answer to a paused task (``continue_task``): checked against the task's
status and log (the same answer sent twice while its turn runs, a stale approval),
its values taken into the task's facts, and the next turn queued."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from gofer.errors import InvalidRequest
from gofer.tasks import errors
from gofer.tasks.able import needs_before
from gofer.tasks.approvals import check_approval_id
from gofer.tasks.book import Loaded, TaskBook
from gofer.tasks.cell import Cell, next_calls, running_view, stop_view, view_of
from gofer.tasks.checks import options_for, take_inputs
from gofer.tasks.contract import (
    Call,
    ContinueTaskRequest,
    NeedsApproval,
    NeedsHuman,
    NeedsInput,
    Running,
    TaskView,
)
from gofer.tasks.engine import Engine
from gofer.tasks.events import Again, Ended, Reply
from gofer.tasks.relay import Held
from gofer.tasks.state import State, continuable, is_running
from gofer.tasks.status import TaskReading

__all__ = ["check_answer", "go_on", "repeated"]

log = logging.getLogger("gofer.tasks")


@dataclass(frozen=True, slots=True)
class _Values:
    """The values an answer gives: the caller's inputs and the files it names, and which
    of them are secret."""

    inputs: dict[str, str]
    secret: list[str]


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


async def check_answer(
    engine: Engine, owner: str, reading: TaskReading, view: TaskView, req: ContinueTaskRequest
) -> bool:
    """Refuse an answer that does not fit the task's status: WRONG_STATE while it is
    being cancelled, when it waits for no answer or was marked done, or for an
    approval it does not wait for; a stale ``approval_id``; no ``approve`` for an
    approval. True when the turn running now is this very answer, sent again."""
    task_id, status = req.id, view.status
    if task_id in engine.cancels:
        # Being cancelled: its workspace is on its way out, so nothing may start on it.
        raise errors.wrong_state(task_id, State.CANCELLED, Call.CONTINUE_TASK, [Call.TASK_REPORT])
    if is_running(status) and await repeated(engine.book, owner, reading, req):
        return True
    if req.approval_id is not None:
        logged = [e for _at, e in await engine.book.events(owner, task_id)]
        check_approval_id(task_id, status, req.approval_id, logged)
    if not continuable(status) or reading.record.resolved_at is not None:
        raise errors.wrong_state(task_id, status.state, Call.CONTINUE_TASK, next_calls(status))
    if req.approve is not None and not isinstance(status, NeedsApproval):
        raise errors.wrong_state(
            task_id, status.state, Call.CONTINUE_TASK, next_calls(status), "approve"
        )
    if isinstance(status, NeedsApproval) and req.approve is None:
        raise InvalidRequest("this task waits for approval: pass approve true or false", id=task_id)
    return False


async def go_on(
    engine: Engine, owner: str, req: ContinueTaskRequest, reading: TaskReading, view: TaskView
) -> TaskView:
    """Take a checked answer: its values into the task's facts (asking again while
    some are still missing), then its next turn on the queue, before this returns, so
    it survives a restart. STILL_BLOCKED when a person's wall is still on the page."""
    task_id, status = req.id, view.status
    # Where the browser is held: asked once, for the wall's check and the next turn.
    held = await engine.relay.held(task_id)
    if isinstance(status, NeedsHuman) and not req.inputs:
        blocked = await engine.relay.why_blocked(owner, task_id, status.reason, held)
        if blocked is not None:
            raise errors.still_blocked(task_id, blocked)
    loaded = await engine.book.load(owner, task_id)
    assert loaded is not None
    cell = loaded.cell(options_for(engine.runner, loaded.request.constraints), view)
    inputs = dict(req.inputs)
    secret_inputs = list(req.secret_inputs)
    if req.files:
        named, secret = await engine.files(owner).as_facts(req.files, inputs)
        inputs.update(named)
        secret_inputs += [n for n in secret if n not in secret_inputs]
    values = _Values(inputs, secret_inputs)
    if inputs or secret_inputs:
        facts, questions = take_inputs(cell, inputs, secret_inputs)
        cell = replace(cell, facts=facts)
        if questions:
            return await _ask_again(engine, owner, req, loaded, cell, questions, values)
    elif isinstance(status, NeedsInput):
        raise InvalidRequest(
            f"this task waits for values: pass inputs for {', '.join(status.fields)}",
            id=task_id,
        )
    return await _queue(engine, owner, req, reading, view, loaded, cell, held, values)


async def _ask_again(
    engine: Engine,
    owner: str,
    req: ContinueTaskRequest,
    loaded: Loaded,
    cell: Cell,
    questions: list[str],
    values: _Values,
) -> TaskView:
    """The values given are kept and the task asks for ``questions``, still missing."""
    asking = stop_view(cell, NeedsInput(fields=questions), None)
    async with engine.db.transaction() as tx:
        await engine.files(owner).give(tx, req.id, req.files)
        reply = Reply(inputs=values.inputs, secret=values.secret, view=asking)
        await engine.book.write(tx, owner, req.id, reply)
        await engine.book.write(tx, owner, req.id, Ended(view=asking, state=loaded.state))
    return asking


async def _queue(
    engine: Engine,
    owner: str,
    req: ContinueTaskRequest,
    reading: TaskReading,
    view: TaskView,
    loaded: Loaded,
    cell: Cell,
    held: Held,
    values: _Values,
) -> TaskView:
    """The answer and the turn it starts (a rerun after a failure, or a reply), on the
    queue in one transaction; the task's view as it goes on."""
    task_id, status = req.id, view.status
    rerun = reading.out_of_runs
    kind, key = (
        ("again", f"again:{task_id}:{rerun}")
        if rerun is not None
        else ("reply", f"reply:{task_id}:{reading.stop.seq if reading.stop else 0}")
    )
    if isinstance(status, NeedsApproval) and cell.approval is not None:
        note = "Pressing the approved control."
        going = view_of(cell, Running(), cell.approval.path, note)
    else:
        going = running_view(cell)
    # The browser's holder runs the next turn (the page a person worked in) while
    # it lives.
    holder, window = engine.worker.reserve(held.holder)
    async with engine.db.transaction() as tx:
        if await engine.book.queue.items(key=key, tx=tx):
            # The same answer, twice at once: the first one runs.
            return (await engine.book.read(owner, task_id, tx=tx))[1]
        await engine.files(owner).give(tx, task_id, req.files)
        needs = await needs_before(engine.book.queue, task_id, tx)
        if needs is None:
            output = loaded.request.output is not None
            needs = engine.worker.needs(cell.flow, output, loaded.request.constraints)
        item = await engine.book.queue.enqueue(
            kind,
            {"task_id": task_id, "owner": owner, "needs": needs},
            key=key,
            tx=tx,
            prefer=holder,
            prefer_ms=window,
        )
        answer = (Reply if kind == Reply.KIND else Again)(
            item=item.id,
            inputs=values.inputs,
            secret=values.secret,
            approve=req.approve,
            approval_id=req.approval_id,
            view=going,
        )
        await engine.book.write(tx, owner, task_id, answer)
    log.info("task %s: continued from %s", task_id, status.state)
    return going
