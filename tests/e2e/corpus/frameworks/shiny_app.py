"""The trip request as a Shiny for Python app (Bootstrap 5 over a websocket): every widget
kind as Shiny's own inputs (the date as its bootstrap-datepicker, the choices as selectize
where Shiny's docs use it, the time a text box as Shiny has no time input), each captioned
by the input's own label."""

from __future__ import annotations

import sys

import trip
import uvicorn
from shiny import App, reactive, render, ui
from trip import CABINS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, record, yes_no

C = trip.CAPTIONS

form = ui.div(
    ui.h1("Trip request"),
    ui.input_text("name", C["name"]),
    ui.input_numeric("travellers", C["travellers"], 1, min=1, max=9),
    ui.input_slider("budget", C["budget"], 50, 500, 100, step=10),
    ui.input_date("depart", C["depart"], value=None, format="dd/mm/yyyy"),
    ui.input_text("time", C["time"], placeholder="HH:MM"),
    ui.input_select("cabin", C["cabin"], ["", *CABINS]),
    ui.input_selectize("city", C["city"], ["", *CITIES]),
    ui.input_selectize("interests", C["interests"], INTERESTS, multiple=True),
    ui.input_radio_buttons("meal", C["meal"], MEALS, selected=None, inline=True),
    ui.input_checkbox("insurance", C["insurance"]),
    ui.input_switch("newsletter", C["newsletter"]),
    ui.input_radio_buttons("seat", C["seat"], SEATS, selected="Window", inline=True),
    ui.input_checkbox_group("extras", C["extras"], EXTRAS),
    ui.input_action_button("send", "Send request", class_="btn-primary"),
    id="form",
)
app_ui = ui.page_fixed(ui.output_ui("page"), title="Trip request")


def server(input, output, session):  # type: ignore[no-untyped-def]
    sent = reactive.value(False)

    @reactive.effect
    @reactive.event(input.send)
    def _send() -> None:
        depart = input.depart()
        record(
            {
                "name": input.name(),
                "travellers": "" if input.travellers() is None else input.travellers(),
                "budget": input.budget(),
                "depart": depart.isoformat() if depart else "",
                "time": input.time(),
                "cabin": input.cabin(),
                "city": input.city(),
                "interests": ",".join(input.interests() or ()),
                "meal": input.meal() or "",
                "insurance": yes_no(input.insurance()),
                "newsletter": yes_no(input.newsletter()),
                "seat": input.seat() or "",
                "extras": ",".join(input.extras() or ()),
            }
        )
        sent.set(True)

    @render.ui
    def page() -> object:
        if sent():
            return ui.div(ui.h1("Request sent"), ui.p("We have your trip request."))
        return form


app = App(app_ui, server)

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
