"""An approval presses only what the person saw: the page changes under a waiting
approval (the Delete now belongs to another section and item), so approving it asks
again about the new control instead of pressing; the stale id is refused, the new one
presses once, and using it again is refused. Judged by the requests the site received.

Real ``Tasks`` over the real ``WorkspaceRunner`` (headless Chromium), a SQLite store.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import pytest_asyncio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from gofer.demo import DemoServer
from gofer.errors import GoferError
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks, WorkspaceRunner
from gofer.tasks.contract import NeedsApproval
from gofer.wiring import store_for

from .conftest import FAST

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

PAGE = """<!doctype html><html><head><title>Mail</title></head><body>
<main><section id="box"></section></main>
<script>
let shown = -1, busy = false;
async function draw() {
  if (busy) return;
  busy = true;
  const state = await (await fetch('/state.json', {cache: 'no-store'})).json();
  busy = false;
  if (state.version === shown) return;
  shown = state.version;
  document.getElementById('box').innerHTML =
    '<h2>' + state.heading + '</h2><p>' + state.item + '</p>' +
    '<button type="button" data-id="' + state.id + '">Delete</button>';
  document.querySelector('#box button').onclick = async (event) => {
    clearInterval(timer);
    await fetch('/items/' + event.target.dataset.id + '/delete', {method: 'POST'});
    document.getElementById('box').innerHTML = '<h2>Deleted</h2>';
  };
  fetch('/rendered/' + state.version, {method: 'POST'});
}
draw(); const timer = setInterval(draw, 100);
</script></body></html>"""


@dataclass
class Mail:
    """A mail page whose one item (and the section it is in) the server may change."""

    version: int = 0
    deleted: list[str] = field(default_factory=list)
    served: dict[int, asyncio.Event] = field(default_factory=dict)  # versions the page showed
    server: DemoServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url + "mail"

    def state(self) -> dict[str, object]:
        if self.version == 0:
            return {"version": 0, "heading": "Drafts", "item": "Invoice 12 to Asha", "id": 12}
        return {"version": 1, "heading": "Scheduled", "item": "Payroll 40 to Kiran", "id": 40}

    async def page(self, request: Request) -> Response:
        return HTMLResponse(PAGE)

    async def state_json(self, request: Request) -> Response:
        return JSONResponse(self.state())

    async def rendered(self, request: Request) -> Response:
        self.served.setdefault(int(request.path_params["version"]), asyncio.Event()).set()
        return JSONResponse({})

    async def delete(self, request: Request) -> Response:
        self.deleted.append(request.path_params["item"])
        return JSONResponse({"deleted": request.path_params["item"]})


@pytest_asyncio.fixture(loop_scope="session")
async def mail() -> AsyncIterator[Mail]:
    site = Mail()
    app = Starlette(
        routes=[
            Route("/mail", site.page),
            Route("/state.json", site.state_json),
            Route("/rendered/{version}", site.rendered, methods=["POST"]),
            Route("/items/{item}/delete", site.delete, methods=["POST"]),
        ]
    )
    async with DemoServer(app=app) as server:
        site.server = server
        yield site


async def waiting(tasks: Tasks, task_id: str) -> NeedsApproval:
    view = await tasks.await_task({"id": task_id, "timeout_ms": 60_000})
    assert isinstance(view.status, NeedsApproval), view.status
    return view.status


async def test_an_approval_presses_only_the_control_seen_and_only_once(
    engine: BrowserEngine, mail: Mail, tmp_path: Path
) -> None:
    async with (
        store_for(str(tmp_path / "gofer.db")) as db,
        WorkspaceRunner(engine=engine, settings=FAST) as runner,
        Tasks(runner, store=db) as tasks,
    ):
        view = await tasks.start_task({"flow": [{"browse": mail.url}, {"click": "Delete"}]})
        first = await waiting(tasks, view.id)
        assert first.approval_id and first.control is not None
        seen = first.control
        assert (seen.label, seen.kind, seen.section) == ("Delete", "button", "Drafts")
        assert seen.address == mail.url

        # The page changes under the waiting approval: the Delete is another item's now.
        changed = mail.served.setdefault(1, asyncio.Event())
        mail.version = 1
        await changed.wait()
        await tasks.continue_task(
            {"id": view.id, "approve": True, "approval_id": first.approval_id}
        )
        second = await waiting(tasks, view.id)
        assert mail.deleted == []
        assert second.approval_id and second.approval_id != first.approval_id
        assert second.control is not None and second.control.section == "Scheduled"

        with pytest.raises(GoferError) as stale:
            await tasks.continue_task(
                {"id": view.id, "approve": True, "approval_id": first.approval_id}
            )
        assert stale.value.code == "APPROVAL_STALE"
        with pytest.raises(GoferError) as unknown:
            await tasks.continue_task({"id": view.id, "approve": True, "approval_id": "appr-x"})
        assert unknown.value.code == "APPROVAL_STALE"

        await tasks.continue_task(
            {"id": view.id, "approve": True, "approval_id": second.approval_id}
        )
        done = await tasks.await_task({"id": view.id, "timeout_ms": 60_000})
        assert done.status.state == "done", done.status
        with pytest.raises(GoferError) as used:
            await tasks.continue_task(
                {"id": view.id, "approve": True, "approval_id": second.approval_id}
            )
        assert used.value.code == "APPROVAL_USED"
    assert mail.deleted == ["40"]
