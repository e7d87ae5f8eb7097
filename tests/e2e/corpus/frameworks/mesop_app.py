"""The trip request as a Mesop app (Angular Material over server-sent events): every widget
kind as Mesop's own components (the time an ``input(type="time")`` as Mesop has no time
picker; the searchable select its autocomplete; the slider, radios, button toggle and
checkbox group under a text caption as Mesop's docs show them, since they take no
label). ``mesop mesop_app.py --port PORT --prod``."""

# without ``from __future__ import annotations``: Mesop resolves the state class's
# annotations in its own module, where ``date`` is not defined
from dataclasses import field
from datetime import date

import mesop as me
import trip
from trip import CABINS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, record, yes_no

C = trip.CAPTIONS


@me.stateclass
class State:
    sent: bool = False
    name: str = ""
    travellers: str = "1"
    budget: float = 100
    depart: date | None = None
    time: str = ""
    cabin: str = ""
    city: str = ""
    interests: list[str] = field(default_factory=list)
    meal: str = ""
    insurance: bool = False
    newsletter: bool = False
    seat: str = "Window"
    extras: list[str] = field(default_factory=list)


def on_name(e: me.InputBlurEvent) -> None:
    me.state(State).name = e.value


def on_travellers(e: me.InputBlurEvent) -> None:
    me.state(State).travellers = e.value


def on_budget(e: me.SliderValueChangeEvent) -> None:
    me.state(State).budget = e.value


def on_depart(e: me.DatePickerChangeEvent) -> None:
    me.state(State).depart = e.date


def on_time(e: me.InputBlurEvent) -> None:
    me.state(State).time = e.value


def on_cabin(e: me.SelectSelectionChangeEvent) -> None:
    me.state(State).cabin = e.value


def on_city(e: me.AutocompleteSelectionChangeEvent) -> None:
    me.state(State).city = e.value


def on_interests(e: me.SelectSelectionChangeEvent) -> None:
    me.state(State).interests = e.values


def on_meal(e: me.RadioChangeEvent) -> None:
    me.state(State).meal = e.value


def on_insurance(e: me.CheckboxChangeEvent) -> None:
    me.state(State).insurance = e.checked


def on_newsletter(e: me.SlideToggleChangeEvent) -> None:
    state = me.state(State)
    state.newsletter = not state.newsletter


def on_seat(e: me.ButtonToggleChangeEvent) -> None:
    me.state(State).seat = e.value


def on_extra(e: me.CheckboxChangeEvent) -> None:
    state = me.state(State)
    chosen = set(state.extras) ^ {e.key}
    state.extras = [x for x in EXTRAS if x in chosen]


def send(e: me.ClickEvent) -> None:
    s = me.state(State)
    record(
        {
            "name": s.name,
            "travellers": s.travellers,
            "budget": int(s.budget),
            "depart": s.depart.isoformat() if s.depart else "",
            "time": s.time,
            "cabin": s.cabin,
            "city": s.city,
            "interests": ",".join(s.interests),
            "meal": s.meal,
            "insurance": yes_no(s.insurance),
            "newsletter": yes_no(s.newsletter),
            "seat": s.seat,
            "extras": ",".join(s.extras),
        }
    )
    s.sent = True


def options(values: list[str]) -> list[me.SelectOption]:
    return [me.SelectOption(label=v, value=v) for v in values]


@me.page(path="/", title="Trip request")
def page() -> None:
    s = me.state(State)
    if s.sent:
        me.text("Request sent", type="headline-4")
        me.text("We have your trip request.")
        return
    me.text("Trip request", type="headline-4")
    with me.box(style=me.Style(display="flex", flex_direction="column", width=420)):
        me.input(label=C["name"], value=s.name, on_blur=on_name)
        me.input(label=C["travellers"], type="number", value=s.travellers, on_blur=on_travellers)
        me.text(C["budget"])
        me.slider(
            min=50, max=500, step=10, value=s.budget, discrete=True, on_value_change=on_budget
        )
        me.date_picker(label=C["depart"], value=s.depart, on_change=on_depart)
        me.input(label=C["time"], type="time", value=s.time, on_blur=on_time)
        me.select(label=C["cabin"], options=options(CABINS), on_selection_change=on_cabin)
        me.autocomplete(
            label=C["city"],
            options=[me.AutocompleteOption(label=c, value=c) for c in CITIES],
            on_selection_change=on_city,
        )
        me.select(
            label=C["interests"],
            options=options(INTERESTS),
            multiple=True,
            on_selection_change=on_interests,
        )
        me.text(C["meal"])
        me.radio(
            options=[me.RadioOption(label=m, value=m) for m in MEALS],
            value=s.meal,
            on_change=on_meal,
        )
        me.checkbox(C["insurance"], checked=s.insurance, on_change=on_insurance)
        me.slide_toggle(C["newsletter"], checked=s.newsletter, on_change=on_newsletter)
        me.text(C["seat"])
        me.button_toggle(
            value=s.seat,
            buttons=[me.ButtonToggleButton(label=x, value=x) for x in SEATS],
            on_change=on_seat,
        )
        me.text(C["extras"])
        for x in EXTRAS:
            me.checkbox(x, key=x, checked=x in s.extras, on_change=on_extra)
    me.button("Send request", type="flat", on_click=send)
