"""The trip request as a Gradio app (Svelte over a websocket/queue): every widget kind as
Gradio's own components, captioned by their labels; the button sends it."""

from __future__ import annotations

import sys
from datetime import datetime

import gradio as gr
import trip
from trip import CABINS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, record, yes_no

C = trip.CAPTIONS


def _day(value: object) -> str:
    if value in (None, ""):
        return ""
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(value).strftime("%Y-%m-%d")
    return str(value)[:10]


def send(
    name: str,
    travellers: float | None,
    budget: float,
    depart: object,
    time: str,
    cabin: str | None,
    city: str | None,
    interests: list[str],
    meal: str | None,
    insurance: bool,
    newsletter: bool,
    seat: str | None,
    extras: list[str],
) -> tuple[dict[str, object], dict[str, object]]:
    record(
        {
            "name": name,
            "travellers": "" if travellers is None else int(travellers),
            "budget": int(budget),
            "depart": _day(depart),
            "time": time or "",
            "cabin": cabin,
            "city": city,
            "interests": ",".join(interests or []),
            "meal": meal,
            "insurance": yes_no(insurance),
            "newsletter": yes_no(newsletter),
            "seat": seat,
            "extras": ",".join(extras or []),
        }
    )
    return gr.update(visible=False), gr.update(visible=True)


with gr.Blocks(title="Trip request") as demo:
    with gr.Column() as form:
        gr.Markdown("# Trip request")
        name = gr.Textbox(label=C["name"])
        travellers = gr.Number(label=C["travellers"], value=1, minimum=1, maximum=9, precision=0)
        budget = gr.Slider(50, 500, value=100, step=10, label=C["budget"])
        depart = gr.DateTime(label=C["depart"], include_time=False, type="string")
        time = gr.Textbox(label=C["time"], placeholder="HH:MM")
        cabin = gr.Dropdown(CABINS, value=None, label=C["cabin"], filterable=False)
        city = gr.Dropdown(CITIES, value=None, label=C["city"])
        interests = gr.Dropdown(INTERESTS, value=[], multiselect=True, label=C["interests"])
        meal = gr.Radio(MEALS, label=C["meal"])
        insurance = gr.Checkbox(label=C["insurance"])
        newsletter = gr.Checkbox(label=C["newsletter"])
        seat = gr.Radio(SEATS, value="Window", label=C["seat"])
        extras = gr.CheckboxGroup(EXTRAS, label=C["extras"])
        go = gr.Button("Send request", variant="primary")
    with gr.Column(visible=False) as sent:
        gr.Markdown("# Request sent\n\nWe have your trip request.")
    fields = [name, travellers, budget, depart, time, cabin, city, interests, meal]
    go.click(send, [*fields, insurance, newsletter, seat, extras], [form, sent])

if __name__ == "__main__":
    demo.launch(server_name="127.0.0.1", server_port=int(sys.argv[1]), show_error=True)
