"""Controls out of sight: in a closed menu (a row's "⋯", "More actions", Bootstrap's
dropdown and split button) or a collapsed section, found by opening what holds them,
for click and stop_before alike; and a table's value read by its row and column.
Judged by the server's records and the page's own state."""

from __future__ import annotations

import pytest

from gofer.runtime import RunStatus, StepOutcome

from ..conftest import Opener, Runner
from .conftest import Site

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_a_rows_action_in_its_closed_menu_is_pressed_for_that_row_only(
    run: Runner, site: Site
) -> None:
    sent = len(site.posted.get("invoices", []))
    result = await run(
        [
            {"browse": site.url("invoices")},
            {"click": "Download PDF", "within": "invoice 42"},
            {"click": "Download PDF", "within": "invoice 43"},
        ]
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert site.posted["invoices"][sent:] == [{"act": "pdf-42"}, {"act": "pdf-43"}]


async def test_a_control_the_record_does_not_hold_is_not_taken_from_another_row(
    run: Runner, site: Site
) -> None:
    sent = len(site.posted.get("invoices", []))
    result = await run(
        [
            {"browse": site.url("invoices")},
            {"click": "Send reminder", "within": "invoice 43"},
        ]
    )
    assert result.status is RunStatus.FAILED
    assert result.failure is not None and "Send reminder" in result.failure.reason
    assert site.posted.get("invoices", [])[sent:] == []


async def test_stop_before_opens_the_menu_and_stops_in_front_of_the_control(
    run: Runner, site: Site
) -> None:
    site.state.pop("status-42", None)
    sent = len(site.posted.get("invoices", []))
    result = await run(
        [
            {"browse": site.url("invoices")},
            {"stop_before": "Delete invoice"},
        ]
    )
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None
    assert (result.gate.label, result.gate.consequence) == ("Delete invoice", "irreversible")
    assert result.steps[-1].outcome is StepOutcome.GATED
    assert site.posted.get("invoices", [])[sent:] == []
    assert "status-42" not in site.state


async def test_a_value_in_a_table_is_read_by_its_row_and_column(
    run_open: Opener, site: Site
) -> None:
    site.state.pop("status-42", None)
    async with run_open(
        [
            {"browse": site.url("invoices")},
            {"read": "the Status of invoice 42", "as": "status"},
            {"read": "Amount for Chen Li", "as": "amount"},
        ]
    ) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        shown = await done.page.evaluate(
            "[...document.querySelectorAll('tbody tr')].map(r => [...r.cells].map(c => "
            "c.textContent.trim()))"
        )
        assert done.result.variables["status"] == shown[1][2] == "Overdue"
        assert done.result.variables["amount"] == shown[2][3] == "$310.00"


@pytest.mark.parametrize(
    ("words", "state"),
    [
        ("Archive team", "Team archived"),
        ("Export as PDF", "Members exported as PDF"),
        ("Reset storage quota", "Quota reset"),
    ],
)
async def test_bootstrap_menus_split_buttons_and_collapses_are_opened_to_find_a_control(
    run_open: Opener, site: Site, words: str, state: str
) -> None:
    async with run_open([{"browse": site.url("bootstrap-team")}, {"click": words}]) as done:
        assert done.result.status is RunStatus.COMPLETED, done.result.failure
        assert await done.page.evaluate("state.textContent") == state


async def test_stop_before_a_control_in_a_bootstrap_dropdown_never_presses_it(
    run_open: Opener, site: Site
) -> None:
    async with run_open(
        [{"browse": site.url("bootstrap-team")}, {"stop_before": "Delete team"}]
    ) as done:
        assert done.result.status is RunStatus.GATED, done.result.failure
        assert done.result.gate is not None and done.result.gate.label == "Delete team"
        assert await done.page.evaluate("state.textContent") == "No changes"
