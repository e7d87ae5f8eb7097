"""The task's report, read back from its event log in order: the steps and trace of
every run, the records, hints and rescues of the state it last ended on, what it
spent, its screenshots, and a log in plain words (names only, never a value)."""

from __future__ import annotations

from gofer.flow import flow_to_json, parse_flow
from gofer.store.ledger import TaskEvent
from gofer.tasks.book import Loaded
from gofer.tasks.cell import Artifact, Cell
from gofer.tasks.models import (
    ArtifactInfo,
    HintInfo,
    LogEntry,
    RescueInfo,
    SpendInfo,
    StepReportInfo,
    TaskReport,
    TaskView,
    TraceInfo,
)

__all__ = ["report_of"]


def report_of(
    view: TaskView,
    loaded: Loaded,
    events: list[TaskEvent],
    *,
    running: Cell | None,
    artifacts: list[Artifact],
) -> TaskReport:
    """The report of the task ``loaded`` whose view is ``view`` and log ``events``;
    ``running`` is its turn's cell when one runs in this process (it knows more than
    the last journaled state: a rescue whose guidance runs now)."""
    facts = loaded.facts
    state = loaded.state or {}
    steps: list[StepReportInfo] = []
    trace: list[TraceInfo] = []
    for event in events:
        if event.kind == "ended":
            run = event.data.get("run", {})
            steps += [StepReportInfo.model_validate(s) for s in run.get("steps", [])]
            trace += [TraceInfo.model_validate(t) for t in run.get("trace", [])]
    flow_json = state.get("flow") or loaded.request.flow
    spend = state.get("spend", {})
    return TaskReport(
        id=view.id,
        view=view,
        flow=facts.mask_json(flow_to_json(parse_flow(flow_json))) if flow_json else None,
        steps=steps,
        records=dict(state.get("records", {})),
        trace=trace,
        hints=[
            HintInfo(
                site=h["site"],
                kind=h["kind"],
                words=h["words"],
                role=h["role"],
                name=facts.mask(h["name"]),
                context=facts.mask(h.get("context", "")),
            )
            for h in state.get("hints", [])
        ],
        rescues=list(running.rescues)
        if running is not None
        else [RescueInfo.model_validate(r) for r in state.get("rescues", [])],
        spend=SpendInfo(
            actions=int(spend.get("actions", 0)),
            model_calls=int(spend.get("model_calls", 0)),
            elapsed_ms=round(float(spend.get("elapsed_ms", 0.0)), 3),
            runs=int(spend.get("runs", 0)),
            rescues=int(spend.get("rescues", 0)),
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
        log=[entry for e in events if (entry := _log_entry(e)) is not None],
    )


def _log_entry(event: TaskEvent) -> LogEntry | None:
    """One entry of the report's log, in plain words (names only, never a value)."""
    data = event.data
    text: str | None = None
    match event.kind:
        case "start":
            text = "Started."
        case "reply":
            if data.get("approve") is True:
                text = "Approved the step waiting for approval."
            elif data.get("approve") is False:
                text = "Declined the step waiting for approval."
            elif data.get("inputs"):
                text = "Gave values for " + ", ".join(sorted(data["inputs"])) + "."
            else:
                text = "Asked the task to go on."
        case "again":
            text = "Asked for the run to be tried again."
        case "ended" | "cancelled":
            view = data.get("view") or {}
            text = str(view.get("summary", ""))
        case "let_go":
            minutes = round(float(data.get("after_s", 0)) / 60)
            text = (
                f"Let its browser go after waiting {minutes} minutes for a person; going "
                "on opens the page it was on again."
            )
        case "resolved":
            text = "Marked done."
        case "reopened":
            text = "Reopened."
        case _:
            return None
    return LogEntry(at=event.at, kind=event.kind, text=text)
