"""A form the server sends back with field errors fails the step that sent it, with
the errors in its reason; judged by what the server kept."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus, StepOutcome

from ..conftest import Runner
from .conftest import Site

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_a_form_sent_back_with_field_errors_fails_the_click_saying_them(
    run: Runner, site: Site
) -> None:
    site.state.pop("account", None)
    result = await run(
        [
            {"browse": site.url("signup")},
            {"enter": "asha@example", "into": "Email"},
            {"enter": "14 October 2016", "into": "Date of birth"},
            {"click": "Create account"},
        ]
    )
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and result.failure.path == "3"
    reason = result.failure.reason
    assert "Username: This field is required." in reason
    assert "Email: Enter a valid email address." in reason
    assert "Date of birth" not in reason  # typed in the format the page asked for
    assert result.steps[-1].outcome is StepOutcome.FAILED
    assert site.posted["signup"][-1]["born"] == "14/10/2016"
    assert "account" not in site.state


async def test_the_same_form_filled_right_goes_through(run: Runner, site: Site) -> None:
    site.state.pop("account", None)
    result = await run(
        [
            {"browse": site.url("signup")},
            {"enter": "asha", "into": "Username"},
            {"enter": "asha@example.com", "into": "Email"},
            {"enter": "2016-10-14", "into": "Date of birth"},
            {"click": "Create account"},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert site.state["account"] == "asha"


async def test_bootstrap_validation_that_keeps_the_form_fails_the_click(
    run: Runner, site: Site
) -> None:
    sent = len(site.posted.get("bootstrap-signup", []))
    result = await run(
        [
            {"browse": site.url("bootstrap-signup")},
            {"enter": "asha@example.com", "into": "Email"},
            {"enter": "as", "into": "Username"},
            {"click": "Join"},
        ]
    )
    assert result.status is RunStatus.FAILED
    assert result.failure is not None
    assert "Username: Please choose a username of 3 letters or more." in result.failure.reason
    assert "Email" not in result.failure.reason
    assert len(site.posted.get("bootstrap-signup", [])) == sent
    result = await run(
        [
            {"browse": site.url("bootstrap-signup")},
            {"enter": "asha@example.com", "into": "Email"},
            {"enter": "asha", "into": "Username"},
            {"click": "Join"},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert site.state["member"] == "asha"
