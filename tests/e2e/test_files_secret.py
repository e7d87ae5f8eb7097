"""A canary for secret files: a task uploads a secret passport scan, whose name and
bytes are canaries, into a page that echoes the name (its file field shows it, the page
lists "uploaded: <name>"), and stops before sending (or fails after it). The page
really took the file; yet neither canary is in any view, report, file listing, log
record, or file under the store's folder, and the stop's screenshot shows nothing of
the name: two tasks with two names of one length leave the same picture."""

from __future__ import annotations

import base64
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from gofer.runtime.workspace_runner import WorkspaceRunner
from gofer.store.sqlite import SQLiteConnector
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks, TaskView

from .conftest import FAST, Pages
from .test_tasks_booking import settle, task_page

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

APPLY = """
<h1>Visa application</h1>
<label for="scan">Passport scan</label>
<input type="file" id="scan">
<ul id="taken" style="font-family: monospace; font-size: 24px"></ul>
<button type="button">Send application</button>
<script>
document.getElementById("scan").addEventListener("change", (event) => {
  const list = document.getElementById("taken");
  list.replaceChildren();
  for (const file of event.target.files) {
    const item = document.createElement("li");
    item.textContent = "uploaded: " + file.name;
    list.appendChild(item);
  }
});
</script>
"""


def flow(url: str) -> list[dict[str, Any]]:
    return [
        {"browse": url},
        {"upload": "${passport scan}", "into": "Passport scan"},
        {"stop_before": "sending the application"},
    ]


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (str(k), *strings(v))]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


async def stopped_with(
    tasks: Tasks, runner: WorkspaceRunner, url: str, name: str, data: bytes
) -> tuple[list[str], bytes]:
    """Run the task with the secret file ``name``: every text a caller sees of it, and
    the stop's screenshot."""
    upload = await tasks.files.upload(name, data, secret=True)
    start = await tasks.start_task({"flow": flow(url), "files": {"passport scan": upload.id}})
    views: list[TaskView] = [start]
    last = await settle(tasks, start.id, views)
    assert last.status.state == "needs_approval", last.status
    page = await task_page(runner, start.id)
    assert await page.locator("#taken").inner_text() == f"uploaded: {name}", "the page took it"
    assert await page.evaluate("document.getElementById('scan').files[0].size") == len(data)
    seen = [s for v in views for s in strings(json.loads(v.model_dump_json()))]
    report = await tasks.task_report({"id": start.id})
    seen += strings(json.loads(report.model_dump_json()))
    seen += [s for f in await tasks.task_files(start.id) for s in strings(f.model_dump())]
    seen += strings(json.loads((await tasks.list_tasks()).model_dump_json()))
    [shot] = report.artifacts
    png = tasks.read_artifact(start.id, shot.name)
    await tasks.cancel_task({"id": start.id})
    return seen, png


async def failed_with(tasks: Tasks, url: str, name: str, data: bytes) -> list[str]:
    """Run a task that fails after the upload (the page never says the application
    was sent): every text a caller sees of it, the failure's reason and screen too."""
    upload = await tasks.files.upload(name, data, secret=True)
    steps = [*flow(url)[:2], {"verify": {"shows": "Application sent"}}]
    start = await tasks.start_task({"flow": steps, "files": {"passport scan": upload.id}})
    views: list[TaskView] = [start]
    last = await settle(tasks, start.id, views)
    assert last.status.state == "failed", last.status
    seen = [s for v in views for s in strings(json.loads(v.model_dump_json()))]
    report = await tasks.task_report({"id": start.id})
    return seen + strings(json.loads(report.model_dump_json()))


async def test_a_secret_files_name_and_bytes_show_nowhere(
    engine: BrowserEngine, pages: Pages, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG, logger="gofer")
    url = pages.add("/secret-file/apply", APPLY)
    canaries = {
        "passport-canary-5d1e.png": b"\x89PNG scan-canary-71c0a9 passport NO 123456",
        "passport-canary-9b3f.png": b"\x89PNG scan-canary-2e8d44 passport NO 654321",
    }
    store = tmp_path / "store"
    seen: list[str] = []
    shots = []
    async with (
        SQLiteConnector(store / "gofer.db") as db,
        WorkspaceRunner(engine=engine, settings=FAST) as runner,
        Tasks(runner, store=db) as tasks,
    ):
        for name, data in canaries.items():
            texts, png = await stopped_with(tasks, runner, url, name, data)
            seen += texts
            shots.append(png)
        seen += await failed_with(tasks, url, *next(iter(canaries.items())))
    assert any("${passport scan}" in s for s in seen), "the file is named by its fact"
    logged = [r.getMessage() for r in caplog.records if r.name.startswith("gofer")]
    assert logged, "the tasks logged nothing to search"
    kept = b"".join(p.read_bytes() for p in store.rglob("*") if p.is_file())
    for name, data in canaries.items():
        canary = name.removesuffix(".png")
        inside = data.split()[1].decode()
        for where, texts in (("a view or report", seen), ("a log record", logged)):
            shown = [t for t in texts if canary in t or inside in t]
            assert shown == [], f"{canary} in {where}: {shown[:3]}"
        for plain in (canary.encode(), inside.encode(), base64.b64encode(data)):
            assert plain not in kept, f"{plain!r} kept in plain text under the store"
    assert shots[0][:4] == b"\x89PNG" and shots[0] == shots[1], (
        "the screenshot shows something of the file's name"
    )
