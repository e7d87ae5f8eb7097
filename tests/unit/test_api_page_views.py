"""What the task pages say of a task, and the sign-in's rules, without a server."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gofer.api import MemoryTokenStore
from gofer.api.page_auth import PageSessions, safe_next, same_origin
from gofer.api.page_views import (
    did_lines,
    fields_of,
    hint_words,
    holds_browser,
    lines_of,
    list_group,
    live,
    outcome_words,
    plain,
    pressed_on,
    status_words,
    step_number,
)
from gofer.api.views import TaskEntry
from gofer.tasks.contract import (
    Cancelled,
    Checkpoint,
    Done,
    Failed,
    LogEntry,
    NeedsApproval,
    NeedsHuman,
    NeedsInput,
    PersonStepInfo,
    Running,
    SpendInfo,
    StepReportInfo,
    TaskBudget,
    TaskReport,
    TaskView,
    TraceInfo,
)

NOW = datetime(2026, 10, 1, tzinfo=UTC)
PAY = Checkpoint(
    reason="reached the payment step", location="Pay now", summary="", continuable=False
)


def record(status: object, resolved: bool = False) -> TaskEntry:
    view = TaskView(
        id="t",
        status=status,
        summary="",
        step=None,
        progress=0.5,  # type: ignore[arg-type]
        next=[],
    )
    return TaskEntry(
        id="t",
        title="A task",
        created_at=NOW,
        moved_at=NOW,
        resolved_at=NOW if resolved else None,
        view=view,
        task_status="working",
    )


@pytest.mark.parametrize(
    ("status", "group", "words"),
    [
        (Running(), "running", "Running"),
        (
            NeedsInput(fields=["mobile number", "card pin"]),
            "needs-you",
            "Needs you: 2 details to give",
        ),
        (
            NeedsApproval(action="confirming", target="Confirm booking"),
            "needs-you",
            "Needs you: approve “Confirm booking”?",
        ),
        (NeedsHuman(reason="a captcha"), "needs-you", "Needs you: a step only a person can do"),
        (PAY, "needs-you", "Needs you: over to you"),
        (
            Failed(step="3", reason="no Next", recoverable=True),
            "needs-you",
            "Failed: you can try again",
        ),
        (Failed(step="3", reason="no Next", recoverable=False), "finished", "Failed"),
        (Done(answer="ok", records={}), "finished", "Done"),
        (Cancelled(), "finished", "Cancelled"),
    ],
)
def test_each_status_has_its_group_and_words(status: object, group: str, words: str) -> None:
    assert list_group(record(status)) == group
    assert status_words(status) == words  # type: ignore[arg-type]


def test_a_task_marked_done_is_finished_whatever_it_read() -> None:
    assert list_group(record(PAY, resolved=True)) == "finished"
    assert status_words(PAY, resolved=True) == "Marked done"


def test_the_page_follows_a_task_only_while_it_can_still_change() -> None:
    assert live(Running()) and live(NeedsInput(fields=["x"]))
    assert not live(PAY) and not live(Done(answer="", records={})) and not live(Cancelled())
    assert live(Failed(step=None, reason="", recoverable=True))


def test_a_task_offers_its_browser_while_it_waits_for_its_person_with_it() -> None:
    for status in (
        NeedsHuman(reason="a captcha"),
        PAY,
        NeedsApproval(action="confirming", target="Confirm"),
        Failed(step="2", reason="a wall", recoverable=True),
    ):
        assert holds_browser(status), status
    for status in (
        Running(),
        NeedsInput(fields=["x"]),
        Done(answer="", records={}),
        Failed(step="2", reason="gone", recoverable=False),
        Cancelled(),
    ):
        assert not holds_browser(status), status


def test_secret_fields_by_name_are_password_inputs() -> None:
    fields = fields_of(NeedsInput(fields=["mobile number", "card number", "one-time code"]))
    assert [(f.name, f.secret, f.key) for f in fields] == [
        ("mobile number", False, "value-0"),
        ("card number", True, "value-1"),
        ("one-time code", True, "value-2"),
    ]
    assert fields_of(Running()) == []


def report(*trace: TraceInfo) -> TaskReport:
    view = TaskView(id="t", status=Running(), summary="", step=None, progress=0, next=[])
    return TaskReport(
        id="t",
        view=view,
        flow=None,
        steps=[],
        records={},
        trace=list(trace),
        hints=[],
        rescues=[],
        budget=TaskBudget(),
        artifacts=[],
        spend=SpendInfo(actions=0, model_calls=0, elapsed_ms=0, runs=1, rescues=0),
    )


def test_an_approval_names_the_page_of_its_last_stop() -> None:
    first = TraceInfo(
        run=1, at_ms=1, path="2", event="gated", detail={"url": "https://shop.example.com/cart?x=1"}
    )
    last = TraceInfo(
        run=2, at_ms=1, path="5", event="gated", detail={"url": "https://shop.example.com/review"}
    )
    assert pressed_on(report(first, last)) == "shop.example.com/review"
    assert pressed_on(report()) is None and pressed_on(None) is None


@pytest.mark.parametrize(
    ("target", "sent_to"),
    [
        ("/tasks/t-1?x=1", "/tasks/t-1?x=1"),
        ("https://evil.example/", "/tasks"),
        ("//evil.example/path", "/tasks"),
        ("/\\evil.example", "/tasks"),
        ("tasks", "/tasks"),
        (None, "/tasks"),
    ],
)
def test_sign_in_goes_back_only_to_a_page_of_this_server(target: str | None, sent_to: str) -> None:
    assert safe_next(target) == sent_to


def test_a_form_must_come_from_this_servers_own_pages() -> None:
    here = {"host": "127.0.0.1:8700"}
    assert same_origin(here | {"origin": "http://127.0.0.1:8700"}, "http")
    assert not same_origin(here | {"origin": "http://evil.example"}, "http")
    assert not same_origin(here | {"origin": "null"}, "http")
    assert same_origin(here | {"referer": "http://127.0.0.1:8700/tasks/t"}, "http")
    assert not same_origin(here | {"referer": "http://127.0.0.1:9999/"}, "http")


async def test_a_session_ends_when_it_expires_or_its_token_is_revoked() -> None:
    now = [100.0]
    tokens = MemoryTokenStore()
    issued = await tokens.create("alice")
    sessions = PageSessions(tokens, ttl_s=60, clock=lambda: now[0])
    assert await sessions.open("gofer_wrong") is None and await sessions.open("") is None
    session = await sessions.open(issued.token)
    assert session is not None and session.owner == "alice"
    assert issued.token not in repr(session) and session.csrf not in repr(session)
    assert await sessions.get(session.id) == session
    assert session.form_ok(session.csrf) and not session.form_ok("x")
    assert not session.form_ok(None)
    now[0] += 61
    assert await sessions.get(session.id) is None
    again = await sessions.open(issued.token)
    assert again is not None and again.id != session.id
    await tokens.revoke(issued.info.id)
    assert await sessions.get(again.id) is None


async def test_the_oldest_sessions_go_first_past_the_limit() -> None:
    tokens = MemoryTokenStore()
    token = (await tokens.create("alice")).token
    sessions = PageSessions(tokens, max_sessions=2)
    first, second, third = [await sessions.open(token) for _ in range(3)]
    assert first and second and third
    assert await sessions.get(first.id) is None
    assert await sessions.get(second.id) == second and await sessions.get(third.id) == third


def test_a_person_reads_steps_from_1_and_no_api_names() -> None:
    assert [step_number(p) for p in ("0", "1", "5.then.1")] == ["1", "2", "6.2"]
    assert plain("type ${first name} into “First name”") == (
        "type your first name into “First name”"
    )
    failed = Failed(
        step="1",
        reason="no button called Next",
        hint="continue_task runs step 2 and the rest again on the same page",
        recoverable=True,
    )
    assert hint_words(failed) == "Trying again runs step 2 and the rest again on the same page."
    spent = failed.model_copy(update={"hint": "raise budget.max_actions and start a new task"})
    assert hint_words(spent) == (
        "It used up what it may spend; start the task again with a larger budget."
    )
    coded = failed.model_copy(update={"hint": "the runner raised SURFACE_CLOSED"})
    assert hint_words(coded) is None
    assert outcome_words("done_by_person") == "done by you"
    assert outcome_words("gated") == "stopped to ask first"


def test_a_pause_reads_as_a_pause_in_the_history() -> None:
    def entry(kind: str, state: str | None = None) -> LogEntry:
        return LogEntry(at=0.0, kind=kind, text="", state=state)

    report = TaskReport(
        id="t",
        view=record(Running()).view,
        flow=None,
        steps=[],
        records={},
        trace=[],
        hints=[],
        rescues=[],
        spend=SpendInfo(actions=0, model_calls=0, elapsed_ms=0, runs=1, rescues=0),
        budget=TaskBudget(),
        artifacts=[],
        log=[
            entry("start"),
            entry("ended", "needs_human"),
            entry("again"),
            entry("ended", "checkpoint"),
            entry("ended", "done"),
            entry("resolved"),
        ],
    )
    assert [line.kind for line in lines_of(report)] == [
        "Started",
        "Paused",
        "Tried again",
        "Paused",
        "Finished",
        "Marked done",
    ]


def test_what_a_person_did_is_numbered_as_the_tasks_steps_are() -> None:
    """The person signed in at step 2's wall, then pressed the flow's steps 2 and 3
    themselves: the list says "Step 2" for the press the steps list calls step 2."""
    story = report()

    def did(path: str, intent: str) -> StepReportInfo:
        return StepReportInfo(
            run=1, path=path, kind="click", outcome="done_by_person", intent=intent
        )

    def person(words: str) -> PersonStepInfo:
        return PersonStepInfo(step={}, url="https://shop.test/", words=words, before=1, did=2)

    steps = [did("1", "press “Download invoice”"), did("2", "press “Back to orders”")]
    people = [
        person("click “Email”"),
        person("type ${password} into “Password”"),
        person("press “Download invoice”"),
        person("press “Back to orders”"),
        PersonStepInfo(step={}, url="https://shop.test/", words="press “Sign out”"),
    ]
    story = story.model_copy(update={"steps": steps, "person_steps": people})
    assert did_lines(story) == [
        "Before step 2: click “Email”",
        "Before step 2: type your password into “Password”",
        "Step 2: press “Download invoice”",
        "Step 3: press “Back to orders”",
        "After the last step: press “Sign out”",
    ]
