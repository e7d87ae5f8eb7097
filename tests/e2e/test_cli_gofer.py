"""The ``gofer`` command, run as a subprocess (``python -m gofer.cli``).

``gofer run`` books on the demo site served by this test process (the session's
DemoServer, in this process's event loop while the command runs in its own), with
its own Chromium; ``gofer describe`` and ``gofer demo`` need nothing around them.
Standard input is never a terminal here, so the command never asks anything.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gofer.cli import DEMO_FACTS, EXIT_CODES, demo_flow
from gofer.demo import DemoServer
from gofer.flow import CONTRACT_VERSION, flow_guide
from gofer.tasks import Tasks
from gofer.tasks.testing import ScriptedRunner

from .conftest import Events
from .serve import gofer

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


def write_json(path: Path, value: Any) -> str:
    path.write_text(json.dumps(value), encoding="utf-8")
    return str(path)


def one_json_object(out: str) -> dict[str, Any]:
    """Standard output holds exactly one JSON object (on one line)."""
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    value = json.loads(lines[0])
    assert isinstance(value, dict)
    return value


async def test_run_json_ends_at_the_payment_checkpoint(
    demo: DemoServer, events: Events, tmp_path: Path
) -> None:
    flow = write_json(tmp_path / "flow.json", demo_flow(demo.url))
    facts = write_json(tmp_path / "facts.json", DEMO_FACTS)

    code, out, err = await gofer(
        "run", flow, "--facts", facts, "--json", "--origin", demo.url.rstrip("/")
    )

    assert code == EXIT_CODES["checkpoint"] == 5, (out, err)
    view = one_json_object(out)
    status = view["status"]
    assert status["state"] == "checkpoint"
    assert status["continuable"] is False
    assert status["location"].startswith("Pay now")
    assert "Indus Air" in status["summary"]
    assert view["next"] == ["cancel_task", "task_report"]
    assert [e["flight"] for e in events.of("flight_selected")] == ["IU639"]
    assert events.of("payment") == []


async def test_run_refuses_an_invalid_flow(tmp_path: Path) -> None:
    flow = write_json(tmp_path / "flow.json", {"steps": [{"fly": "to Srinagar"}]})

    code, out, err = await gofer("run", flow, "--json")

    assert code == EXIT_CODES["refused"] == 2, (out, err)
    error = one_json_object(out)["error"]
    assert error["code"] == "INVALID_FLOW"
    assert error["problems"]


async def test_run_without_a_terminal_stops_at_needs_input(
    demo: DemoServer, events: Events, tmp_path: Path
) -> None:
    flow = write_json(
        tmp_path / "flow.json",
        {
            "steps": [
                {"browse": demo.url},
                {"enter": "${passport number}", "into": "Passport number"},
            ]
        },
    )

    code, out, err = await gofer("run", flow, "--json")

    assert code == EXIT_CODES["needs_input"] == 6, (out, err)
    view = one_json_object(out)
    assert view["status"] == {"state": "needs_input", "fields": ["passport number"]}
    assert view["next"][0] == "continue_task"
    assert events.all() == []  # nothing ran before the value was asked for


async def test_describe_prints_the_contract_the_step_kinds_and_the_guide() -> None:
    async with Tasks(ScriptedRunner()) as tasks:
        reply = await tasks.describe()

    code, out, err = await gofer("describe")

    assert code == 0, err
    assert f"contract {CONTRACT_VERSION}" in out.splitlines()[0]
    kinds = [str(kind["name"]) for kind in reply.step_kinds]
    assert {"browse", "click", "enter", "choose", "read", "stop_before"} <= set(kinds)
    for kind in reply.step_kinds:
        assert f"  {kind['name']}: {kind['summary']}  e.g. " in out
    assert all(rule in out for rule in reply.rules)
    assert flow_guide().strip() not in out and "--detail flow" in out

    code, out, err = await gofer("describe", "--detail", "flow")
    assert code == 0, err
    assert flow_guide().strip() in out


async def test_demo_books_up_to_payment_and_exits_0() -> None:
    code, out, err = await gofer("demo")

    assert code == 0, (out, err)
    assert "gofer is serving at http://127.0.0.1:" in out
    assert "checkpoint" in out
    assert "Indus Air" in out and "₹3,512" in out
    assert "Payments made on the site: 0" in out
