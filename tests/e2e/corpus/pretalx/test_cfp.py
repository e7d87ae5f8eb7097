"""Tasks on pretalx: a speaker through the call-for-participation wizard (proposal,
account, profile) and an organiser in the organiser pages, each judged by pretalx's
own SQLite database. Every task uses its own speaker or record."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Runner
from .conftest import EVENT, ORGA_EMAIL, ORGA_PASSWORD, Pretalx, i18n

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

SUBMISSION = (
    "SELECT s.title, s.abstract, s.state, t.name, u.name, u.email, p.biography "
    "FROM submission_submission s "
    "JOIN submission_submissiontype t ON t.id = s.submission_type_id "
    "JOIN submission_speakerrole r ON r.submission_id = s.id "
    "JOIN person_user u ON u.id = r.user_id "
    "LEFT JOIN person_speakerprofile p ON p.user_id = u.id AND p.event_id = s.event_id "
    "WHERE s.title = ?"
)


def account(name: str, email: str, password: str) -> list[dict[str, str]]:
    return [
        {"enter": name, "into": "Name"},
        {"enter": email, "into": "Email address", "within": "I need a new account"},
        {"enter": password, "into": "Password", "within": "I need a new account"},
        {"enter": password, "into": "Password (again)"},
        {"click": "Continue"},
    ]


def orga_login() -> list[dict[str, str]]:
    return [
        {"enter": ORGA_EMAIL, "into": "Email address"},
        {"enter": ORGA_PASSWORD, "into": "Password"},
        {"click": "Log in"},
    ]


async def test_submit_a_workshop_through_the_cfp_wizard(run: Runner, pretalx: Pretalx) -> None:
    title = "Fuzzing parsers live"
    result = await run(
        [
            {"browse": f"{pretalx.url}/{EVENT}/submit/"},
            {"enter": title, "into": "Proposal title"},
            {"choose": "Workshop", "in": "Session type"},
            {"enter": "We fuzz three parsers in ninety minutes.", "into": "Abstract"},
            {"click": "Continue"},
            *account("Rosa Speaker", "rosa@example.org", "Spk-pass-9931x"),
            {"enter": "Rosa breaks parsers for a living.", "into": "Biography"},
            {"click": "Submit proposal!"},
        ],
        allow_destructive=True,  # the caller asks to send the proposal
    )
    row = pretalx.one(SUBMISSION, title)
    want = (
        title,
        "We fuzz three parsers in ninety minutes.",
        "submitted",
        "Workshop",
        "Rosa Speaker",
        "rosa@example.org",
        "Rosa breaks parsers for a living.",
    )
    if result.status == RunStatus.COMPLETED:
        assert row == want
    assert result.status == RunStatus.COMPLETED, result.failure
    assert row == want


async def test_a_proposal_kept_as_a_draft_is_not_submitted(run: Runner, pretalx: Pretalx) -> None:
    title = "Databases that forget"
    result = await run(
        [
            {"browse": f"{pretalx.url}/{EVENT}/submit/"},
            {"enter": title, "into": "Proposal title"},
            {"enter": "On retention and deletion.", "into": "Abstract"},
            {"enter": "Please schedule in the morning.", "into": "Notes"},
            {"click": "Continue"},
            *account("Dana Draft", "dana@example.org", "Drf-pass-2210q"),
            {"enter": "Dana keeps only what she must.", "into": "Biography"},
            {"click": "save as draft"},
        ]
    )
    row = pretalx.one(
        "SELECT state, notes, t.name FROM submission_submission s JOIN "
        "submission_submissiontype t ON t.id = s.submission_type_id WHERE title = ?",
        title,
    )
    want = ("draft", "Please schedule in the morning.", "Talk")
    if result.status == RunStatus.COMPLETED:
        assert row == want
    assert result.status == RunStatus.COMPLETED, result.failure
    assert row == want


async def test_organiser_renames_a_submission_type(run: Runner, pretalx: Pretalx) -> None:
    result = await run(
        [
            {"browse": f"{pretalx.url}/orga/event/{EVENT}/cfp/types/"},
            *orga_login(),
            {"click": "Workshop"},
            {"enter": "Hands-on workshop", "into": "Name"},
            {"enter": "120", "into": "Default duration"},
            {"click": "Save"},
        ]
    )
    found = pretalx.one("SELECT name, default_duration FROM submission_submissiontype WHERE id = 2")
    row = found and (i18n(found[0]), found[1])
    want = ("Hands-on workshop", 120)
    if result.status == RunStatus.COMPLETED:
        assert row == want
    assert result.status == RunStatus.COMPLETED, result.failure
    assert row == want


async def test_stop_before_sending_the_proposal(run: Runner, pretalx: Pretalx) -> None:
    title = "Proposals that wait"
    result = await run(
        [
            {"browse": f"{pretalx.url}/{EVENT}/submit/"},
            {"enter": title, "into": "Proposal title"},
            {"enter": "Held back on purpose.", "into": "Abstract"},
            {"click": "Continue"},
            *account("Wim Wait", "wim@example.org", "Wt-pass-7781k"),
            {"enter": "Wim waits.", "into": "Biography"},
            {"stop_before": "submitting the proposal"},
        ]
    )
    assert pretalx.rows("SELECT state FROM submission_submission WHERE title = ?", title) == []
    assert result.status == RunStatus.GATED, result.failure
