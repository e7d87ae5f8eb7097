"""A SaaS admin dashboard: sign in, a sidebar, a table with icon buttons per row, tabs,
an edit dialog and a toast."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from gofer.runtime import RunStatus

from .conftest import Runner
from .sites import dashboard
from .sites.base import Site, serve

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

LOGIN = {"email": "admin@acme.test", "password": "hunter2!"}


@pytest_asyncio.fixture(loop_scope="session")
async def admin() -> AsyncIterator[Site]:
    async with serve(dashboard.build()) as site:
        yield site


def _sign_in(site: Site) -> list[dict[str, object]]:
    return [
        {"browse": site.url("/login")},
        {"enter": "${email}", "into": "Email"},
        {"enter": "${password}", "into": "Password"},
        {"click": "Sign in"},
        {"verify": {"shows": "Welcome back"}},
        {"click": "Customers", "within": "Main"},
    ]


async def test_sign_in_by_pressing_enter(run: Runner, admin: Site) -> None:
    """``submit: true`` presses Enter in the password field; the form posts and the
    browser navigates while the surface is still settling (a real sign-in takes a
    moment on the server). Six fresh sign-ins, since the race is a matter of timing."""
    admin.slow["/login"] = 0.3
    for _ in range(6):
        result = await run(
            {
                "steps": [
                    {"browse": admin.url("/login")},
                    {"enter": "${email}", "into": "Email"},
                    {"enter": "${password}", "into": "Password", "submit": True},
                    {"verify": {"shows": "Welcome back"}},
                ],
            },
            facts=LOGIN,
            private=frozenset({"password"}),
        )
        assert result.status is RunStatus.COMPLETED, result.failure
    assert [p["email"] for p in admin.sent("/login")] == ["admin@acme.test"] * 6


async def test_read_table_edit_a_row_in_a_dialog_and_switch_tabs(run: Runner, admin: Site) -> None:
    result = await run(
        {
            "vars": {"customers": [], "archived": []},
            "steps": [
                *_sign_in(admin),
                {"read": "the customers", "as": "customers", "list": True},
                {"click": "Edit", "within": "Grace Hopper"},
                {"verify": {"shows": "Edit Grace Hopper"}},
                {"choose": "Enterprise", "in": "Plan"},
                {"click": "Save"},
                {"verify": {"shows": "Changes saved for Grace Hopper"}},
                {"choose": "Archived", "in": "Customer status"},
                {"verify": {"all": [{"shows": "Charles Babbage"}, {"not_shows": "Alan Turing"}]}},
            ],
        },
        facts=LOGIN,
        private=frozenset({"password"}),
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    assert admin.sent("/login")[0]["email"] == "admin@acme.test"
    assert admin.sent("/api/customers") == [
        {"email": "grace@example.com", "name": "Grace Hopper", "plan": "Enterprise"}
    ]
    customers = result.changed["customers"]
    assert isinstance(customers, list) and len(customers) == 3
    assert [c["Name"] for c in customers if isinstance(c, dict)] == [
        "Ada Lovelace",
        "Grace Hopper",
        "Alan Turing",
    ]
    first = customers[0]
    assert isinstance(first, dict)
    assert {k: first[k] for k in ("Name", "Email", "Plan", "Status")} == {
        "Name": "Ada Lovelace",
        "Email": "ada@example.com",
        "Plan": "Pro",
        "Status": "Active",
    }


async def test_read_a_table_with_one_row_as_a_list(run: Runner, admin: Site) -> None:
    result = await run(
        {
            "vars": {"archived": []},
            "steps": [
                *_sign_in(admin),
                {"choose": "Archived", "in": "Customer status"},
                {"read": "the archived customers", "as": "archived", "list": True},
            ],
        },
        facts=LOGIN,
        private=frozenset({"password"}),
    )
    assert result.status is RunStatus.COMPLETED, result.failure
    archived = result.changed["archived"]
    assert isinstance(archived, list) and len(archived) == 1
    assert isinstance(archived[0], dict)
    assert archived[0]["Name"] == "Charles Babbage"
    assert archived[0]["Status"] == "Archived"


async def test_delete_in_a_row_is_an_irreversible_gate(run: Runner, admin: Site) -> None:
    result = await run(
        {
            "steps": [*_sign_in(admin), {"click": "Delete", "within": "Alan Turing"}],
        },
        facts=LOGIN,
        private=frozenset({"password"}),
    )
    assert result.status is RunStatus.GATED, result.failure
    assert result.gate is not None
    assert (result.gate.label, result.gate.consequence) == ("Delete", "irreversible")
    assert "Alan Turing" in (result.screen_text or "")
