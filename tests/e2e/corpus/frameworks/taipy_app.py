"""The trip request as a Taipy GUI app (React and MUI over a websocket): a Markdown page of
Taipy's visual elements bound to the module's variables. Taipy has no time picker, no
lone checkbox and labels a selector only as a dropdown, so the time is an
``input`` of type time, the insurance a boolean ``toggle`` (a switch, like the
newsletter), the destination a ``selector`` with its filter, the meal and the extras
selectors in radio and check mode, each captioned by a text above as Taipy's docs do.
``python taipy_app.py PORT``."""

from __future__ import annotations

import sys
from datetime import date

import trip
from taipy.gui import Gui, State
from trip import CABINS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, record, yes_no

C = trip.CAPTIONS

sent = False
name = ""
travellers = 1
budget = 100
depart: date | None = None
time = ""
cabin = None
city = None
interests: list[str] = []
meal = None
insurance = False
newsletter = False
seat = "Window"
extras: list[str] = []

page = f"""
<|part|render={{not sent}}|
# Trip request

<|{{name}}|input|label={C["name"]}|>

<|{{travellers}}|number|label={C["travellers"]}|min=1|max=9|>

{C["budget"]}

<|{{budget}}|slider|min=50|max=500|step=10|>

<|{{depart}}|date|label={C["depart"]}|>

<|{{time}}|input|type=time|label={C["time"]}|>

<|{{cabin}}|selector|lov={";".join(CABINS)}|dropdown|label={C["cabin"]}|>

{C["city"]}

<|{{city}}|selector|lov={";".join(CITIES)}|filter|>

<|{{interests}}|selector|lov={";".join(INTERESTS)}|multiple|dropdown|label={C["interests"]}|>

{C["meal"]}

<|{{meal}}|selector|lov={";".join(MEALS)}|mode=radio|>

<|{{insurance}}|toggle|label={C["insurance"]}|>

<|{{newsletter}}|toggle|label={C["newsletter"]}|>

<|{{seat}}|toggle|lov={";".join(SEATS)}|label={C["seat"]}|>

{C["extras"]}

<|{{extras}}|selector|lov={";".join(EXTRAS)}|multiple|mode=check|>

<|Send request|button|on_action=send|>
|>

<|part|render={{sent}}|
# Request sent

We have your trip request.
|>
"""


def send(state: State) -> None:
    day = state.depart
    record(
        {
            "name": state.name,
            "travellers": "" if state.travellers is None else int(state.travellers),
            "budget": int(state.budget),
            "depart": day.isoformat()[:10] if day else "",
            "time": state.time,
            "cabin": state.cabin,
            "city": state.city,
            "interests": ",".join(state.interests or []),
            "meal": state.meal,
            "insurance": yes_no(state.insurance),
            "newsletter": yes_no(state.newsletter),
            "seat": state.seat,
            "extras": ",".join(x for x in EXTRAS if x in (state.extras or [])),
        }
    )
    state.sent = True


if __name__ == "__main__":
    Gui(page).run(
        host="127.0.0.1",
        port=int(sys.argv[1]),
        title="Trip request",
        run_browser=False,
        use_reloader=False,
        dark_mode=False,
    )
