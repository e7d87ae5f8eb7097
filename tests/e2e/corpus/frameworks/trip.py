"""The trip request every framework's app asks for: the same captions, options and
posted shape as the component kits' forms (tools/corpus/kits/src/_fields.js), so one
task list judges both. Imported by the apps in their own virtual environments: no
gofer, no third-party imports here."""

from __future__ import annotations

import json
import os
from pathlib import Path

CAPTIONS = {
    "name": "Full name",
    "travellers": "Travellers",
    "budget": "Hotel budget per night (EUR)",
    "depart": "Departure date",
    "time": "Departure time",
    "cabin": "Cabin class",
    "city": "Destination",
    "interests": "Interests",
    "meal": "Meal",
    "insurance": "Add travel insurance",
    "newsletter": "Email me offers",
    "seat": "Seat",
    "extras": "Extras",
}
CABINS = ["Economy", "Premium economy", "Business", "First"]
CITIES = [
    "Amsterdam", "Athens", "Barcelona", "Berlin", "Bern", "Bratislava", "Brussels",
    "Bucharest", "Budapest", "Copenhagen", "Dublin", "Helsinki", "Lisbon", "Ljubljana",
    "London", "Luxembourg", "Madrid", "Oslo", "Paris", "Prague", "Riga", "Rome",
    "Sofia", "Stockholm", "Tallinn", "Vienna", "Vilnius", "Warsaw", "Zagreb",
]  # fmt: skip
INTERESTS = ["Museums", "Food", "Hiking", "Nightlife", "Beaches"]
MEALS = ["Standard", "Vegetarian", "Vegan"]
SEATS = ["Window", "Aisle", "Middle"]
EXTRAS = ["Extra legroom", "Priority boarding", "Lounge access"]


def record(values: dict[str, object]) -> None:
    """Appends what the form sent, as strings, to the JSON-lines file the tests read
    (the app's own state: ``TRIP_RECORDS``)."""
    shown = {k: "" if v is None else str(v) for k, v in values.items()}
    with Path(os.environ["TRIP_RECORDS"]).open("a", encoding="utf-8") as sink:
        sink.write(json.dumps(shown) + "\n")


def yes_no(on: object) -> str:
    return "yes" if on else "no"
