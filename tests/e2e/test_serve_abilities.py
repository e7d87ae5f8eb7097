"""Who runs a turn, with real processes on one SQLite file (issue 29, item 7).

A ``gofer worker`` with no model never claims a task whose turns need a planner: the
task waits (no model call, never ``done`` with no steps) until a worker with the same
model settings runs it; ``gofer run --task`` with a model runs its own task beside a
worker with none. Judged by the demo site's own records (one search, the flight it
found) and the scripted model's requests.
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from gofer.cli import DEMO_FACTS, EXIT_CODES, demo_flow
from gofer.demo import DemoServer
from gofer.models import ChatServer

from .conftest import Events
from .serve import gofer, killed, start_serve, start_worker
from .test_cli_models import model_env

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def plan(demo: DemoServer) -> str:
    steps = demo_flow(demo.url)["steps"][:7]  # search, sort, read the first result
    return "Here is the flow:\n" + json.dumps({"vars": {"cheapest": ""}, "steps": steps})


def ask(demo: DemoServer) -> str:
    return f"Go to {demo.url} and find the cheapest flight from Delhi to Srinagar on 14 October"


def store_env(root: Path) -> dict[str, str]:
    bare = {k: v for k, v in os.environ.items() if not k.startswith("GOFER_MODEL")}
    return {
        **bare,
        "XDG_DATA_HOME": str(root),
        "GOFER_DB": str(root / "gofer.db"),
        "GOFER_TOKENS": str(root / "tokens.db"),
        "PYTHONUNBUFFERED": "1",
    }


async def test_a_worker_without_a_model_leaves_a_planned_task_to_one_with_it(
    demo: DemoServer, events: Events, chat_server: ChatServer, tmp_path: Path
) -> None:
    bare = store_env(tmp_path)
    modelled = bare | model_env(chat_server, tmp_path)
    code, out, err = await gofer("token", "create", "--owner", "alice", "--json", env=bare)
    assert code == 0, err
    headers = {"Authorization": f"Bearer {json.loads(out)['token']}"}
    chat_server.add(plan(demo))
    server = await start_serve(modelled, "--allow-private", "--per-process", "0", own_session=True)
    no_model = await start_worker(bare)
    try:
        async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=90) as http:
            body: dict[str, Any] = {
                "task": ask(demo),
                "constraints": {"origins": [demo.url.rstrip("/")]},
            }
            started = (await http.post("/v1/calls/start_task", json=body)).json()
            assert started["status"]["state"] == "running", started
            waited = await http.post(
                "/v1/calls/await_task", json={"id": started["id"], "timeout_ms": 4000}
            )
            assert waited.json()["status"]["state"] == "running", waited.text
            assert chat_server.requests == [] and events.of("search") == []

            with_model = await start_worker(modelled)
            try:
                done = await http.post(
                    "/v1/calls/await_task", json={"id": started["id"], "timeout_ms": 90_000}
                )
            finally:
                await killed(with_model.proc)
    finally:
        await killed(no_model.proc)
        await killed(server.proc)
    status = done.json()["status"]
    assert status["state"] == "done", done.text
    assert "Indus Air" in json.dumps(status["records"]["cheapest"], ensure_ascii=False)
    assert len(events.of("search")) == 1
    assert [r["model"] for r in chat_server.requests] == ["test/planner"]


async def test_gofer_run_with_a_model_runs_its_own_task_beside_a_worker_without(
    demo: DemoServer, events: Events, chat_server: ChatServer, tmp_path: Path
) -> None:
    bare = store_env(tmp_path)
    chat_server.add(plan(demo))
    no_model = await start_worker(bare)
    try:
        await asyncio.sleep(0.5)
        code, out, err = await gofer(
            "run",
            "--task",
            ask(demo),
            "--json",
            "--origin",
            demo.url.rstrip("/"),
            env=bare | model_env(chat_server, tmp_path),
        )
    finally:
        await killed(no_model.proc)
    assert code == 0, (out, err)
    status = json.loads(out)["status"]
    assert status["state"] == "done", status
    assert "Indus Air" in json.dumps(status["records"]["cheapest"], ensure_ascii=False)
    assert len(events.of("search")) == 1
    assert [r["model"] for r in chat_server.requests] == ["test/planner"]


async def test_two_gofer_runs_on_one_store_each_run_their_own_task_in_one_browser(
    demo: DemoServer, events: Events, tmp_path: Path
) -> None:
    env = store_env(tmp_path)
    flow = tmp_path / "flow.json"
    flow.write_text(json.dumps(demo_flow(demo.url)), encoding="utf-8")
    names = ("Meera", "Tashi")
    runs = []
    for name in names:
        facts = tmp_path / f"{name}.json"
        facts.write_text(json.dumps({**DEMO_FACTS, "first name": name}), encoding="utf-8")
        args = ("run", str(flow), "--facts", str(facts), "--json", "--origin")
        runs.append(gofer(*args, demo.url.rstrip("/"), env=env))
    ended = await asyncio.gather(*runs)
    for code, out, err in ended:
        assert code == EXIT_CODES["checkpoint"], (out, err)
    ids = [json.loads(out)["id"] for _code, out, _err in ended]
    # Each booking filled its passengers once: none ran again in another browser.
    assert sorted(e["first_name"] for e in events.of("passengers")) == sorted(names)
    assert len(events.of("search")) == 2
    with sqlite3.connect(tmp_path / "gofer.db") as db:
        workers = [
            {
                w
                for (w,) in db.execute(
                    "SELECT worker FROM work_items WHERE group_key LIKE ?", (f"%{task_id}",)
                )
            }
            for task_id in ids
        ]
    assert [len(w) for w in workers] == [1, 1] and workers[0] != workers[1], workers
