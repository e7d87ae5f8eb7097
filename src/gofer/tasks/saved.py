"""Saved flows: a flow kept under a name, with its parameters and the grounding hints
its runs learned, to run again with new facts and no model.

A flow is saved as written, or from a task (the flow as it finally ran: planned,
rescued, its ``stop_before`` gates as they were, with what its person did in the
live view at the place they did it), never with a fact's value in it: a
secret value written into the flow becomes its ``${name}``, and a hint that holds a
secret value is left out. Each save adds a version. An owner sees only their own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from pydantic import ValidationError

from gofer.decide.types import GroundingHint
from gofer.errors import GoferError, InvalidRequest, invalid_request
from gofer.facts import Facts, is_secret_name
from gofer.flow import check_flow, flow_to_json, parse_flow, validate_flow
from gofer.store.flows import FlowCapReached, FlowLimits, SavedFlowRecord, SavedFlows
from gofer.tasks import errors
from gofer.tasks.book import TaskBook
from gofer.tasks.cell import next_calls
from gofer.tasks.checks import coerce, invalid_flow
from gofer.tasks.contract import (
    HintInfo,
    ListFlowsReply,
    ListFlowsRequest,
    PersonStepInfo,
    SavedFlowEntry,
    SavedFlowRef,
    SavedFlowView,
    SaveFlowRequest,
    StartTaskRequest,
)
from gofer.tasks.state import is_running
from gofer.tasks.working import WorkingState

__all__ = ["FlowLibrary", "flow_params", "with_person"]


def with_person(flow: Any, person: Sequence[PersonStepInfo]) -> Any:
    """``flow`` (as JSON) as it finally ran with its person: each take-over's steps at
    the place they happened (before the step the task went on from), in place of the
    flow's steps they did. A flow that is not a mapping of steps is left as it is."""
    if not person or not isinstance(flow, dict) or not isinstance(flow.get("steps"), list):
        return flow
    steps: list[Any] = list(flow["steps"])
    groups: dict[int, tuple[list[Any], int]] = {}
    for info in person:
        at = len(steps) if info.before is None else min(max(info.before, 0), len(steps))
        kept, did = groups.setdefault(at, ([], 0))
        kept.append(dict(info.step))
        groups[at] = (kept, max(did, info.did))
    out: list[Any] = []
    skip = 0
    for i in range(len(steps) + 1):
        if i in groups:
            kept, did = groups[i]
            out.extend(kept)
            skip = max(skip, did)
        if i == len(steps):
            break
        if skip > 0:
            skip -= 1
            continue
        out.append(steps[i])
    return {**flow, "steps": out}


def flow_params(
    flow: dict[str, Any] | None, person: Sequence[PersonStepInfo] = ()
) -> list[str] | None:
    """The ``${names}`` a flow saved from a task would ask for, its person's steps
    included (None: it has no flow)."""
    if not flow:
        return None
    try:
        return list(check_flow(parse_flow(with_person(flow, person))).questions)
    except GoferError:
        return None


def _view(record: SavedFlowRecord) -> SavedFlowView:
    return SavedFlowView(
        name=record.name,
        version=record.version,
        description=record.description,
        params=record.params,
        secret_params=record.secret,
        flow=record.flow,
        hints=[HintInfo.model_validate(h) for h in record.hints],
        from_task=record.from_task,
        created_at=record.created_at,
    )


def _kept_hints(hints: list[dict[str, Any]], facts: Facts) -> list[dict[str, str]]:
    """The hints worth keeping: none holding a secret value, none twice."""
    kept: list[dict[str, str]] = []
    for hint in hints:
        data = {k: str(v) for k, v in asdict(GroundingHint(**hint)).items()}
        if any(facts.mask(v) != v for v in data.values()):
            continue
        if data not in kept:
            kept.append(data)
    return kept


class FlowLibrary:
    """``owner``'s saved flows, on the controller's store and book."""

    def __init__(
        self,
        book: TaskBook,
        owner: str,
        clock: Callable[[], float],
        limits: FlowLimits | None = None,
    ) -> None:
        self._book = book
        self._owner = owner
        self._flows = SavedFlows(book.db, clock=clock, limits=limits)

    async def save(self, request: SaveFlowRequest | Mapping[str, Any]) -> SavedFlowView:
        """Save a flow, or what a task ran, as the next version of its name."""
        try:
            req = (
                request
                if isinstance(request, SaveFlowRequest)
                else SaveFlowRequest.model_validate(dict(request))
            )
        except ValidationError as exc:
            raise invalid_request(exc, "the SaveFlowRequest does not fit") from None
        facts = Facts({}, secret=())
        hints: list[dict[str, Any]] = []
        flow_json: Any = req.flow
        secret = set(req.secret_facts)
        if req.task_id is not None:
            reading, view = await self._book.read(self._owner, req.task_id)
            if is_running(view.status):
                raise errors.wrong_state(
                    req.task_id, view.status.state, "save_flow", next_calls(view.status)
                )
            loaded = await self._book.load(self._owner, reading.record.id)
            assert loaded is not None
            state = loaded.state or WorkingState()
            flow_json = state.flow or loaded.request.flow
            if flow_json is None:
                raise errors.wrong_state(
                    req.task_id,
                    view.status.state,
                    "save_flow",
                    next_calls(view.status),
                    what="saving its flow (it has none yet)",
                )
            facts = loaded.facts
            person = list(state.person)
            flow_json = with_person(facts.mask_json(flow_json), person)
            hints = [asdict(h) for h in state.hints] or [
                h.model_dump() for h in loaded.request.hints
            ]
            secret |= set(facts.secret_names)
        flow, check = validate_flow(flow_json, (), ())
        if flow is None:
            raise invalid_flow([p.to_dict() for p in check.problems])
        params = list(check.questions)
        secret_params = sorted(n for n in params if n in secret or is_secret_name(n))
        recheck = check_flow(flow, params, secret_params)
        if recheck.problems:
            raise invalid_flow([p.to_dict() for p in recheck.problems])
        try:
            record = await self._flows.save(
                self._owner,
                req.name,
                flow=flow_to_json(flow),
                description=req.description,
                params=params,
                secret=secret_params,
                hints=_kept_hints(hints, facts),
                from_task=req.task_id,
            )
        except FlowCapReached as cap:
            raise errors.flow_limit(cap.what, cap.limit) from None
        return _view(record)

    async def show(self, name: str, version: int | None = None) -> SavedFlowView:
        """One version of a saved flow (the latest when None); UNKNOWN_FLOW."""
        record = await self._flows.get(self._owner, name, version)
        if record is None:
            raise errors.unknown_flow(name, version)
        return _view(record)

    async def list(
        self, request: ListFlowsRequest | Mapping[str, Any] | None = None
    ) -> ListFlowsReply:
        """A page of the saved flows (the latest version of each, without its steps), by
        name; ``next_cursor`` leads to the next page."""
        req = coerce(ListFlowsRequest, request)
        found = await self._flows.list(self._owner, after=req.cursor or "", limit=req.limit + 1)
        page = found[: req.limit]
        entries = [
            SavedFlowEntry(
                name=e.name,
                version=e.version,
                description=e.description,
                params=e.params,
                secret_params=e.secret,
                from_task=e.from_task,
                created_at=e.created_at,
            )
            for e in page
        ]
        more = len(found) > req.limit
        return ListFlowsReply(flows=entries, next_cursor=page[-1].name if more else None)

    async def delete(self, name: str) -> int:
        """Delete every version of ``name``; UNKNOWN_FLOW when there is none."""
        gone = await self._flows.delete(self._owner, name)
        if not gone:
            raise errors.unknown_flow(name)
        return gone

    async def resolve(self, req: StartTaskRequest) -> StartTaskRequest:
        """``req`` with its ``saved_flow`` filled in: the flow, its version, its hints,
        and its secret parameters among the secret facts."""
        ref = req.saved_flow
        assert ref is not None
        if req.flow is not None:
            raise InvalidRequest("give a `flow` or a `saved_flow`, not both")
        saved = await self.show(ref.name, ref.version)
        secret = [*req.secret_facts, *(n for n in saved.secret_params if n in req.facts)]
        return req.model_copy(
            update={
                "flow": saved.flow,
                "saved_flow": SavedFlowRef(name=saved.name, version=saved.version),
                "hints": [*saved.hints, *req.hints],
                "secret_facts": list(dict.fromkeys(secret)),
            }
        )
