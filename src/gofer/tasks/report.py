"""The task's report, read back from its event log in order: the steps and trace of
every run, the records, hints and rescues of the state it last ended on, what it
spent, its screenshots, and a log in plain words (names only, never a value)."""

from __future__ import annotations

from gofer.flow import flow_to_json, parse_flow
from gofer.tasks.book import Loaded
from gofer.tasks.cell import Artifact, TurnNotes
from gofer.tasks.contract import (
    ArtifactInfo,
    HintInfo,
    LogEntry,
    SpendInfo,
    StepReportInfo,
    TaskReport,
    TaskView,
    TraceInfo,
)
from gofer.tasks.events import (
    Again,
    Ended,
    Event,
    LetGo,
    MarkedDone,
    Reopened,
    Reply,
    Start,
    TaskCancelled,
)
from gofer.tasks.working import WorkingState

__all__ = ["report_of"]


def report_of(
    view: TaskView,
    loaded: Loaded,
    logged: list[tuple[float, Event]],
    *,
    running: TurnNotes | None,
    artifacts: list[Artifact],
) -> TaskReport:
    """The report of the task ``loaded`` whose view is ``view`` and log ``logged`` (each
    event with when it was written);
    ``running`` is what its turn knows when one runs in this process (it knows more than
    the last journaled state: a rescue whose guidance runs now)."""
    facts = loaded.facts
    state = loaded.state or WorkingState()
    steps: list[StepReportInfo] = []
    trace: list[TraceInfo] = []
    for _at, event in logged:
        if isinstance(event, Ended):
            steps += [StepReportInfo.model_validate(s) for s in event.run.steps]
            trace += [TraceInfo.model_validate(t) for t in event.run.trace]
    flow_json = state.flow or loaded.request.flow
    spend = state.spend
    return TaskReport(
        id=view.id,
        view=view,
        flow=facts.mask_json(flow_to_json(parse_flow(flow_json))) if flow_json else None,
        steps=steps,
        records=dict(state.records),
        trace=trace,
        hints=[
            HintInfo(
                site=h.site,
                kind=h.kind,
                words=h.words,
                role=h.role,
                name=facts.mask(h.name),
                context=facts.mask(h.context),
                within=facts.mask(h.within),
            )
            for h in state.hints
        ],
        rescues=list(running.rescues) if running is not None else list(state.rescues),
        spend=SpendInfo(
            actions=spend.actions,
            model_calls=spend.model_calls,
            elapsed_ms=round(spend.elapsed_ms, 3),
            runs=spend.runs,
            rescues=spend.rescues,
        ),
        budget=loaded.request.budget,
        artifacts=[
            ArtifactInfo(
                name=a.name,
                media_type="image/png",
                size=len(a.data),
                run=a.run,
                taken_at=a.taken_at,
                expires_at=a.expires_at,
            )
            for a in artifacts
        ],
        log=[entry for at, e in logged if (entry := _log_entry(at, e)) is not None],
        person_steps=list(running.person) if running is not None else list(state.person),
    )


def _log_entry(at: float, event: Event) -> LogEntry | None:
    """One entry of the report's log, in plain words (names only, never a value)."""
    text: str | None = None
    state: str | None = None
    match event:
        case Start():
            text = "Started."
        case Reply(approve=True):
            text = "Approved the step waiting for approval."
        case Reply(approve=False):
            text = "Declined the step waiting for approval."
        case Reply(inputs=inputs) if inputs:
            text = "Gave values for " + ", ".join(sorted(inputs)) + "."
        case Reply():
            text = "Asked the task to go on."
        case Again():
            text = "Asked for the run to be tried again."
        case Ended(view=view) | TaskCancelled(view=view):
            text = view.summary
            state = view.status.state
        case LetGo(after_s=after_s):
            minutes = round(after_s / 60)
            text = (
                f"Let its browser go after waiting {minutes} minutes for a person; going "
                "on opens the page it was on again."
            )
        case MarkedDone():
            text = "Marked done."
        case Reopened():
            text = "Reopened."
        case _:
            return None
    return LogEntry(at=at, kind=event.KIND, text=text, state=state)
