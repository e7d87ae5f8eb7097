"""A task's working state reads back from its ``ended`` event as stored, old or new."""

from __future__ import annotations

from typing import Any

from gofer.facts import Facts
from gofer.runtime.types import Gate, WorkspaceOptions
from gofer.store.ledger import TaskEvent
from gofer.tasks.book import last_address, restore, snapshot
from gofer.tasks.contract import StartTaskRequest, TaskView
from gofer.tasks.events import Ended, read
from gofer.tasks.state import Running

FLOW = {"steps": [{"browse": "https://shop.example.com"}, {"stop_before": "paying"}]}

GATE = {
    "path": "2",
    "action": "paying",
    "label": "Pay now",
    "consequence": "payment",
    "payment_screen": True,
    "surface": "browser",
    "url": "https://shop.example.com/pay",
    "key": "",
    "role": "button",
    "section": "Payment",
    "record": "",
    "id": "appr-1",
}

# The data of an ``ended`` event as the code before the typed state wrote it.
STORED: dict[str, Any] = {
    "flow": FLOW,
    "pending": [
        {
            "steps": [{"stop_before": "paying"}],
            "base": 1,
            "allow_destructive": False,
            "gate": GATE,
            "rescue": -1,
            "rescue_steps": 0,
        }
    ],
    "approval": GATE,
    "finished_top": 1,
    "variables": {"cheapest": "IndiGo 06:10 ₹4,200"},
    "records": {"order": "A-1042"},
    "hints": [
        {
            "site": "https://shop.example.com",
            "kind": "click",
            "words": "Pay now",
            "role": "button",
            "name": "Pay now",
            "context": "",
            "within": "",
        }
    ],
    "rescues": [],
    "person": [],
    "spend": {"actions": 7, "model_calls": 2, "elapsed_ms": 1234.5, "runs": 1, "rescues": 0},
    "address": "https://shop.example.com/pay",
}


def ended(state: dict[str, Any]) -> TaskEvent:
    view = TaskView(id="t", status=Running(), summary="", step=None, progress=0, next=[])
    data = {"item": 3, "view": view.model_dump(mode="json"), "state": state}
    return TaskEvent(seq=1, owner="o", task_id="t", kind="ended", data=data, at=0.0)


def test_a_stored_state_reads_into_the_cell_and_writes_back_the_same() -> None:
    event = read(ended(STORED))
    assert isinstance(event, Ended) and event.state is not None
    state = event.state
    assert state.pending[0].gate == Gate(**GATE)
    assert state.approval is not None and state.approval.label == "Pay now"
    assert state.hints[0].words == "Pay now"
    assert state.spend.elapsed_ms == 1234.5
    assert last_address(state) == "https://shop.example.com/pay"

    request = StartTaskRequest.model_validate({"flow": FLOW})
    cell = restore("t", request, Facts({}), WorkspaceOptions(), event.view, state)
    assert [s.base for s in cell.pending] == [1]
    assert cell.pending[0].gate == Gate(**GATE)
    assert cell.records == {"order": "A-1042"}
    assert (cell.spending.spent.actions, cell.spending.runs) == (7, 1)

    again = snapshot(cell, "https://shop.example.com/pay")
    assert Ended(item=3, view=event.view, state=again).data()["state"] == STORED


def test_a_state_stored_before_some_fields_existed_still_reads() -> None:
    older = {
        key: value
        for key, value in STORED.items()
        if key not in ("rescues", "person", "address", "approval")
    }
    older["pending"] = [
        {"steps": [{"stop_before": "paying"}], "base": 1, "allow_destructive": True}
    ]
    older["spend"] = {"actions": 3}
    event = read(ended(older))
    assert isinstance(event, Ended) and event.state is not None
    state = event.state
    assert (state.pending[0].gate, state.pending[0].rescue) == (None, -1)
    assert state.approval is None and state.person == [] and state.rescues == []
    assert (state.spend.actions, state.spend.runs) == (3, 0)
    assert last_address(state) is None
