"""schemathesis against the served OpenAPI spec: every operation, with generated valid
and invalid requests, on a live server over loopback (uvicorn, real HTTP), answers no
server error, only documented status codes, content types and headers, bodies that fit
the spec's schemas, rejects what breaks them, and names its methods in ``Allow``.

Every other case aims at a real task of the caller's (its id put in the path or the
body), so the views, records and reports a task answers with are held to their
schemas too, not only the errors of unknown ids.

One default check is left out: ``positive_data_acceptance`` (every schema-valid body
is accepted). The contract has rules no JSON Schema states, and the server refuses
their breaches with 422 as it must: a flow is checked by its own validator (a secret
only ever as an ``enter`` value), and a plain-language task needs a planner, which
this server (like any without a model) lacks."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.config._checks import (
    NEGATIVE_DATA_REJECTION_EXPECTED_STATUSES as _DEFAULT_REJECTIONS,
)
from schemathesis.core.parameters import ParameterLocation
from schemathesis.specs.openapi.checks import positive_data_acceptance

from gofer.api import GoferServer, MemoryTokenStore, TaskService, create_app
from gofer.tasks import ScriptedRunner, Tasks


@dataclass
class Live:
    url: str
    token: str
    task_id: str


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    """A server on an event loop of its own (in a thread: schemathesis calls are
    blocking), with one finished task of the caller's."""
    tokens = MemoryTokenStore()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name="schema-server", daemon=True)
    thread.start()
    token = asyncio.run_coroutine_threadsafe(tokens.create("asha"), loop).result().token
    stack = contextlib.AsyncExitStack()

    async def open_server() -> str:
        tasks = await stack.enter_async_context(Tasks(ScriptedRunner()))
        server = await stack.enter_async_context(GoferServer(tasks, tokens))
        return server.url

    try:
        url = asyncio.run_coroutine_threadsafe(open_server(), loop).result(60)
        headers = {"Authorization": f"Bearer {token}"}
        started = httpx.post(
            f"{url}/v1/calls/start_task",
            headers=headers,
            json={"flow": [{"browse": "https://shop.example.com/"}]},
        )
        assert started.status_code == 200, started.text
        yield Live(url, token, started.json()["id"])
    finally:
        asyncio.run_coroutine_threadsafe(stack.aclose(), loop).result(60)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(60)
        loop.close()


def _spec() -> dict[str, Any]:
    """The spec the HTTP API serves, built as the app builds it (collection needs it
    before any server runs; the first test checks the live one is the same)."""
    app: Any = create_app(TaskService(Tasks(ScriptedRunner())), MemoryTokenStore())
    while not isinstance(app, FastAPI):
        app = app.app
    spec: dict[str, Any] = app.openapi()
    return spec


SPEC = _spec()
# A body over the server's 1 MiB limit is refused with 413 before it is read, which is
# as much a rejection of invalid data as a 422.
_REJECTIONS = SchemathesisConfig.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": [*_DEFAULT_REJECTIONS, "413"]}}}
)
schema = schemathesis.openapi.from_dict(SPEC, config=_REJECTIONS)


def test_the_spec_checked_is_the_one_served(live: Live) -> None:
    assert httpx.get(f"{live.url}/openapi.json").json() == SPEC


@schema.parametrize()
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)
def test_every_operation_answers_as_its_spec_says(case: schemathesis.Case, live: Live) -> None:
    aimed = next(_turns) % 2 == 1
    if (
        aimed
        and not _negative(case, ParameterLocation.PATH)
        and "task_id" in (case.path_parameters or {})
    ):
        case.path_parameters = {**(case.path_parameters or {}), "task_id": live.task_id}
    if (
        aimed
        and not _negative(case, ParameterLocation.BODY)
        and isinstance(case.body, dict)
        and "id" in case.body
    ):
        case.body = {**case.body, "id": live.task_id}
    # A case whose headers break the spec (no Authorization among them) is sent as made.
    headers = (
        None
        if _negative(case, ParameterLocation.HEADER)
        else {"Authorization": f"Bearer {live.token}"}
    )
    case.call_and_validate(
        base_url=live.url, headers=headers, excluded_checks=[positive_data_acceptance]
    )


def _negative(case: schemathesis.Case, where: ParameterLocation) -> bool:
    info = case.meta.components.get(where) if case.meta is not None else None
    return info is not None and info.mode.is_negative


_turns = itertools.count()
