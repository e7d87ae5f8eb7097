"""Do it once, rerun it with no model: a planned task (scripted model endpoint) on a
real small site is saved, rerun from its saved flow with new facts and no model call;
when the site renames its button, the rerun is rescued, saved as version 2, and
version 2 reruns with no model call. Judged by the site's own records.

Real ``Tasks`` over the real ``WorkspaceRunner`` (headless Chromium) with every model
pass configured on one scripted endpoint, a SQLite store.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from gofer.cli import EXIT_CODES, main
from gofer.demo import DemoServer
from gofer.models import ChatServer, ModelsConfig
from gofer.surfaces import BrowserEngine
from gofer.tasks import Tasks, WorkspaceRunner
from gofer.wiring import ModelPasses, store_for

from .conftest import FAST

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@dataclass
class Contacts:
    """A contacts form whose button says ``button``; ``added`` is what it received."""

    button: str = "Add contact"
    added: list[dict[str, str]] = field(default_factory=list)
    server: DemoServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return self.server.url + "contacts/new"

    async def form(self, request: Request) -> Response:
        return HTMLResponse(
            "<!doctype html><html><head><title>New contact</title></head><body>"
            "<h1>New contact</h1><form method='post' action='/contacts'>"
            "<label>Name <input name='name'></label>"
            "<label>Email <input name='email' type='email'></label>"
            f"<button type='submit'>{self.button}</button></form></body></html>"
        )

    async def add(self, request: Request) -> Response:
        form = await request.form()
        self.added.append({k: str(v) for k, v in form.items()})
        return HTMLResponse(
            "<!doctype html><html><head><title>Contacts</title></head><body>"
            f"<h1>Contact added</h1><p>{len(self.added)} contacts</p></body></html>"
        )


@pytest_asyncio.fixture(loop_scope="session")
async def contacts() -> AsyncIterator[Contacts]:
    site = Contacts()
    app = Starlette(
        routes=[
            Route("/contacts/new", site.form),
            Route("/contacts", site.add, methods=["POST"]),
        ]
    )
    async with DemoServer(app=app) as server:
        site.server = server
        yield site


async def run(tasks: Tasks, request: dict[str, Any]) -> Any:
    view = await tasks.start_task(request)
    done = await tasks.await_task({"id": view.id, "timeout_ms": 90_000})
    return view.id, done, await tasks.task_report({"id": view.id})


async def test_a_planned_task_saved_reruns_with_no_model_and_a_rescued_rerun_is_version_2(
    engine: BrowserEngine, contacts: Contacts, chat_server: ChatServer, tmp_path: Path
) -> None:
    site = contacts
    steps = [
        {"browse": site.url},
        {"enter": "${name}", "into": "Name"},
        {"enter": "${email}", "into": "Email"},
        {"click": "Add contact"},
    ]
    chat_server.add("Here is the flow:\n" + json.dumps({"steps": steps}))
    origins = [site.url.split("/contacts")[0]]
    constraints = {"origins": origins}
    config = ModelsConfig.on_endpoint(chat_server.base_url, "sk-local-test")
    async with (
        store_for(str(tmp_path / "gofer.db")) as db,
        ModelPasses(config) as passes,
        WorkspaceRunner(engine=engine, settings=FAST, decider=passes.decider) as runner,
        Tasks(runner, store=db, **passes.for_tasks()) as tasks,
    ):
        first_id, first, first_report = await run(
            tasks,
            {
                "task": f"Add Asha (asha@example.com) as a contact on {site.url}",
                "facts": {"name": "Asha Rao", "email": "asha@example.com"},
                "constraints": constraints,
            },
        )
        assert first.status.state == "done", first.status
        assert site.added == [{"name": "Asha Rao", "email": "asha@example.com"}]
        assert first_report.spend.model_calls == 1 and len(chat_server.requests) == 1

        saved = await tasks.flows.save(
            {"name": "add contact", "task_id": first_id, "description": "add a contact"}
        )
        assert (saved.version, saved.params) == (1, ["name", "email"])

        # The same site, new facts: no model call at all.
        _id, again, again_report = await run(
            tasks,
            {
                "saved_flow": {"name": "add contact"},
                "facts": {"name": "Kiran Das", "email": "kiran@example.com"},
                "constraints": constraints,
            },
        )
        assert again.status.state == "done", again.status
        assert site.added[-1] == {"name": "Kiran Das", "email": "kiran@example.com"}
        assert again_report.spend.model_calls == 0 and len(chat_server.requests) == 1

        # The site renamed its button: the rescuer gets the rerun past it.
        site.button = "Save"
        chat_server.add(
            json.dumps(
                {
                    "action": "retry",
                    "reason": "the button is now called Save",
                    "covers": 0,
                    "steps": [{"click": "Save"}],
                }
            )
        )
        rescued_id, rescued, rescued_report = await run(
            tasks,
            {
                "saved_flow": {"name": "add contact", "version": 1},
                "facts": {"name": "Meera Iyer", "email": "meera@example.com"},
                "constraints": constraints,
            },
        )
        assert rescued.status.state == "done", rescued.status
        assert site.added[-1] == {"name": "Meera Iyer", "email": "meera@example.com"}
        assert [r.outcome for r in rescued_report.rescues] == ["recovered"]
        assert len(chat_server.requests) == 2

        second = await tasks.flows.save({"name": "add contact", "task_id": rescued_id})
        assert second.version == 2
        assert second.flow["steps"][-1] == {"click": "Save"}
        assert (await tasks.flows.show("add contact", 1)).flow["steps"][-1] == steps[-1]

        _id, v2, v2_report = await run(
            tasks,
            {
                "saved_flow": {"name": "add contact"},
                "facts": {"name": "Ravi Shah", "email": "ravi@example.com"},
                "constraints": constraints,
            },
        )
        assert v2.status.state == "done", v2.status
        assert site.added[-1] == {"name": "Ravi Shah", "email": "ravi@example.com"}
        assert v2_report.spend.model_calls == 0 and len(chat_server.requests) == 2
        assert len(site.added) == 4


async def test_gofer_flows_saves_what_gofer_run_ran_and_runs_it_again(
    contacts: Contacts,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    site = contacts
    monkeypatch.setenv("GOFER_DB", str(tmp_path / "gofer.db"))

    async def gofer(*args: str) -> tuple[int, str]:
        """``gofer ARGS`` in this process (its own event loop, on a thread)."""
        capsys.readouterr()
        code = await asyncio.to_thread(main, list(args))
        return code, capsys.readouterr().out

    flow = tmp_path / "flow.json"
    flow.write_text(
        json.dumps(
            [
                {"browse": site.url},
                {"enter": "${name}", "into": "Name"},
                {"enter": "${email}", "into": "Email"},
                {"click": "Add contact"},
            ]
        )
    )
    facts = tmp_path / "facts.json"
    facts.write_text(json.dumps({"name": "Asha Rao", "email": "asha@example.com"}))
    code, out = await gofer("run", str(flow), "--facts", str(facts), "--json")
    assert code == 0, out
    task_id = json.loads(out)["id"]

    code, out = await gofer(
        "flows", "save", "add contact", "--from-task", task_id, "--description", "adds one"
    )
    assert code == 0, out
    assert out.strip() == "add contact v1 — adds one; asks for: ${name}, ${email}"
    code, out = await gofer("flows", "list", "--json")
    [listed] = json.loads(out)["flows"]
    assert (listed["name"], listed["version"], listed["from_task"]) == ("add contact", 1, task_id)

    facts.write_text(json.dumps({"name": "Kiran Das", "email": "kiran@example.com"}))
    code, out = await gofer("flows", "run", "add contact", "--facts", str(facts), "--json")
    assert code == 0, out
    assert json.loads(out)["status"]["state"] == "done"
    assert site.added == [
        {"name": "Asha Rao", "email": "asha@example.com"},
        {"name": "Kiran Das", "email": "kiran@example.com"},
    ]

    code, out = await gofer("flows", "delete", "add contact")
    assert (code, out.strip()) == (0, "deleted 1 version of add contact")
    code, out = await gofer("flows", "show", "add contact", "--json")
    assert code == EXIT_CODES["refused"] and json.loads(out)["error"]["code"] == "UNKNOWN_FLOW"
