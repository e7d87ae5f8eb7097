"""``gofer run``, ``gofer worker`` and ``gofer tasks`` on the store ``GOFER_DB`` names,
run as subprocesses (``python -m gofer.cli``) with a real Chromium."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from gofer.store.sqlite import SQLiteConnector
from gofer.tasks import ScriptedRunner, Tasks

from .conftest import Pages

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def command(db: Path, *args: str, **kwargs: Any) -> Any:
    env = {**os.environ, "GOFER_DB": str(db)}
    return asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gofer.cli",
        *args,
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        **kwargs,
    )


async def gofer(db: Path, *args: str) -> tuple[int, str]:
    proc = await command(db, *args)
    async with asyncio.timeout(90):
        out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode() + err.decode()


async def test_run_stores_its_task_and_tasks_lists_it_with_its_status(tmp_path: Path) -> None:
    db = tmp_path / "gofer.db"
    flow = tmp_path / "flow.json"
    flow.write_text(
        json.dumps(
            {
                "steps": [
                    {"browse": "https://example.com/"},
                    {"enter": "${passport number}", "into": "Passport"},
                ]
            }
        ),
        encoding="utf-8",
    )
    code, out = await gofer(db, "run", str(flow), "--json")
    assert code == 6, out
    task_id = json.loads(out.splitlines()[0])["id"]

    code, out = await gofer(db, "tasks", "--json")
    assert code == 0, out
    (listed,) = json.loads(out)["tasks"]
    assert listed["id"] == task_id
    assert listed["status"] == {"state": "needs_input", "fields": ["passport number"]}
    assert listed["title"] == "A flow of 2 steps."

    code, out = await gofer(db, "tasks")
    assert code == 0, out
    assert task_id in out and "needs_input" in out

    code, out = await gofer(db, "tasks", "--owner", "someone-else", "--json")
    assert (code, json.loads(out)) == (0, {"tasks": []})


async def test_a_worker_process_runs_a_task_another_process_stored(
    tmp_path: Path,
    pages: Pages,
) -> None:
    db = tmp_path / "gofer.db"
    address = pages.add("/worker-hello", "<h1>Hello from the worker test</h1>")
    async with (
        SQLiteConnector(db) as store,
        Tasks(ScriptedRunner(), store=store, work=False) as tasks,
    ):
        view = await tasks.start_task({"flow": [{"browse": address}]})
        # the page is on loopback: the operator lets this worker reach it
        worker = await command(db, "worker", "--allow-private")
        try:
            done = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        finally:
            worker.send_signal(signal.SIGTERM)
            async with asyncio.timeout(60):
                _out, err = await worker.communicate()
        assert worker.returncode == 0, err.decode()
        assert "gofer worker" in err.decode()
        assert done.status.state == "done", done
        assert "/worker-hello" in pages.hits
