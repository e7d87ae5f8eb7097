"""The task engine against the store's and the caller's worst: another owner's
screenshot over real HTTP, random task ids in every controller, a claim loop that
lives through a full disk, and a worker that dies of a bug taking its process down
(``gofer worker`` exits non-zero; ``/health`` says so)."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from gofer.api import GoferServer, MemoryTokenStore
from gofer.errors import StoreError
from gofer.store import Connector
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import gate, hang
from gofer.tasks.worker import TaskWorker

FLOW = [{"browse": "https://shop.example.com/"}, {"click": "Next"}]


def fail_claims(tasks: Tasks, error: BaseException, times: int) -> list[int]:
    """Make the worker's next ``times`` claims raise ``error`` (through the store's
    queue, the seam the worker claims through); returns the count of claims tried."""
    queue = tasks.worker.book.queue
    real = queue.claim_batch
    tried = [0]

    async def claim_batch(*args: Any, **kwargs: Any) -> Any:
        tried[0] += 1
        if tried[0] <= times:
            raise error
        return await real(*args, **kwargs)

    queue.claim_batch = claim_batch  # type: ignore[method-assign]
    return tried


async def test_another_owners_screenshot_is_the_same_404_as_a_missing_one() -> None:
    tokens = MemoryTokenStore()
    alice_token, bob_token = (
        (await tokens.create("alice")).token,
        (await tokens.create("bob")).token,
    )
    async with Tasks(ScriptedRunner()) as tasks, GoferServer(tasks, tokens) as server:

        def client(token: str) -> httpx.AsyncClient:
            headers = {"Authorization": f"Bearer {token}"}
            return httpx.AsyncClient(base_url=server.url, headers=headers, timeout=30)

        async with client(alice_token) as alice, client(bob_token) as bob:
            started = await alice.post("/v1/calls/start_task", json={"flow": FLOW})
            task_id = started.json()["id"]
            await alice.post("/v1/calls/await_task", json={"id": task_id})
            report = (await alice.post("/v1/calls/task_report", json={"id": task_id})).json()
            (shot,) = report["artifacts"]
            mine = await alice.get(f"/v1/tasks/{task_id}/artifacts/{shot['name']}")
            assert mine.status_code == 200 and mine.content.startswith(b"\x89PNG")

            theirs = await bob.get(f"/v1/tasks/{task_id}/artifacts/{shot['name']}")
            missing_id = "task-0000000000000000"
            missing_name = shot["name"].replace(task_id, missing_id)
            missing = await bob.get(f"/v1/tasks/{missing_id}/artifacts/{missing_name}")
    assert theirs.status_code == missing.status_code == 404
    assert theirs.text.replace(task_id, "ID") == missing.text.replace(missing_id, "ID")


async def test_task_ids_are_random_in_the_in_memory_controller_too() -> None:
    ids = []
    for _ in range(2):
        async with Tasks(ScriptedRunner()) as tasks:
            ids += [(await tasks.start_task({"flow": FLOW})).id for _ in range(2)]
    assert len(set(ids)) == 4
    assert all(re.fullmatch(r"task-[0-9a-f]{16}", i) for i in ids), ids


async def test_the_claim_loop_goes_on_after_a_disk_full_error(db: Connector) -> None:
    async with Tasks(ScriptedRunner(), store=db) as tasks:
        tried = fail_claims(tasks, StoreError("database or disk is full"), times=1)
        view = await tasks.start_task({"flow": FLOW})
        done = await tasks.await_task({"id": view.id, "timeout_ms": 20_000})
        assert done.status.state == "done"
        assert tried[0] >= 2
        assert tasks.worker.running and tasks.healthy


async def test_a_bug_in_the_claim_loop_kills_the_worker_and_health_says_so() -> None:
    tokens = MemoryTokenStore()
    async with Tasks(ScriptedRunner()) as tasks, GoferServer(tasks, tokens) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
            assert (await client.get("/health")).json() == {"status": "ok"}
            fail_claims(tasks, RuntimeError("a bug"), times=1)
            tasks.worker.start()
            await tasks.start_task({"flow": FLOW})
            async with asyncio.timeout(10):
                await tasks.worker.died.wait()
            health = await client.get("/health")
        assert health.status_code == 503
        assert health.json()["status"] == "unhealthy"
        assert not tasks.worker.running and not tasks.healthy
        stop = asyncio.Event()
        with pytest.raises(Exception) as raised:
            await tasks.serve(stop)
        assert getattr(raised.value, "code", None) == "WORKER_FAILED"


DYING = """
import sys
from gofer.tasks.worker import TaskWorker

async def claim(self):
    raise RuntimeError("a bug in the claim loop")

TaskWorker._claim_what_fits = claim
from gofer.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("command", [["worker"], ["serve", "--port", "0"]])
def test_a_process_whose_claim_loop_dies_exits_non_zero(command: list[str], tmp_path: Path) -> None:
    assert hasattr(TaskWorker, "_claim_what_fits")  # what DYING replaces
    env = {
        **os.environ,
        "GOFER_DB": str(tmp_path / "gofer.db"),
        "GOFER_TOKENS": str(tmp_path / "tokens.db"),
    }
    done = subprocess.run(
        [sys.executable, "-c", DYING, *command],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode != 0, done.stderr
    assert "WORKER_FAILED" in done.stderr or "stopped claiming work" in done.stderr, done.stderr
    assert "a bug in the claim loop" not in done.stderr  # named by its type, never its words


SEND = [
    {"browse": "https://mail.example.com/compose"},
    {"click": "Compose"},
    {"stop_before": "sending the message"},
    {"read": "confirmation", "as": "note"},
]


async def test_an_approved_press_cut_short_is_never_pressed_again_by_the_rerun(
    reopen: Callable[[], Any],
) -> None:
    pressing = asyncio.Event()
    first = ScriptedRunner.of(gate("2", "Send"), hang(pressing))
    async with reopen() as db, Tasks(first, store=db) as tasks:
        view = await tasks.start_task({"flow": SEND})
        paused = await tasks.await_task({"id": view.id, "timeout_ms": 5000})
        assert paused.status.state == "needs_approval"
        await tasks.continue_task({"id": view.id, "approve": True})
        async with asyncio.timeout(10):
            await pressing.wait()
        # The process stops (a restart) while the approved control is being pressed.
    after = ScriptedRunner()
    async with reopen() as db, Tasks(after, store=db) as tasks:
        unsure = await tasks.await_task({"id": view.id, "timeout_ms": 5000})
        assert unsure.status.state == "failed" and unsure.status.recoverable
        assert "not pressed a second time" in unsure.status.reason
        assert not [r for _t, r in after.requests if r.flow.steps[0].KIND == "stop_before"]
        # The caller looked and chose to go on: now it is pressed, once, and the rest runs.
        await tasks.continue_task({"id": view.id})
        done = await tasks.await_task({"id": view.id, "timeout_ms": 5000})
        assert done.status.state == "done"
        kinds = [[s.KIND for s in r.flow.steps] for _t, r in after.requests]
        assert kinds == [["stop_before"], ["read"]]


async def test_a_draining_server_says_so_on_health_so_a_proxy_takes_it_out_of_rotation() -> None:
    tokens = MemoryTokenStore()
    async with (
        Tasks(ScriptedRunner()) as tasks,
        GoferServer(tasks, tokens) as server,
        httpx.AsyncClient(base_url=server.url, timeout=30) as client,
    ):
        tasks.worker.start()
        assert (await client.get("/health")).json() == {"status": "ok"}
        await tasks.drain(5.0)
        health = await client.get("/health")
        assert health.status_code == 503
        assert health.json()["status"] == "draining"
        assert tasks.healthy  # stopping, not broken
