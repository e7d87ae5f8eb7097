"""Who a request acts for: MCP over HTTP never falls back to the stdio owner, one owner
signing in again and again never signs another out, and the digits of a long number
are found however it is written, without a pattern built per digit."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import pytest

from gofer.api import MemoryTokenStore
from gofer.api.mcp_server import McpOwners
from gofer.api.page_auth import PageSessions
from gofer.errors import ApiError
from gofer.facts import Facts


def ctx(headers: dict[str, str] | None) -> Any:
    return SimpleNamespace(headers=headers)


async def test_mcp_over_http_needs_a_token_and_stdio_acts_for_its_own_owner() -> None:
    tokens = MemoryTokenStore()
    alice = (await tokens.create("alice")).token
    over_http = McpOwners(tokens, "local")
    with pytest.raises(ApiError) as refused:
        await over_http.owner(ctx(None))
    assert refused.value.code == "UNAUTHORIZED"
    assert await over_http.owner(ctx({"authorization": f"Bearer {alice}"})) == "alice"
    over_stdio = McpOwners(None, "local")
    assert await over_stdio.owner(ctx(None)) == "local"
    with pytest.raises(ApiError):
        await over_stdio.owner(ctx({"authorization": f"Bearer {alice}"}))


async def test_one_owner_signing_in_again_and_again_never_signs_another_out() -> None:
    tokens = MemoryTokenStore()
    alice, bob = (await tokens.create("alice")).token, (await tokens.create("bob")).token
    sessions = PageSessions(tokens, max_sessions=50, max_per_owner=3)
    kept = await sessions.open(bob)
    assert kept is not None
    mine = [await sessions.open(alice) for _ in range(200)]
    assert await sessions.get(kept.id) is not None
    live = [s for s in mine if s is not None and await sessions.get(s.id) is not None]
    assert [s.id for s in live] == [s.id for s in mine[-3:] if s is not None]


@pytest.mark.parametrize(
    "written",
    [
        "4111 1111 1111 1111",
        "4111-1111-1111-1111",
        "4111111111111111",
        "4111 - 1111.1111 1111",
        "4111\u00a01111\u20131111  1111",
    ],
)
def test_a_number_is_found_however_it_is_written(written: str) -> None:
    facts = Facts({"card number": "4111 1111 1111 1111"})
    assert facts.mask(f"paid with {written}!") == "paid with ${card number}!"


def test_a_number_with_too_wide_a_gap_is_not_that_number() -> None:
    facts = Facts({"card number": "4111 1111 1111 1111"})
    text = "4111 1111    1111 1111 and 4111 1111 x 1111 1111"
    assert facts.mask(text) == text


def test_a_hundred_long_numbers_are_found_in_a_large_screen_quickly() -> None:
    values = {f"account number {i}": str(10**4095 + i) for i in range(100)}
    began = time.perf_counter()
    facts = Facts(values)
    screen = ("Balance due. " * 20_000) + values["account number 7"]
    masked = facts.mask(screen)
    took = time.perf_counter() - began
    assert masked.endswith("${account number 7}")
    assert took < 2.0, f"{took:.2f} s"


def test_a_tasks_matcher_is_built_once_however_often_its_facts_are_read() -> None:
    values = {"password": "hunter2-canary", "email": "asha@example.com"}
    first, again = Facts(values, secret=["password"]), Facts(dict(values), secret=["password"])
    first.mask("x")
    again.mask("y")
    assert first._masker is again._masker
