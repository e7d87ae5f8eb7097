"""Saved flows on every store (memory, SQLite, PostgreSQL): versions that never
overwrite, owners who see only their own, a task's flow saved as it ran with its
hints and never a secret value, and a start from a saved flow that brings its hints
to the run (scripted runs; the store is real)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gofer.decide.types import GroundingHint
from gofer.errors import GoferError
from gofer.runtime.types import RunRequest, RunResult
from gofer.store import Connector
from gofer.tasks import ScriptedRunner, Tasks
from gofer.tasks.testing import complete

SHOP = "https://shop.example.com/"
FLOW = {
    "steps": [
        {"browse": SHOP},
        {"enter": "${email}", "into": "Email"},
        {"enter": "${password}", "into": "Password"},
        {"click": "Sign in"},
    ]
}
HINT = GroundingHint(
    site=SHOP.rstrip("/"), kind="click", words="Sign in", role="button", name="Log in"
)


def learns(*hints: GroundingHint) -> object:
    def run(request: RunRequest) -> RunResult:
        return replace(complete()(request), hints=list(hints))

    return run


async def test_saves_add_versions_and_each_owner_sees_only_their_own(db: Connector) -> None:
    async with Tasks(ScriptedRunner(), store=db) as tasks:
        asha = tasks.for_owner("asha")
        first = await asha.flows.save({"name": "sign in", "flow": FLOW, "description": "log in"})
        again = await asha.flows.save({"name": "sign in", "flow": FLOW["steps"][:2]})
        assert (first.version, again.version) == (1, 2)
        assert first.params == ["email", "password"] and first.secret_params == ["password"]
        assert (await asha.flows.show("sign in", 1)).description == "log in"
        assert len((await asha.flows.show("sign in")).flow["steps"]) == 2
        [listed] = (await asha.flows.list()).flows
        assert (listed.name, listed.version) == ("sign in", 2)

        bob = tasks.for_owner("bob")
        assert (await bob.flows.list()).flows == []
        with pytest.raises(GoferError, match="UNKNOWN_FLOW"):
            await bob.flows.show("sign in")
        with pytest.raises(GoferError, match="UNKNOWN_FLOW"):
            await bob.start_task({"saved_flow": {"name": "sign in"}, "facts": {"email": "b@x.io"}})
        with pytest.raises(GoferError, match="UNKNOWN_FLOW"):
            await bob.flows.delete("sign in")
        assert await asha.flows.delete("sign in") == 2
        assert (await asha.flows.list()).flows == []


async def test_a_task_is_saved_as_it_ran_and_reruns_with_its_hints(db: Connector) -> None:
    canary = "hunter2-canary-7731"
    runner = ScriptedRunner.of(learns(HINT))  # type: ignore[arg-type]
    async with Tasks(runner, store=db) as tasks:
        view = await tasks.start_task(
            {"flow": FLOW, "facts": {"email": "asha@example.com", "password": canary}}
        )
        done = await tasks.await_task({"id": view.id, "timeout_ms": 10_000})
        assert done.status.state == "done"
        saved = await tasks.flows.save({"name": "shop sign-in", "task_id": view.id})
        assert saved.from_task == view.id and saved.params == ["email", "password"]
        assert saved.secret_params == ["password"]
        assert [(h.words, h.name) for h in saved.hints] == [("Sign in", "Log in")]

        rerun = await tasks.start_task(
            {
                "saved_flow": {"name": "shop sign-in"},
                "facts": {"email": "kiran@example.com", "password": "other-secret-1"},
            }
        )
        finished = await tasks.await_task({"id": rerun.id, "timeout_ms": 10_000})
        assert finished.status.state == "done"
        _task, request = runner.requests[-1]
        assert HINT in request.hints
        assert "password" in request.private
        record = await tasks.task_record(rerun.id)
        assert record.request["saved_flow"] == {"name": "shop sign-in", "version": 1}
        report = await tasks.task_report({"id": rerun.id})
        assert report.spend.model_calls == 0

    async with db.transaction() as tx:
        rows = await tx.fetch_all("SELECT * FROM saved_flows")
    assert rows and canary not in repr(rows)


async def test_a_running_task_or_another_owners_task_is_not_saved(db: Connector) -> None:
    async with Tasks(ScriptedRunner(), store=db) as tasks:
        view = await tasks.start_task(
            {"flow": FLOW, "facts": {"email": "a@b.io", "password": "x1"}}
        )
        await tasks.await_task({"id": view.id, "timeout_ms": 10_000})
        with pytest.raises(GoferError, match="UNKNOWN_TASK"):
            await tasks.for_owner("bob").flows.save({"name": "mine now", "task_id": view.id})
        with pytest.raises(GoferError, match="INVALID_REQUEST"):
            await tasks.flows.save({"name": "bad/name", "flow": FLOW})
        with pytest.raises(GoferError, match="INVALID_FLOW"):
            await tasks.flows.save({"name": "broken", "flow": [{"fly": "away"}]})
