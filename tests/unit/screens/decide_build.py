"""Hand-built screens for the grounder's tests, mirroring the pages in ``html/``.

Each builder returns the :class:`Screen` a browser snapshot of the matching HTML file
would give (roles, names, labels, sections, records, rough boxes). ``load(name)``
prefers a captured snapshot ``<name>.json`` beside this file (written by
``tools/capture_screens.py``) and falls back to the hand-built one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from gofer.surfaces.screen import (
    Box,
    Element,
    Record,
    RecordGroup,
    Screen,
    TextLine,
    screen_from_dict,
)

HERE = Path(__file__).parent


def load(name: str) -> Screen:
    """The captured snapshot ``name`` when there is one, else the hand-built screen."""
    path = HERE / f"{name}.json"
    if path.exists():
        return screen_from_dict(json.loads(path.read_text()))
    return BUILDERS[name]()


class Page:
    """Lays out lines and elements top to bottom, giving each a plausible box."""

    def __init__(self, url: str, title: str) -> None:
        self.url = url
        self.title = title
        self.lines: list[TextLine] = []
        self.elements: list[Element] = []
        self.groups: list[RecordGroup] = []
        self.y = 10.0
        self.section = ""
        self.dialog_open = False

    def line(
        self, text: str, heading: int = 0, x: float = 20, w: float = 300, advance: bool = True
    ) -> TextLine:
        ln = TextLine(text, Box(x, self.y, w, 20), heading)
        self.lines.append(ln)
        if heading:
            self.section = text
        if advance:
            self.y += 28
        return ln

    def el(
        self,
        role: str,
        name: str = "",
        *,
        x: float = 20,
        w: float = 200,
        h: float = 30,
        advance: bool = True,
        **kw: Any,
    ) -> Element:
        kw.setdefault("section", self.section)
        tag = kw.pop(
            "tag",
            {
                "button": "button",
                "link": "a",
                "textbox": "input",
                "checkbox": "input",
                "radio": "input",
                "combobox": "input",
                "searchbox": "input",
                "clickable": "span",
            }.get(role, "div"),
        )
        e = Element(
            ref=f"e{len(self.elements) + 1}",
            role=role,
            name=name,
            tag=tag,
            box=Box(x, self.y, w, h),
            **kw,
        )
        self.elements.append(e)
        if advance:
            self.y += h + 10
        return e

    def screen(self) -> Screen:
        return Screen(
            self.url,
            self.title,
            tuple(self.lines),
            tuple(self.elements),
            tuple(self.groups),
            dialog_open=self.dialog_open,
        )


def one(screen: Screen, **want: object) -> Element:
    """The one element of ``screen`` whose fields are ``want`` (fails on none or several)."""
    found = [e for e in screen.elements if all(getattr(e, k) == v for k, v in want.items())]
    assert len(found) == 1, found
    return found[0]


def login() -> Screen:
    p = Page("https://acme.example/login", "Sign in · Acme Travel")
    p.el("link", "Acme Travel", text="Acme Travel", advance=False, w=100)
    p.el("link", "Help", text="Help", x=140, w=40)
    p.line("Sign in to your account", heading=1)
    p.line("Email address")
    p.el("textbox", "Email address", label="Email address", input_type="email", w=400)
    p.line("Password")
    p.el("textbox", "Password", label="Password", input_type="password", w=400, advance=False)
    p.el("button", "Show password", x=390, w=30)
    p.el("checkbox", "Remember me", label="Remember me", checked=False, w=20)
    p.el("button", "Sign in", text="Sign in", input_type="submit", w=80)
    p.el("link", "Forgot password?", text="Forgot password?", w=120)
    p.line("New here? Create an account")
    p.el("link", "Create an account", text="Create an account", x=100, w=130)
    return p.screen()


def checkout() -> Screen:
    p = Page("https://shop.example/checkout", "Checkout · Shopzilla")
    p.line("Checkout", heading=1)
    p.section = "Contact details"
    p.line("Contact details")
    for label, typ in (
        ("First name *", "text"),
        ("Last name *", "text"),
        ("Email", "email"),
        ("Phone number", "tel"),
    ):
        p.line(label, w=130, advance=False)
        p.el("textbox", label, label=label, input_type=typ, x=170, w=300)
    p.section = "Payment"
    p.line("Payment")
    for ph in ("Card number", "MM / YY", "CVC", "Name on card"):
        p.el("textbox", ph, placeholder=ph, w=300)
    p.section = "Checkout"
    p.el("textbox", "Discount code", placeholder="Discount code", w=200, advance=False)
    p.el("button", "Apply", text="Apply", disabled=True, x=230, w=60)
    p.line("Order total: ₹4,599")
    p.el("link", "Back to cart", text="Back to cart", w=90)
    p.el("button", "Pay now ₹4,599", text="Pay now ₹4,599", input_type="submit", w=140)
    return p.screen()


def search_inside() -> Screen:
    p = Page("https://skyfare.example/", "Cheap flights · Skyfare")
    p.line("Search flights", heading=1)
    p.line("From", x=28, w=40, advance=False)
    p.el("combobox", "From", label="From", x=20, w=200, h=44, advance=False)
    p.el("button", "Swap origin and destination", x=230, w=30, advance=False)
    p.line("To", x=278, w=40, advance=False)
    p.el("combobox", "To", label="To", x=270, w=200, h=44, advance=False)
    p.line("Departure date", x=488, w=100, advance=False)
    p.el("textbox", "Departure date", label="Departure date", input_type="date", x=480, w=180, h=44)
    p.line("Passengers", w=80, advance=False)
    p.el(
        "combobox",
        "Passengers",
        label="Passengers",
        tag="select",
        x=110,
        w=120,
        value="1 Adult",
        options=("1 Adult", "2 Adults", "3 Adults"),
    )
    p.el("button", "Search flights", text="Search flights", input_type="submit", w=140)
    p.el("link", "Search flights help", text="Search flights help", w=150)
    return p.screen()


def placeholder_only() -> Screen:
    p = Page("https://gadgets.example/", "Gadget Store")
    p.el("link", "Gadget Store", text="Gadget Store", w=100, advance=False)
    p.el(
        "searchbox", "", placeholder="Search products, brands and more", x=130, w=400, advance=False
    )
    p.el("button", "Search", x=540, w=30, advance=False)
    p.el("button", "Cart (2 items)", text="🛒", x=580, w=30, advance=False)
    p.el("button", "Menu", text="☰", x=620, w=30)
    p.line("Newsletter", heading=2)
    p.line("Your email", w=70, advance=False)
    p.el("textbox", "", input_type="email", x=100, w=200, h=20, advance=False)
    p.el("button", "Subscribe", text="Subscribe", x=310, w=80, h=20)
    p.line("Coupon", w=50, advance=False)
    p.el("textbox", "", x=100, w=200, h=20, advance=False)
    p.el("clickable", "Redeem", text="Redeem", x=310, w=60, h=20)
    return p.screen()


def passengers() -> Screen:
    p = Page("https://skyfare.example/passengers", "Passenger details · Skyfare")
    p.line("Passenger details", heading=1)
    for n in (1, 2):
        p.line(f"Passenger {n}", heading=2)
        for label in ("First name", "Last name"):
            p.line(label, w=80, advance=False)
            p.el("textbox", label, label=label, x=110, w=250)
    p.line("Contact", heading=2)
    for label, typ in (("Email", "email"), ("Mobile number", "tel")):
        p.line(label, w=100, advance=False)
        p.el("textbox", label, label=label, input_type=typ, x=130, w=250)
    p.el("checkbox", "Send me deals by email", label="Send me deals by email", w=20)
    p.el("button", "Continue", text="Continue", w=100)
    p.el("button", "Continue to payment", text="Continue to payment", disabled=True, w=160)
    return p.screen()


FLIGHTS = (
    ("IndiGo", "6E 2031", "06:10", "07:40", "1h 30m · Non-stop", "₹4,599"),
    ("Air India", "AI 825", "07:25", "08:55", "1h 30m · Non-stop", "₹5,120"),
    ("SpiceJet", "SG 8473", "09:00", "10:35", "1h 35m · Non-stop", "₹4,350"),
    ("Vistara", "UK 611", "10:45", "12:20", "1h 35m · Non-stop", "₹6,010"),
    ("IndiGo", "6E 5024", "12:05", "15:40", "3h 35m · 1 stop", "₹3,990"),
    ("Air India", "AI 443", "13:30", "15:00", "1h 30m · Non-stop", "₹5,480"),
    ("SpiceJet", "SG 160", "15:15", "16:50", "1h 35m · Non-stop", "₹4,725"),
    ("IndiGo", "6E 6178", "17:40", "19:10", "1h 30m · Non-stop", "₹4,880"),
    ("Vistara", "UK 707", "19:05", "20:40", "1h 35m · Non-stop", "₹6,450"),
    ("Air India", "AI 9601", "21:00", "22:30", "1h 30m · Non-stop", "₹5,010"),
)


def results() -> Screen:
    """A results page: nav, a filter sidebar, a sort select and ten flight cards."""
    p = Page(
        "https://skyfare.example/results?from=DEL&to=SXR&date=2026-10-14",
        "Delhi to Srinagar · Skyfare",
    )
    for i, name in enumerate(("Skyfare", "My trips", "Help")):
        p.el("link", name, text=name, x=20 + 90 * i, w=80, advance=False)
    p.el("button", "Account", text="👤", x=900, w=30)
    top = p.y
    p.line("Filters", heading=2, w=180)
    for legend, kind, opts in (
        ("Stops", "checkbox", ("Non-stop", "1 stop")),
        ("Airlines", "checkbox", ("IndiGo", "Air India", "SpiceJet", "Vistara")),
        ("Departure", "radio", ("Before 6 AM", "6 AM - 12 PM", "12 PM - 6 PM", "After 6 PM")),
    ):
        p.line(legend, w=180)
        p.section = legend
        for o in opts:
            p.line(o, x=45, w=150, advance=False)
            p.el(
                kind, o, label=o, w=20, h=20, checked=False, group=legend if kind == "radio" else ""
            )
    p.section = "Filters"
    p.el("button", "Clear all filters", text="Clear all filters", w=150)
    p.y = top
    p.section = ""
    p.line("Delhi → Srinagar, Wed 14 Oct", heading=1, x=240, w=500)
    p.section = "Delhi → Srinagar, Wed 14 Oct"
    p.line("Sort by", x=240, w=60, advance=False)
    p.el(
        "combobox",
        "Sort by",
        label="Sort by",
        tag="select",
        x=310,
        w=200,
        value="Relevance",
        options=(
            "Relevance",
            "Price: low to high",
            "Price: high to low",
            "Departure: earliest",
            "Duration: shortest",
        ),
    )
    records = []
    gtop = p.y
    for i, (airline, no, dep, arr, dur, price) in enumerate(FLIGHTS):
        y0 = p.y
        lines = (f"{airline} {no}", f"{dep} → {arr}", dur, price)
        for j, text in enumerate(lines):
            p.line(text, x=250 + 150 * j, w=140, advance=False)
        p.y += 30
        p.el(
            "link",
            "Flight details",
            text="Flight details",
            x=250,
            w=100,
            h=24,
            advance=False,
            record=(0, i),
        )
        p.el("button", "Select", text="Select", x=850, w=80, h=24, record=(0, i))
        records.append(Record(Box(240, y0, 720, p.y - y0), (*lines, "Flight details", "Select")))
    p.groups.append(
        RecordGroup(
            Box(240, gtop, 720, p.y - gtop), tuple(records), name="Delhi → Srinagar, Wed 14 Oct"
        )
    )
    p.el("button", "Load more results", text="Load more results", x=240, w=200)
    p.section = ""
    for i, name in enumerate(("About", "Privacy", "Terms")):
        p.el("link", name, text=name, x=20 + 90 * i, w=80, advance=False)
    return p.screen()


def table() -> Screen:
    p = Page("https://admin.example/team", "Team members · Admin")
    p.line("Team members", heading=1)
    p.el("button", "Invite member", text="Invite member", w=120)
    p.line("Name  Email  Role  Actions", w=700)
    records = []
    gtop = p.y
    for i, (name, email, role) in enumerate(
        (
            ("Asha Rao", "asha@example.com", "Owner"),
            ("Ben Ortiz", "ben@example.com", "Editor"),
            ("Chen Li", "chen@example.com", "Viewer"),
        )
    ):
        y0 = p.y
        for j, text in enumerate((name, email, role)):
            p.line(text, x=20 + 180 * j, w=170, advance=False)
        p.el("button", "Edit", text="Edit", x=560, w=50, h=24, advance=False, record=(0, i))
        p.el("button", f"Delete {name}", text="🗑", x=620, w=30, h=24, record=(0, i))
        records.append(
            Record(
                Box(20, y0, 700, p.y - y0),
                (name, email, role, "Edit"),
                {"Name": name, "Email": email, "Role": role},
            )
        )
    p.groups.append(
        RecordGroup(
            Box(20, gtop, 700, p.y - gtop),
            tuple(records),
            headers=("Name", "Email", "Role", "Actions"),
        )
    )
    p.section = "Pagination"
    p.el("button", "Previous page", text="‹", disabled=True, w=30, advance=False)
    p.el("button", "Next page", text="›", x=60, w=30)
    return p.screen()


def tabs_radios() -> Screen:
    p = Page("https://skyfare.example/book", "Book a flight · Skyfare")
    p.line("Book a flight", heading=1)
    for i, (name, sel) in enumerate(
        (("One way", True), ("Round trip", False), ("Multi-city", False))
    ):
        p.el(
            "tab",
            name,
            text=name,
            selected=sel,
            group="Trip type",
            x=20 + 110 * i,
            w=100,
            advance=i == 2,
        )
    for legend, opts in (
        ("Cabin class", ("Economy", "Premium economy", "Business")),
        ("Fare type", ("Regular", "Student", "Senior citizen")),
    ):
        p.line(legend)
        p.section = legend
        for j, o in enumerate(opts):
            p.line(o, x=45, w=150, advance=False)
            p.el("radio", o, label=o, group=legend, checked=j == 0, w=20, h=20)
    p.section = "Book a flight"
    p.el("checkbox", "Flexible dates", label="Flexible dates", checked=False, w=20, h=20)
    p.el("combobox", "Travellers", text="1 Adult", expanded=False, tag="div", w=150)
    p.el("button", "Continue", text="Continue", w=100)
    return p.screen()


def datepicker() -> Screen:
    p = Page("https://skyfare.example/dates", "Choose dates · Skyfare")
    p.line("When are you flying?", heading=1)
    p.el("button", "Departure date", text="Departure date", expanded=True, w=160)
    p.section = "Choose departure date"
    p.el("button", "Previous month", text="‹", w=30, advance=False)
    p.line("October 2026", heading=2, x=120, w=150, advance=False)
    p.el("button", "Next month", text="›", x=300, w=30)
    p.section = "Choose departure date"
    days = ("Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday")
    for d in range(1, 32):
        label = f"{days[(d - 1) % 7]}, {d} October 2026"
        p.el(
            "button",
            label,
            text=str(d),
            x=20 + 40 * ((d - 1) % 7),
            w=32,
            h=32,
            group="October 2026",
            disabled=d < 3,
            advance=(d % 7 == 0 or d == 31),
        )
    p.line("November 2026", heading=2, w=150)
    p.section = "Choose departure date"
    for d in range(1, 31):
        p.el(
            "gridcell",
            str(d),
            text=str(d),
            x=20 + 40 * ((d - 1) % 7),
            w=32,
            h=32,
            group="November 2026",
            advance=(d % 7 == 0 or d == 30),
        )
    p.el("button", "Done", text="Done", w=80)
    p.dialog_open = True
    return p.screen()


def cookie_modal() -> Screen:
    p = Page("https://skyfare.example/extras", "Extras · Skyfare")
    p.line("Your booking", heading=1)
    p.line("Email", w=50, advance=False)
    p.el("textbox", "Email", label="Email", input_type="email", x=80, w=250, on_top=False)
    p.el("button", "Continue", text="Continue", w=100, on_top=False)
    p.y = 140
    p.line("Add extras", heading=2, x=360)
    p.el("button", "Close", text="×", x=900, w=30)
    p.line("Travel insurance from ₹199", x=360)
    p.el("button", "Add to booking", text="Add to booking", x=360, w=140)
    p.el("clickable", "No thanks", text="No thanks", x=360, w=80, h=20)
    p.y = 740
    p.section = "Cookie consent"
    p.line("We use cookies to improve your experience.", w=400)
    for i, name in enumerate(("Accept all", "Reject all")):
        p.el("button", name, text=name, x=20 + 110 * i, w=100, advance=False)
    p.el("link", "Manage preferences", text="Manage preferences", x=240, w=150)
    p.dialog_open = True
    return p.screen()


def with_changes(screen: Screen, ref: str, **changes: Any) -> Screen:
    """``screen`` with element ``ref`` changed (for edge cases)."""
    return replace(
        screen,
        elements=tuple(replace(e, **changes) if e.ref == ref else e for e in screen.elements),
    )


BUILDERS: dict[str, Callable[[], Screen]] = {
    "login": login,
    "checkout": checkout,
    "search_inside": search_inside,
    "placeholder_only": placeholder_only,
    "passengers": passengers,
    "results": results,
    "table": table,
    "tabs_radios": tabs_radios,
    "datepicker": datepicker,
    "cookie_modal": cookie_modal,
}
