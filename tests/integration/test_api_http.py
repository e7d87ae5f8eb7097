"""The HTTP API over real HTTP (uvicorn on loopback, httpx), on a controller whose runs
are scripted: the eight calls, errors as JSON with their status, auth and owners,
idempotency keys, the body limit, the start cap, the person's routes and SSE."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
from scripted_server import ScriptedServer

from gofer.api import MAX_BODY_BYTES, GoferServer, MemoryTokenStore
from gofer.errors import GoferError
from gofer.store import SQLiteConnector, Tokens
from gofer.tasks import ScriptedRunner
from gofer.tasks.testing import fail, gate

FLOW = [{"browse": "https://shop.example.com/"}, {"click": "Next"}]
CONFIRM_FLOW = [
    {"browse": "https://shop.example.com/"},
    {"stop_before": "confirming the booking"},
    {"click": "Done"},
]


@dataclass
class Api:
    server: GoferServer
    runner: ScriptedRunner
    alice: httpx.AsyncClient
    bob: httpx.AsyncClient
    anonymous: httpx.AsyncClient
    served: list[bytes]


@pytest_asyncio.fixture
async def api(scripted_server: ScriptedServer) -> AsyncIterator[Api]:
    srv = scripted_server.server

    def client(token: str | None) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.AsyncClient(base_url=srv.url, headers=headers, timeout=30)

    async with (
        client(scripted_server.alice) as a,
        client(scripted_server.bob) as b,
        client(None) as anon,
    ):
        yield Api(srv, scripted_server.runner, a, b, anon, scripted_server.bodies)


def error(response: httpx.Response) -> dict[str, object]:
    body = response.json()
    assert set(body) == {"error"}
    return dict(body["error"])


async def start(client: httpx.AsyncClient, flow: object = FLOW, **extra: object) -> str:
    response = await client.post("/v1/calls/start_task", json={"flow": flow, **extra})
    assert response.status_code == 200, response.text
    return str(response.json()["id"])


async def settle(client: httpx.AsyncClient, task_id: str) -> dict[str, object]:
    response = await client.post("/v1/calls/await_task", json={"id": task_id})
    assert response.status_code == 200
    return dict(response.json())


# ------------------------------------------------------------------ the calls


async def test_a_flow_started_over_http_runs_to_done_and_reports(api: Api) -> None:
    task_id = await start(api.alice)
    view = await settle(api.alice, task_id)
    assert view["status"]["state"] == "done"  # type: ignore[index]
    assert view["next"] == ["task_report"]
    report = await api.alice.post("/v1/calls/task_report", json={"id": task_id})
    assert report.status_code == 200
    assert [s["kind"] for s in report.json()["steps"]] == ["browse", "click"]
    listed = await api.alice.post("/v1/calls/list_tasks", json={})
    assert [t["id"] for t in listed.json()["tasks"]] == [task_id]
    described = await api.alice.post("/v1/calls/describe")
    assert described.status_code == 200
    assert set(described.json()["call_summaries"]) >= {"start_task", "await_task"}
    full = await api.alice.post("/v1/calls/describe", json={"detail": "full"})
    assert set(full.json()["calls"]) >= {"start_task", "await_task", "continue_task"}


async def test_errors_are_json_with_their_code_and_status(api: Api) -> None:
    bad_flow = await api.alice.post("/v1/calls/start_task", json={"flow": [{"fly": "x"}]})
    assert bad_flow.status_code == 422 and error(bad_flow)["code"] == "INVALID_FLOW"
    neither = await api.alice.post("/v1/calls/start_task", json={})
    assert neither.status_code == 422 and error(neither)["code"] == "INVALID_REQUEST"
    not_json = await api.alice.post(
        "/v1/calls/start_task", content=b"{nope", headers={"Content-Type": "application/json"}
    )
    assert not_json.status_code == 422 and error(not_json)["code"] == "INVALID_REQUEST"
    not_utf8 = await api.alice.post(
        "/v1/calls/start_task",
        content=b'{"task": "\xff\xfe"}',
        headers={"Content-Type": "application/json"},
    )
    assert not_utf8.status_code == 422 and error(not_utf8)["code"] == "INVALID_REQUEST"
    wrong_method = await api.alice.delete("/v1/tasks")
    assert wrong_method.status_code == 405
    assert wrong_method.headers["allow"] == "GET, HEAD, POST"
    missing = await api.alice.post("/v1/calls/await_task", json={"id": "task-404"})
    assert missing.status_code == 404 and error(missing)["code"] == "UNKNOWN_TASK"
    planner = await api.alice.post("/v1/calls/plan_task", json={"task": "book a flight"})
    assert planner.status_code == 422 and error(planner)["code"] == "PLANNER_UNAVAILABLE"
    task_id = await start(api.alice)
    await settle(api.alice, task_id)
    wrong = await api.alice.post("/v1/calls/continue_task", json={"id": task_id})
    assert wrong.status_code == 409
    assert error(wrong)["code"] == "WRONG_STATE" and error(wrong)["state"] == "done"
    route = await api.alice.get("/v1/nowhere")
    assert route.status_code == 404 and error(route)["code"] == "NOT_FOUND"


LOOSE_NUMBERS_AND_FLAGS = [
    ("await_task", {"id": "x", "timeout_ms": "5"}, "timeout_ms"),
    ("await_task", {"id": "x", "timeout_ms": 5.0}, "timeout_ms"),
    ("continue_task", {"id": "x", "approve": "true"}, "approve"),
    ("continue_task", {"id": "x", "approve": 1}, "approve"),
    ("list_tasks", {"limit": "5"}, "limit"),
    ("start_task", {"flow": FLOW, "budget": {"max_actions": "5"}}, "budget.max_actions"),
    ("start_task", {"flow": FLOW, "constraints": {"headed": "false"}}, "constraints.headed"),
    ("start_task", {"saved_flow": {"name": "x", "version": "1"}}, "saved_flow.version"),
    (
        "plan_task",
        {"task": "x", "constraints": {"allow_destructive": 1}},
        "constraints.allow_destructive",
    ),
]
"""A string or another type where a number or a flag goes: what MCP refuses too."""


@pytest.mark.parametrize(("call", "body", "at"), LOOSE_NUMBERS_AND_FLAGS)
async def test_a_number_or_a_flag_is_never_read_from_a_string(
    api: Api, call: str, body: dict[str, object], at: str
) -> None:
    refused = await api.alice.post(f"/v1/calls/{call}", json=body)
    assert refused.status_code == 422, refused.text
    problem = error(refused)
    assert problem["code"] == "INVALID_REQUEST"
    assert problem["at"] == at
    listed = await api.alice.post("/v1/calls/list_tasks", json={})
    assert listed.json()["tasks"] == []


async def test_await_task_long_polls_until_the_task_stops(api: Api) -> None:
    go = asyncio.Event()

    async def held(request: object) -> object:
        await go.wait()
        return gate("1", "Confirm booking")(request)  # type: ignore[arg-type]

    api.runner.add(held)  # type: ignore[arg-type]
    task_id = await start(api.alice, CONFIRM_FLOW)
    waiting = asyncio.create_task(
        api.alice.post("/v1/calls/await_task", json={"id": task_id, "timeout_ms": 30_000})
    )
    await api.runner.started.wait()
    await asyncio.sleep(0.1)
    assert not waiting.done()
    go.set()
    view = (await waiting).json()
    assert view["status"]["state"] == "needs_approval"
    assert view["status"]["target"] == "Confirm booking"


# ------------------------------------------------------------------ auth and owners


async def test_no_token_and_a_wrong_token_are_refused(api: Api) -> None:
    for path, body in [("/v1/calls/list_tasks", {}), ("/v1/calls/start_task", {"flow": FLOW})]:
        none = await api.anonymous.post(path, json=body)
        assert none.status_code == 401 and error(none)["code"] == "UNAUTHORIZED"
        assert none.headers["www-authenticate"] == "Bearer"
        wrong = await api.anonymous.post(
            path, json=body, headers={"Authorization": "Bearer gofer_nope"}
        )
        assert wrong.status_code == 401 and error(wrong)["code"] == "UNAUTHORIZED"
    tasks = await api.alice.post("/v1/calls/list_tasks", json={})
    assert tasks.json()["tasks"] == []
    mcp = await api.anonymous.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert mcp.status_code == 401 and error(mcp)["code"] == "UNAUTHORIZED"


async def test_another_owners_task_answers_exactly_as_a_missing_one(api: Api) -> None:
    theirs = await start(api.alice)
    await settle(api.alice, theirs)
    missing = "task-" + "9" * (len(theirs) - len("task-"))
    assert len(missing) == len(theirs)
    calls = [
        ("POST", "/v1/calls/await_task", {"id": "{id}", "timeout_ms": 0}),
        ("POST", "/v1/calls/continue_task", {"id": "{id}"}),
        ("POST", "/v1/calls/cancel_task", {"id": "{id}"}),
        ("POST", "/v1/calls/task_report", {"id": "{id}"}),
        ("GET", "/v1/tasks/{id}", None),
        ("GET", "/v1/tasks/{id}/report", None),
        ("GET", "/v1/tasks/{id}/events", None),
        ("POST", "/v1/tasks/{id}/reply", {"inputs": {"x": "y"}}),
        ("POST", "/v1/tasks/{id}/approve", None),
        ("POST", "/v1/tasks/{id}/resolve", None),
        ("GET", "/v1/tasks/{id}/artifacts/shot.png", None),
    ]
    for method, path, body in calls:
        answers = []
        for task_id in (theirs, missing):
            filled = json.loads(json.dumps(body).replace("{id}", task_id)) if body else None
            response = await api.bob.request(method, path.replace("{id}", task_id), json=filled)
            answers.append(response)
        other, none = answers
        assert other.status_code == none.status_code == 404, path
        assert other.content.replace(theirs.encode(), b"ID") == none.content.replace(
            missing.encode(), b"ID"
        ), path
        same = {"content-length": "", "date": ""}
        assert dict(other.headers) | same == dict(none.headers) | same, path
    listed = await api.bob.post("/v1/calls/list_tasks", json={})
    assert listed.json()["tasks"] == []
    mine = await api.alice.get(f"/v1/tasks/{theirs}")
    assert mine.status_code == 200


async def test_a_replayed_idempotency_key_opens_no_second_task(api: Api) -> None:
    body = {"flow": FLOW, "facts": {"email": "asha@example.com"}}
    key = {"Idempotency-Key": "order-7"}
    first, again = await asyncio.gather(
        api.alice.post("/v1/calls/start_task", json=body, headers=key),
        api.alice.post("/v1/calls/start_task", json=body, headers=key),
    )
    later = await api.alice.post("/v1/calls/start_task", json=body, headers=key)
    ids = {r.json()["id"] for r in (first, again, later)}
    assert len(ids) == 1
    listed = await api.alice.post("/v1/calls/list_tasks", json={})
    assert [t["id"] for t in listed.json()["tasks"]] == list(ids)
    other_body = await api.alice.post("/v1/calls/start_task", json={"flow": FLOW}, headers=key)
    assert other_body.status_code == 422
    assert error(other_body)["code"] == "IDEMPOTENCY_KEY_REUSED"
    bobs = await api.bob.post("/v1/calls/start_task", json=body, headers=key)
    assert bobs.status_code == 200 and bobs.json()["id"] not in ids
    created = [
        await api.alice.post(
            "/v1/tasks", json={"instruction": "Book it."}, headers={"Idempotency-Key": "plus-1"}
        )
        for _ in range(2)
    ]
    assert [c.status_code for c in created] == [201, 201]
    assert created[0].json()["id"] == created[1].json()["id"]
    refused = await api.alice.post(
        "/v1/calls/start_task", json={"flow": [{"fly": 1}]}, headers={"Idempotency-Key": "bad-1"}
    )
    assert error(refused)["code"] == "INVALID_FLOW"
    retried = await api.alice.post(
        "/v1/calls/start_task", json={"flow": FLOW}, headers={"Idempotency-Key": "bad-1"}
    )
    assert retried.status_code == 200


async def test_a_body_over_the_limit_is_refused_before_any_route(api: Api) -> None:
    big = {"flow": FLOW, "facts": {"note": "x" * (MAX_BODY_BYTES + 10)}}
    announced = await api.alice.post("/v1/calls/start_task", json=big)
    assert announced.status_code == 413 and error(announced)["code"] == "REQUEST_TOO_LARGE"

    async def chunks() -> AsyncIterator[bytes]:
        payload = json.dumps(big).encode()
        for i in range(0, len(payload), 65536):
            yield payload[i : i + 65536]

    streamed = await api.alice.post(
        "/v1/calls/start_task", content=chunks(), headers={"Content-Type": "application/json"}
    )
    assert streamed.status_code == 413 and error(streamed)["code"] == "REQUEST_TOO_LARGE"
    to_mcp = await api.alice.post("/mcp", content=b"x" * (MAX_BODY_BYTES + 1))
    assert to_mcp.status_code == 413
    listed = await api.alice.post("/v1/calls/list_tasks", json={})
    assert listed.json()["tasks"] == []


async def test_one_request_starts_at_most_five_tasks_all_or_none(api: Api) -> None:
    six = {"tasks": [{"flow": FLOW}] * 6}
    refused = await api.alice.post("/v1/tasks/batch", json=six)
    assert refused.status_code == 422 and error(refused)["code"] == "TOO_MANY_STARTS"
    half = {"tasks": [{"flow": FLOW}, {"flow": [{"fly": 1}]}]}
    broken = await api.alice.post("/v1/tasks/batch", json=half)
    assert broken.status_code == 422
    assert error(broken)["code"] == "INVALID_FLOW" and error(broken)["index"] == 1
    withdrawn = error(broken)["withdrawn"]
    listed = (await api.alice.get("/v1/tasks")).json()["tasks"]
    assert [t["id"] for t in listed] == withdrawn and len(listed) == 1
    assert listed[0]["view"]["status"]["state"] in ("cancelled", "done")
    assert listed[0]["resolved_at"] is not None
    five = await api.alice.post("/v1/tasks/batch", json={"tasks": [{"flow": FLOW}] * 5})
    assert five.status_code == 201 and len(five.json()["tasks"]) == 5


# ------------------------------------------------------------------ the person's routes


async def test_a_persons_task_from_ask_to_mark_done(api: Api) -> None:
    api.runner.add(gate("1", "Confirm booking"))
    flow = [
        {"browse": "https://shop.example.com/"},
        {"enter": "${email}", "into": "Email"},
        {"stop_before": "confirming the booking"},
    ]
    created = await api.alice.post(
        "/v1/tasks",
        json={
            "instruction": "Book the 09:30 flight to Srinagar. Use my usual details.",
            "flow": flow,
        },
    )
    assert created.status_code == 201
    task = created.json()
    assert task["title"] == "Book the 09:30 flight to Srinagar"
    assert task["view"]["status"] == {"state": "needs_input", "fields": ["email"]}
    assert task["task_status"] == "input_required"
    task_id = task["id"]
    replied = await api.alice.post(
        f"/v1/tasks/{task_id}/reply", json={"inputs": {"email": "asha@example.com"}}
    )
    assert replied.status_code == 200
    view = await settle(api.alice, task_id)
    assert view["status"]["state"] == "needs_approval"  # type: ignore[index]
    bare = await api.alice.post(f"/v1/tasks/{task_id}/approve")
    assert bare.status_code == 422 and bare.json()["error"]["at"] == "approval_id"
    approval_id = view["status"]["approval_id"]  # type: ignore[index]
    approved = await api.alice.post(
        f"/v1/tasks/{task_id}/approve", params={"approval_id": approval_id}
    )
    assert approved.status_code == 200
    assert (await settle(api.alice, task_id))["status"]["state"] == "done"  # type: ignore[index]
    resolved = (await api.alice.post(f"/v1/tasks/{task_id}/resolve")).json()
    assert resolved["resolved_at"] is not None
    reopened = (await api.alice.post(f"/v1/tasks/{task_id}/reopen")).json()
    assert reopened["resolved_at"] is None
    story = (await api.alice.get(f"/v1/tasks/{task_id}/report")).json()
    assert story["task"]["title"] == "Book the 09:30 flight to Srinagar"
    kinds = [e["kind"] for e in story["report"]["log"]]
    assert [k for k in kinds if k in ("start", "reply", "resolved", "reopened")] == [
        "start",
        "reply",
        "reply",
        "resolved",
        "reopened",
    ]
    assert "asha@example.com" not in json.dumps(story["report"]["log"])
    listed = (await api.alice.get("/v1/tasks")).json()["tasks"]
    assert [t["id"] for t in listed] == [task_id]


async def test_decline_cancels_and_again_retries_a_failed_step(api: Api) -> None:
    api.runner.add(gate("1", "Confirm booking"))
    declining = await start(api.alice, CONFIRM_FLOW)
    asking = await settle(api.alice, declining)
    approval_id = asking["status"]["approval_id"]  # type: ignore[index]
    declined = (
        await api.alice.post(f"/v1/tasks/{declining}/decline", params={"approval_id": approval_id})
    ).json()
    assert declined["view"]["status"]["state"] == "cancelled"
    assert declined["task_status"] == "cancelled"
    api.runner.add(fail("1", "no button called Next"))
    failing = await start(api.alice)
    view = await settle(api.alice, failing)
    assert view["status"]["state"] == "failed" and view["status"]["recoverable"]  # type: ignore[index]
    first, second = await asyncio.gather(
        api.alice.post(f"/v1/tasks/{failing}/again"), api.alice.post(f"/v1/tasks/{failing}/again")
    )
    assert sorted([first.status_code, second.status_code]) == [200, 409]
    assert (await settle(api.alice, failing))["status"]["state"] == "done"  # type: ignore[index]
    runs = [r for t, r in api.runner.requests if t == failing]
    assert len(runs) == 2


async def test_sse_streams_a_tasks_views_until_it_can_change_no_more(api: Api) -> None:
    go = asyncio.Event()

    async def held(request: object) -> object:
        await go.wait()
        return gate("1", "Confirm booking")(request)  # type: ignore[arg-type]

    api.runner.add(held)  # type: ignore[arg-type]
    task_id = await start(api.alice, CONFIRM_FLOW)
    states: list[str] = []

    async def read() -> None:
        async with api.alice.stream("GET", f"/v1/tasks/{task_id}/events") as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            async for line in response.aiter_lines():
                if line.startswith("data:"):
                    view = json.loads(line[5:])
                    states.append(view["status"]["state"])
                    if view["status"]["state"] == "running":
                        go.set()
                    if view["status"]["state"] == "needs_approval":
                        approval = {"approve": True, "approval_id": view["status"]["approval_id"]}
                        await api.alice.post(
                            "/v1/calls/continue_task", json={"id": task_id, **approval}
                        )

    async with asyncio.timeout(20):
        await read()
    assert states[0] == "running"
    assert "needs_approval" in states and states[-1] == "done"


async def test_the_openapi_spec_is_served_with_every_route(api: Api) -> None:
    spec = (await api.anonymous.get("/openapi.json")).json()
    paths = set(spec["paths"])
    assert {
        f"/v1/calls/{c}"
        for c in (
            "describe",
            "plan_task",
            "start_task",
            "await_task",
            "continue_task",
            "cancel_task",
            "task_report",
            "list_tasks",
        )
    } <= paths
    assert {"/v1/tasks", "/v1/tasks/{task_id}", "/v1/tasks/{task_id}/events"} <= paths
    assert "HTTPBearer" in spec["components"]["securitySchemes"]


# ------------------------------------------------------------------ tokens


async def test_the_token_file_keeps_only_digests(tmp_path: Path) -> None:
    path = tmp_path / "tokens.db"
    async with SQLiteConnector(path) as db:
        store = Tokens(db)
        issued = await store.create("asha", "laptop")
        assert await store.owner_of(issued.token) == "asha"
        assert await store.owner_of(issued.token + "x") is None
    async with SQLiteConnector(path) as db:
        reopened = Tokens(db)
        assert await reopened.owner_of(issued.token) == "asha"
        assert [t.owner for t in await reopened.list()] == ["asha"]
        assert await reopened.revoke(issued.info.id)
        assert await reopened.owner_of(issued.token) is None
    for file in tmp_path.iterdir():
        assert issued.token.encode() not in file.read_bytes()
    with pytest.raises(GoferError, match="INVALID_REQUEST"):
        await MemoryTokenStore().create("no spaces allowed")
