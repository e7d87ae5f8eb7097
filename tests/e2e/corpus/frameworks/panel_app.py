"""The trip request as a Panel app (Bokeh's widgets in shadow roots over a websocket):
every widget kind as Panel's own widgets (the date a flatpickr DatePicker, the time its
TimePicker, the toggle group a RadioButtonGroup), each captioned by the widget's name, as
Panel's docs write them."""

from __future__ import annotations

import sys

import panel as pn
import trip
from trip import CABINS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, record, yes_no

C = trip.CAPTIONS


def page() -> pn.Column:
    name = pn.widgets.TextInput(name=C["name"])
    travellers = pn.widgets.IntInput(name=C["travellers"], value=1, start=1, end=9)
    budget = pn.widgets.IntSlider(name=C["budget"], start=50, end=500, step=10, value=100)
    depart = pn.widgets.DatePicker(name=C["depart"])
    time = pn.widgets.TimePicker(name=C["time"], format="H:i")
    cabin = pn.widgets.Select(name=C["cabin"], options=["", *CABINS])
    city = pn.widgets.AutocompleteInput(
        name=C["city"], options=CITIES, case_sensitive=False, search_strategy="includes",
        restrict=True, min_characters=1,
    )  # fmt: skip
    interests = pn.widgets.MultiChoice(name=C["interests"], options=INTERESTS)
    meal = pn.widgets.RadioBoxGroup(name=C["meal"], options=MEALS, value=None, inline=True)
    insurance = pn.widgets.Checkbox(name=C["insurance"])
    newsletter = pn.widgets.Switch(name=C["newsletter"])
    seat = pn.widgets.RadioButtonGroup(name=C["seat"], options=SEATS, value="Window")
    extras = pn.widgets.CheckBoxGroup(name=C["extras"], options=EXTRAS, inline=True)
    send = pn.widgets.Button(name="Send request", button_type="primary")
    form = pn.Column(
        "# Trip request",
        name, travellers, budget, depart, time, cabin, city, interests,
        pn.pane.Markdown(f"**{C['meal']}**"), meal,
        insurance, pn.Row(newsletter, pn.pane.Markdown(C["newsletter"])),
        pn.pane.Markdown(f"**{C['seat']}**"), seat,
        pn.pane.Markdown(f"**{C['extras']}**"), extras, send,
    )  # fmt: skip
    done = pn.pane.Markdown("# Request sent\n\nWe have your trip request.", visible=False)

    def sent(_event: object) -> None:
        record(
            {
                "name": name.value,
                "travellers": "" if travellers.value is None else travellers.value,
                "budget": budget.value,
                "depart": depart.value.isoformat() if depart.value else "",
                "time": time.value.strftime("%H:%M") if time.value else "",
                "cabin": cabin.value,
                "city": city.value or "",
                "interests": ",".join(interests.value),
                "meal": meal.value or "",
                "insurance": yes_no(insurance.value),
                "newsletter": yes_no(newsletter.value),
                "seat": seat.value or "",
                "extras": ",".join(extras.value),
            }
        )
        form.visible = False
        done.visible = True

    send.on_click(sent)
    return pn.Column(form, done, width=600)


if __name__ == "__main__":
    pn.serve(
        {"trip": page}, port=int(sys.argv[1]), address="127.0.0.1", show=False,
        title="Trip request", websocket_origin="*", threaded=False,
    )  # fmt: skip
