"""Starting a task: the request checked (its flow, its facts, what it asks of this
process), its first view, and the task with its first turn stored in one transaction."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from gofer.facts import Facts
from gofer.flow import flow_guide, flow_to_json, validate_flow
from gofer.flow.steps import Flow
from gofer.shape import check_output_schema
from gofer.store import Transaction
from gofer.store.ledger import TaskRecord
from gofer.tasks import errors
from gofer.tasks.cell import Cell, Segment, running_view, stop_view, title_of
from gofer.tasks.checks import (
    check_card_entry,
    check_surfaces,
    facts_of,
    invalid_flow,
    new_task_id,
    options_for,
)
from gofer.tasks.contract import (
    Call,
    NeedsInput,
    NeedsPlan,
    Running,
    StartTaskRequest,
    TaskView,
)
from gofer.tasks.engine import Engine
from gofer.tasks.events import Start
from gofer.tasks.notify import check_notify
from gofer.tasks.seams import WorkspaceOptions
from gofer.tasks.state import is_live

__all__ = ["start"]

log = logging.getLogger("gofer.tasks")


@dataclass(frozen=True, slots=True)
class _Checked:
    """A start request as checked: its files taken, its flow parsed (None for a
    plain-language task) and the values the flow still asks for."""

    request: StartTaskRequest
    facts: Facts
    options: WorkspaceOptions
    flow: Flow | None
    questions: tuple[str, ...]


async def start(engine: Engine, owner: str, req: StartTaskRequest, title: str | None) -> TaskView:
    """Check ``req`` and store the task for ``owner`` with its first turn (none when it
    asks for values or a plan first), in one transaction; its first view."""
    checked = await _checked(engine, owner, req)
    req, flow = checked.request, checked.flow
    task_id = new_task_id()
    starting = TaskView(
        id=task_id,
        status=Running(),
        summary="Starting.",
        step=None,
        progress=0.0,
        next=[Call.AWAIT_TASK, Call.CANCEL_TASK],
    )
    cell = Cell.start(task_id, req, flow, checked.facts, checked.options, starting)
    view, turn = _first_view(engine, cell, checked)
    record = TaskRecord(
        id=task_id,
        owner=owner,
        title=title or title_of(req.task, flow),
        request=req.model_dump(mode="json", by_alias=True),
        created_at=engine.book.now(),
        source=engine.source,
    )
    await _store(engine, record, req, flow, view, turn)
    log.info(
        "task %s: started (%s, %d facts, %d secret)",
        task_id,
        f"{len(flow.steps)} steps" if flow else "plain language",
        len(checked.facts),
        len(checked.facts.secret_names),
    )
    return view


async def _checked(engine: Engine, owner: str, req: StartTaskRequest) -> _Checked:
    """``req`` checked, its files taken from ``owner``'s uploads; the first refusal
    found is raised."""
    if req.notify is not None:
        await check_notify(req.notify, engine.notify_private)
    if req.output is not None:
        if engine.shaper is None:
            raise errors.output_unavailable()
        if req.output.json_schema is not None:
            check_output_schema(req.output.json_schema)
    if req.constraints.payment == "fill_then_approve" and not req.constraints.origins:
        raise errors.origins_required()
    req = await engine.files(owner).take(req)
    facts = facts_of(req.facts, req.secret_facts)
    options = options_for(engine.runner, req.constraints)
    if req.flow is None:
        return _Checked(req, facts, options, None, ())
    flow, check = validate_flow(req.flow, facts.names, facts.secret_names)
    if flow is None or check.problems:
        raise invalid_flow([p.to_dict() for p in check.problems])
    check_surfaces(engine.runner, flow, options)
    check_card_entry(flow, facts, req.constraints)
    # Stored in its parsed form, so a later turn reads back what was checked.
    req = req.model_copy(update={"flow": flow_to_json(flow)})
    return _Checked(req, facts, options, flow, check.questions)


def _first_view(engine: Engine, cell: Cell, checked: _Checked) -> tuple[TaskView, bool]:
    """The task's first view, and whether a turn runs next (not while it waits for
    values, or for a plan with no planner to make one)."""
    flow = checked.flow
    if flow is not None and checked.questions:
        return stop_view(cell, NeedsInput(fields=list(checked.questions)), None), False
    if flow is not None:
        first = [Segment(flow.steps, 0, checked.request.constraints.allow_destructive)]
        return running_view(cell, first), True
    if engine.planner is None:
        return stop_view(cell, NeedsPlan(guide=flow_guide()), None), False
    return running_view(cell), True


async def _store(
    engine: Engine,
    record: TaskRecord,
    req: StartTaskRequest,
    flow: Flow | None,
    view: TaskView,
    turn: bool,
) -> None:
    """The task, its files and (when ``turn``) its first turn, in one transaction;
    TOO_MANY_TASKS past the owner's open tasks."""
    book, owner, task_id = engine.book, record.owner, record.id
    async with engine.db.transaction() as tx:
        await _make_room(engine, owner, tx)
        if turn and await book.queue.open_count(owner, tx=tx) >= engine.max_open:
            raise errors.too_many_tasks(engine.max_open)
        await book.ledger.add_task(record, tx=tx)
        await engine.files(owner).give(tx, task_id, req.files)
        item = None
        if turn:
            worker = engine.worker
            needs = worker.needs(flow, req.output is not None, req.constraints)
            payload = {"task_id": task_id, "owner": owner, "needs": needs}
            mine, window = worker.reserve(None)
            item = await book.queue.enqueue(
                "turn", payload, key=f"turn:{task_id}", tx=tx, prefer=mine, prefer_ms=window
            )
        await book.write(
            tx, owner, task_id, Start(item=item.id if item is not None else None, view=view)
        )


async def _make_room(engine: Engine, owner: str, tx: Transaction) -> None:
    """An in-memory controller holds at most ``max_tasks`` tasks: drop the oldest
    finished ones to make room; TOO_MANY_TASKS when every one is live."""
    if not engine.owned:
        return
    records = await engine.book.ledger.tasks(owner, tx=tx)
    if len(records) < engine.max_tasks:
        return
    views = [(r, (await engine.book.read(owner, r.id, tx=tx))[1]) for r in records]
    extra = len(records) - engine.max_tasks + 1
    finished = [r for r, v in views if not is_live(v.status)]
    if len(finished) < extra:
        raise errors.too_many_tasks(engine.max_tasks)
    for record in finished[:extra]:
        await engine.book.ledger.drop_task(owner, record.id, tx=tx)
        engine.worker.forget(owner, record.id)
