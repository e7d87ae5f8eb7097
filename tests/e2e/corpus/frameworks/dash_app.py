"""The trip request as a Dash app (React over HTTP callbacks): every widget kind as Dash's
core components, captioned by html.Label elements tied to their controls by ``htmlFor``
where the component takes an id, as Dash's own examples write them."""

from __future__ import annotations

import sys

import trip
from dash import Dash, Input, Output, State, dcc, html
from trip import CABINS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, record, yes_no

C = trip.CAPTIONS


def _row(caption: str, control: object, for_id: str | None = None) -> html.Div:
    return html.Div([html.Label(caption, htmlFor=for_id), control], style={"marginBottom": "18px"})


app = Dash(__name__, title="Trip request")
app.layout = html.Div(
    [
        html.H1("Trip request"),
        html.Div(
            id="form",
            children=[
                _row(C["name"], dcc.Input(id="name", type="text"), "name"),
                _row(
                    C["travellers"],
                    dcc.Input(id="travellers", type="number", min=1, max=9, value=1),
                    "travellers",
                ),
                _row(C["budget"], dcc.Slider(50, 500, 10, value=100, id="budget", marks=None)),
                _row(
                    C["depart"],
                    dcc.DatePickerSingle(id="depart", display_format="DD/MM/YYYY"),
                ),
                _row(C["time"], dcc.Input(id="time", type="time"), "time"),
                _row(C["cabin"], dcc.Dropdown(CABINS, id="cabin", searchable=False)),
                _row(C["city"], dcc.Dropdown(CITIES, id="city", placeholder="Search a city")),
                _row(C["interests"], dcc.Dropdown(INTERESTS, id="interests", multi=True)),
                _row(C["meal"], dcc.RadioItems(MEALS, id="meal", inline=True)),
                dcc.Checklist([C["insurance"]], id="insurance"),
                dcc.Checklist([C["newsletter"]], id="newsletter"),
                _row(C["seat"], dcc.RadioItems(SEATS, "Window", id="seat", inline=True)),
                _row(C["extras"], dcc.Checklist(EXTRAS, id="extras", inline=True)),
                html.Button("Send request", id="send"),
            ],
        ),
        html.Div(id="sent"),
    ],
    style={"maxWidth": "640px", "margin": "24px auto", "fontFamily": "sans-serif"},
)

FIELDS = ["name", "travellers", "budget", "time", "cabin", "city", "interests"]


@app.callback(
    Output("form", "style"),
    Output("sent", "children"),
    Input("send", "n_clicks"),
    *(State(f, "value") for f in FIELDS),
    State("depart", "date"),
    State("meal", "value"),
    State("insurance", "value"),
    State("newsletter", "value"),
    State("seat", "value"),
    State("extras", "value"),
    prevent_initial_call=True,
)
def send(clicks: int, *values: object) -> tuple[dict[str, str], object]:
    name, travellers, budget, time, cabin, city, interests = values[:7]
    depart, meal, insurance, newsletter, seat, extras = values[7:]
    record(
        {
            "name": name or "",
            "travellers": "" if travellers is None else travellers,
            "budget": budget,
            "depart": depart or "",
            "time": time or "",
            "cabin": cabin,
            "city": city,
            "interests": ",".join(interests or []),  # type: ignore[call-overload]
            "meal": meal,
            "insurance": yes_no(insurance),
            "newsletter": yes_no(newsletter),
            "seat": seat,
            "extras": ",".join(extras or []),  # type: ignore[call-overload]
        }
    )
    return {"display": "none"}, [html.H1("Request sent"), html.P("We have your trip request.")]


if __name__ == "__main__":
    app.run(host="127.0.0.1", port=int(sys.argv[1]), debug=False)
