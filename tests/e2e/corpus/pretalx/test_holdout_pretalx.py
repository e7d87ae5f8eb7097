"""Holdout tasks on pretalx (run only before resolving), judged by its database."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus

from ...conftest import Runner
from .conftest import EVENT, Pretalx, i18n
from .test_cfp import SUBMISSION, account, orga_login

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session"), pytest.mark.holdout]


async def test_holdout_submit_a_talk_with_a_description(run: Runner, pretalx: Pretalx) -> None:
    title = "Caches all the way down"
    result = await run(
        [
            {"browse": f"{pretalx.url}/{EVENT}/submit/"},
            {"enter": title, "into": "Proposal title"},
            {"choose": "Talk", "in": "Session type"},
            {"enter": "Why every layer caches.", "into": "Abstract"},
            {"enter": "A tour from CPU to CDN.", "into": "Description"},
            {"click": "Continue"},
            *account("Cai Cache", "cai@example.org", "Cch-pass-5521w"),
            {"enter": "Cai measures latency.", "into": "Biography"},
            {"click": "Submit proposal!"},
        ],
        allow_destructive=True,  # the caller asks to send the proposal
    )
    row = pretalx.one(SUBMISSION, title)
    desc = pretalx.one("SELECT description FROM submission_submission WHERE title = ?", title)
    want = (
        title,
        "Why every layer caches.",
        "submitted",
        "Talk",
        "Cai Cache",
        "cai@example.org",
        "Cai measures latency.",
    )
    if result.status == RunStatus.COMPLETED:
        assert row == want and desc == ("A tour from CPU to CDN.",)
    assert result.status == RunStatus.COMPLETED, result.failure
    assert row == want and desc == ("A tour from CPU to CDN.",)


async def test_holdout_organiser_adds_a_session_type(run: Runner, pretalx: Pretalx) -> None:
    result = await run(
        [
            {"browse": f"{pretalx.url}/orga/event/{EVENT}/cfp/types/"},
            *orga_login(),
            {"click": "New type"},
            {"enter": "Lightning talk", "into": "Name"},
            {"enter": "5", "into": "Default duration"},
            {"click": "Save"},
        ]
    )
    rows = [
        (i18n(name), minutes)
        for name, minutes in pretalx.rows(
            "SELECT name, default_duration FROM submission_submissiontype"
        )
    ]
    if result.status == RunStatus.COMPLETED:
        assert ("Lightning talk", 5) in rows
    assert result.status == RunStatus.COMPLETED, result.failure
    assert ("Lightning talk", 5) in rows


async def test_holdout_organiser_moves_the_cfp_deadline(run: Runner, pretalx: Pretalx) -> None:
    result = await run(
        [
            {"browse": f"{pretalx.url}/orga/event/{EVENT}/cfp/text"},
            *orga_login(),
            {"enter": "2027-01-15 12:00", "into": "Deadline"},
            {"click": "Save"},
        ]
    )
    row = pretalx.one("SELECT deadline FROM submission_cfp")
    assert row is not None
    if result.status == RunStatus.COMPLETED:
        assert str(row[0]).startswith("2027-01-15 12:00")
    assert result.status == RunStatus.COMPLETED, result.failure
    assert str(row[0]).startswith("2027-01-15 12:00")
