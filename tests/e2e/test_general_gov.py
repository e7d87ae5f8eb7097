"""A government service form: fieldsets and legends, radios, a native date input,
a terms checkbox, errors shown after a submit with missing answers, and a final
irreversible "Submit application"."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from gofer.runtime import RunStatus, StepOutcome

from .conftest import Runner
from .sites import gov
from .sites.base import Site, serve

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@pytest_asyncio.fixture(loop_scope="session")
async def service() -> AsyncIterator[Site]:
    async with serve(gov.build()) as site:
        yield site


async def test_errors_then_fix_then_stop_before_submitting(run: Runner, service: Site) -> None:
    result = await run(
        {
            "steps": [
                {"browse": service.url("/apply")},
                {"enter": "Grace", "into": "First name"},
                {"enter": "Hopper", "into": "Last name"},
                {"click": "Continue", "optional": True},
                {
                    "verify": {
                        "all": [
                            {"shows": "There is a problem"},
                            {"shows": "Enter your date of birth"},
                        ]
                    }
                },
                {"choose": "3 March 1990", "in": "Date of birth"},
                {"choose": "Yes", "in": "Are you a resident?"},
                {"click": "I agree to the terms"},
                {"click": "Continue"},
                {"verify": {"shows": "Check your answers"}},
                {"stop_before": "submitting the application"},
            ],
        }
    )
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None
    assert (result.gate.label, result.gate.consequence) == ("Submit application", "irreversible")
    assert result.steps[-1].outcome is StepOutcome.GATED
    # The form sent back with errors fails the click that sent it, saying them.
    assert result.steps[3].outcome is StepOutcome.SKIPPED
    assert result.steps[3].reason == (
        "clicking 'Continue' brought the form back with errors: Date of birth: Error: Enter "
        "your date of birth; Are you a resident of the state?: Error: Select yes if you live in "
        "the state; Declaration: Error: You must agree to the terms to continue"
    )
    posts = service.sent("/apply")
    assert posts[0] == {"first_name": "Grace", "last_name": "Hopper", "dob": ""}
    assert posts[-1] == {
        "first_name": "Grace",
        "last_name": "Hopper",
        "dob": "1990-03-03",
        "resident": "yes",
        "terms": "agreed",
    }
    assert service.sent("/submit") == []
    assert "1990-03-03" in (result.screen_text or "")
