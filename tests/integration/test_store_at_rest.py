"""What the store keeps on disk: only its owner reads its files, and fact values and the
caller's answers are sealed in them, yet a task paused for a secret goes on after a
restart (every store; the bytes are read where there are any)."""

from __future__ import annotations

import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest

from gofer.errors import GoferError
from gofer.store import SecretBox, SQLiteConnector, Tokens
from gofer.store.sealing import SEALED
from gofer.tasks import ScriptedRunner, Tasks

SIGN_IN = [
    {"browse": "https://shop.example.com/login"},
    {"enter": "${password}", "into": "Password"},
    {"enter": "${one-time code}", "into": "Code"},
]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def at_rest(store_kind: str, store_url: str) -> str:
    """Everything the database holds, as its files' bytes (SQLite) or its rows' raw
    text (PostgreSQL)."""
    if store_kind == "sqlite":
        files = [Path(store_url + tail) for tail in ("", "-wal", "-shm")]
        return "".join(f.read_bytes().decode("latin-1") for f in files if f.exists())
    with psycopg.connect(store_url) as conn:
        rows = conn.execute(
            "SELECT request::text FROM tasks UNION ALL SELECT data::text FROM task_events "
            "UNION ALL SELECT flow || description FROM saved_flows"
        ).fetchall()
    return "\n".join(str(r[0]) for r in rows)


async def test_fact_values_and_answers_are_sealed_at_rest_and_the_paused_task_goes_on(
    store_kind: str,
    store_url: str,
    reopen: Callable[[], Any],
    canary: Callable[[str], str],
) -> None:
    password = canary("canary-pass-9c41d7e2")
    code = canary("canary-otp-550173")
    async with reopen() as db, Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        asked = await tasks.start_task(
            {"flow": SIGN_IN, "facts": {"password": password}, "secret_facts": ["password"]}
        )
        assert asked.status.state == "needs_input"
        answered = await tasks.continue_task(
            {"id": asked.id, "inputs": {"one-time code": code}, "secret_inputs": ["one-time code"]}
        )
        assert answered.status.state == "running"
        if store_kind != "memory":
            held = at_rest(store_kind, store_url)
            assert asked.id in held, "the task itself is written"
            assert password not in held and code not in held
            assert SEALED in held
    runner = ScriptedRunner()
    async with reopen() as db, Tasks(runner, store=db) as tasks:
        done = await tasks.await_task({"id": asked.id, "timeout_ms": 5000})
        assert done.status.state == "done"
    [(_task, run)] = runner.requests
    assert run.variables["password"] == password
    assert run.variables["one-time code"] == code
    assert {"password", "one-time code"} <= run.private


async def test_a_saved_flow_is_sealed_at_rest_and_reads_back_as_saved(
    store_kind: str,
    store_url: str,
    reopen: Callable[[], Any],
    canary: Callable[[str], str],
) -> None:
    typed = canary("canary-kept-step-7d31")
    about = canary("canary-description-51aa")
    flow = {"steps": [{"browse": "https://shop.example.com/"}, {"click": typed}]}
    async with reopen() as db, Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        await tasks.flows.save({"name": "kept", "flow": flow, "description": about})
        if store_kind != "memory":
            held = at_rest(store_kind, store_url)
            assert typed not in held and about not in held and SEALED in held
    async with reopen() as db, Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        shown = await tasks.flows.show("kept")
    assert shown.description == about
    assert shown.flow["steps"][1] == {"click": typed}


async def test_a_value_sealed_under_another_key_is_refused_never_shown(tmp_path: Path) -> None:
    path = tmp_path / "gofer.db"
    async with (
        SQLiteConnector(path) as db,
        Tasks(ScriptedRunner(), store=db, work=False) as tasks,
    ):
        view = await tasks.start_task({"flow": SIGN_IN, "facts": {"password": "x" * 12}})
    async with (
        SQLiteConnector(path, secrets=SecretBox.generate()) as db,
        Tasks(ScriptedRunner(), store=db, work=False) as tasks,
    ):
        with pytest.raises(GoferError) as refused:
            await tasks.task_report({"id": view.id})
    assert refused.value.code == "STORE_KEY_MISMATCH"
    assert "x" * 12 not in str(refused.value)


async def test_the_store_folder_is_0700_and_its_files_0600(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "gofer"
    path = folder / "gofer.db"
    async with SQLiteConnector(path) as db, Tasks(ScriptedRunner(), store=db, work=False) as tasks:
        await tasks.start_task({"flow": SIGN_IN[:1]})
        made = sorted(p.name for p in folder.iterdir())
        assert {"gofer.db", "gofer.db-wal", "gofer.db-shm", "gofer.db.key"} <= set(made)
        assert mode(folder) == 0o700
        assert {p.name: mode(p) for p in folder.iterdir()} == {name: 0o600 for name in made}
    async with SQLiteConnector(tmp_path / "elsewhere" / "tokens.db") as token_db:
        await Tokens(token_db).create("alice")
        assert mode(tmp_path / "elsewhere") == 0o700
        assert {p.name: mode(p) for p in (tmp_path / "elsewhere").iterdir()} == {
            p.name: 0o600 for p in (tmp_path / "elsewhere").iterdir()
        }


async def test_a_looser_database_file_is_narrowed_when_opened(tmp_path: Path) -> None:
    path = tmp_path / "gofer.db"
    async with SQLiteConnector(path):
        pass
    path.chmod(0o644)
    async with SQLiteConnector(path):
        assert mode(path) == 0o600
