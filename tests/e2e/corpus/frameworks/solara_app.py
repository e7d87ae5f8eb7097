"""The trip request as a Solara app (ipyvuetify's Vue 2 widgets over a websocket): every
widget kind as Solara's own components, with solara.lab's date and time inputs, and the
two Solara lacks written with ipyvuetify as its docs do (``solara.v``: the searchable
select a ``v.Autocomplete``, the meal a ``v.RadioGroup``); the slider, toggle buttons
and checkbox group captioned by their own labels or a text above them.
``solara run solara_app.py --port PORT --production``."""

from __future__ import annotations

import datetime as dt

import solara
import solara.lab
import trip
from trip import CABINS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, record, yes_no

C = trip.CAPTIONS

sent = solara.reactive(False)
name = solara.reactive("")
travellers = solara.reactive(1)
budget = solara.reactive(100)
depart = solara.reactive(None)
time = solara.reactive(None)
cabin = solara.reactive(None)
city = solara.reactive(None)
interests = solara.reactive([])
meal = solara.reactive(None)
insurance = solara.reactive(False)
newsletter = solara.reactive(False)
seat = solara.reactive("Window")
extras = {x: solara.reactive(False) for x in EXTRAS}


def send() -> None:
    day: dt.date | None = depart.value
    hour: dt.time | None = time.value
    record(
        {
            "name": name.value,
            "travellers": travellers.value,
            "budget": budget.value,
            "depart": day.isoformat() if day else "",
            "time": hour.strftime("%H:%M") if hour else "",
            "cabin": cabin.value,
            "city": city.value,
            "interests": ",".join(interests.value),
            "meal": meal.value,
            "insurance": yes_no(insurance.value),
            "newsletter": yes_no(newsletter.value),
            "seat": seat.value,
            "extras": ",".join(x for x, on in extras.items() if on.value),
        }
    )
    sent.value = True


@solara.component
def Page() -> None:
    solara.Title("Trip request")
    if sent.value:
        solara.Markdown("# Request sent\n\nWe have your trip request.")
        return
    with solara.Column(style={"max-width": "480px"}):
        solara.Markdown("# Trip request")
        solara.InputText(C["name"], value=name)
        solara.InputInt(C["travellers"], value=travellers)
        solara.SliderInt(C["budget"], value=budget, min=50, max=500, step=10)
        solara.lab.InputDate(depart, label=C["depart"], optional=True)
        solara.lab.InputTime(time, label=C["time"], optional=True)
        solara.Select(C["cabin"], values=CABINS, value=cabin)
        solara.v.Autocomplete(
            label=C["city"], items=CITIES, v_model=city.value, on_v_model=city.set
        )
        solara.SelectMultiple(C["interests"], interests, INTERESTS)
        with solara.v.RadioGroup(
            label=C["meal"], row=True, v_model=meal.value, on_v_model=meal.set
        ):
            for m in MEALS:
                solara.v.Radio(label=m, value=m)
        solara.Checkbox(label=C["insurance"], value=insurance)
        solara.Switch(label=C["newsletter"], value=newsletter)
        solara.Text(C["seat"])
        solara.ToggleButtonsSingle(value=seat, values=SEATS)
        solara.Text(C["extras"])
        for x, on in extras.items():
            solara.Checkbox(label=x, value=on)
        solara.Button("Send request", color="primary", on_click=send)
