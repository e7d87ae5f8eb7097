"""The trip request as a NiceGUI app (Quasar components over a websocket): every
widget kind, captioned by the components' own labels. ``python nicegui_app.py PORT``."""

from __future__ import annotations

import sys

import trip
from nicegui import ui
from trip import CABINS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, record, yes_no

C = trip.CAPTIONS


@ui.page("/")
def trip() -> None:
    ui.label("Trip request").classes("text-h4")
    name = ui.input(C["name"])
    travellers = ui.number(C["travellers"], value=1, min=1, max=9, format="%d")
    ui.label(C["budget"])
    budget = ui.slider(min=50, max=500, step=10, value=100).props("label-always")
    with ui.input(C["depart"]) as depart:
        with (
            ui.menu().props("no-parent-event") as menu,
            ui.date().bind_value(depart),
            ui.row().classes("justify-end"),
        ):
            ui.button("Close", on_click=menu.close).props("flat")
        with depart.add_slot("append"):
            ui.icon("edit_calendar").on("click", menu.open).classes("cursor-pointer")
    with ui.input(C["time"]) as time:
        with (
            ui.menu().props("no-parent-event") as tmenu,
            ui.time().bind_value(time),
            ui.row().classes("justify-end"),
        ):
            ui.button("Close", on_click=tmenu.close).props("flat")
        with time.add_slot("append"):
            ui.icon("access_time").on("click", tmenu.open).classes("cursor-pointer")
    cabin = ui.select(CABINS, label=C["cabin"]).classes("w-64")
    city = ui.select(CITIES, label=C["city"], with_input=True).classes("w-64")
    interests = ui.select(INTERESTS, label=C["interests"], multiple=True).classes("w-64")
    ui.label(C["meal"])
    meal = ui.radio(MEALS).props("inline")
    insurance = ui.checkbox(C["insurance"])
    newsletter = ui.switch(C["newsletter"])
    ui.label(C["seat"])
    seat = ui.toggle(SEATS, value="Window")
    ui.label(C["extras"])
    extras = {x: ui.checkbox(x) for x in EXTRAS}

    def send() -> None:
        number = travellers.value
        record(
            {
                "name": name.value,
                "travellers": "" if number is None else int(number),
                "budget": budget.value,
                "depart": depart.value,
                "time": time.value,
                "cabin": cabin.value,
                "city": city.value,
                "interests": ",".join(interests.value or []),
                "meal": meal.value,
                "insurance": yes_no(insurance.value),
                "newsletter": yes_no(newsletter.value),
                "seat": seat.value,
                "extras": ",".join(x for x, box in extras.items() if box.value),
            }
        )
        ui.navigate.to("/sent")

    ui.button("Send request", on_click=send)


@ui.page("/sent")
def sent() -> None:
    ui.label("Request sent").classes("text-h4")
    ui.label("We have your trip request.")


ui.run(host="127.0.0.1", port=int(sys.argv[1]), reload=False, show=False, title="Trip request")
