"""The trip-request tasks, the same on every kit: one widget kind each, as a user writes
it, and what the form must then post."""

from __future__ import annotations

from typing import Any

from ..bundles import Task

SUBMIT: dict[str, Any] = {"click": "Send request"}

KINDS: dict[str, tuple[list[dict[str, Any]], dict[str, str]]] = {
    "text-and-number": (
        [{"enter": "Asha Rao", "into": "Full name"}, {"enter": "3", "into": "Travellers"}],
        {"name": "Asha Rao", "travellers": "3"},
    ),
    "slider": ([{"enter": "250", "into": "Hotel budget per night (EUR)"}], {"budget": "250"}),
    "date": ([{"enter": "14 October 2027", "into": "Departure date"}], {"depart": "2027-10-14"}),
    "time": ([{"enter": "07:45", "into": "Departure time"}], {"time": "07:45"}),
    "select": ([{"choose": "Business", "in": "Cabin class"}], {"cabin": "Business"}),
    "searchable-select": ([{"choose": "Lisbon", "in": "Destination"}], {"city": "Lisbon"}),
    "multi-select": (
        [{"choose": "Food", "in": "Interests"}, {"choose": "Hiking", "in": "Interests"}],
        {"interests": "Food,Hiking"},
    ),
    "radio": ([{"choose": "Vegetarian", "in": "Meal"}], {"meal": "Vegetarian"}),
    "checkbox-and-switch": (
        [
            {"choose": "yes", "in": "Add travel insurance"},
            {"choose": "on", "in": "Email me offers"},
        ],
        {"insurance": "yes", "newsletter": "yes"},
    ),
    "toggle-group": ([{"choose": "Aisle", "in": "Seat"}], {"seat": "Aisle"}),
    "checkbox-group": (
        [
            {"choose": "Extra legroom", "in": "Extras"},
            {"choose": "Lounge access", "in": "Extras"},
        ],
        {"extras": "Extra legroom,Lounge access"},
    ),
}
"""Each kind's steps (before the submit) and what the form must post."""

BARE_KINDS = ("date", "select")
"""The kinds also run with captions tied to nothing (``captions=bare``)."""


def task(kit: str, kind: str, bare: bool = False) -> Task:
    steps, want = KINDS[kind]
    # "Send request" is gated as sending something that cannot be unsent (a stop for
    # approval, right): the person approved it when they handed over the task
    query = "captions=bare" if bare else ""
    return Task(kit, [*steps, SUBMIT], want, query=query, allow_destructive=True)
