"""The frame every demo page shares: head, header, footer, cookie banner, trip summary."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from gofer.demo.catalog import (
    FARES,
    Flight,
    format_rupees,
    format_short_date,
)
from gofer.demo.state import Booking

__all__ = ["BRAND", "Frame", "booking_total", "e", "page", "steps_bar", "trip_summary"]

BRAND = "SkyLark"

_LOGO = (
    '<svg width="30" height="30" viewBox="0 0 32 32" aria-hidden="true">'
    '<circle cx="16" cy="16" r="16" fill="#ff8a00"/>'
    '<path d="M6 18c5-1 8-4 10-9 1 4 4 6 10 6-5 2-8 4-10 9-1-4-4-6-10-6z" fill="#fff"/></svg>'
)


def e(value: object) -> str:
    """HTML-escape any value for text or an attribute."""
    return escape(str(value), quote=True)


@dataclass(frozen=True, slots=True)
class Frame:
    """What the shared frame needs to know about the visitor."""

    signed_in: str | None = None
    consent: bool = False


def page(title: str, body: str, frame: Frame, *, body_class: str = "") -> str:
    """A whole HTML document with the site's header, footer and cookie banner."""
    if frame.signed_in:
        account = (
            f'<span class="hello">Hi, {e(frame.signed_in.split("@")[0])}</span>'
            '<a href="/logout" class="nav-link">Log out</a>'
        )
    else:
        account = (
            '<a href="/login" class="nav-link">Log in</a>'
            '<a href="/signup" class="nav-link nav-cta">Sign up</a>'
        )
    banner = "" if frame.consent else _COOKIE_BANNER
    return f"""<!doctype html>
<html lang="en-IN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)} | {BRAND} Flights</title>
<link rel="stylesheet" href="/static/site.css">
<link rel="icon" href="data:,">
</head>
<body class="{e(body_class)}">
<header class="site-header">
  <div class="wrap header-row">
    <a href="/" class="brand">{_LOGO}<span>{BRAND}</span></a>
    <nav class="main-nav" aria-label="Main">
      <a href="/" class="nav-link active">Flights</a>
      <a href="/coming-soon?what=Hotels" class="nav-link">Hotels</a>
      <a href="/coming-soon?what=Holidays" class="nav-link">Holidays</a>
      <a href="/coming-soon?what=Manage+booking" class="nav-link">Manage booking</a>
    </nav>
    <div class="account">{account}</div>
  </div>
</header>
<main class="wrap">
{body}
</main>
<footer class="site-footer">
  <div class="wrap footer-row">
    <span>© 2026 {BRAND} Travels Pvt. Ltd.</span>
    <a href="/coming-soon?what=Privacy">Privacy</a>
    <a href="/coming-soon?what=Terms">Terms of use</a>
    <a href="/coming-soon?what=Support">Customer support</a>
  </div>
</footer>
{banner}
<script src="/static/site.js"></script>
</body>
</html>
"""


_COOKIE_BANNER = """<div class="cookie-banner" id="cookie-banner">
  <p>We use cookies to remember your searches and to improve our site.
  <a href="/coming-soon?what=Cookie+policy">Cookie policy</a></p>
  <div class="cookie-actions">
    <button type="button" class="btn btn-ghost" data-consent="necessary">Only necessary</button>
    <button type="button" class="btn btn-primary" data-consent="all">Accept</button>
  </div>
</div>"""

_STEPS = ("Flight", "Passengers", "Extras", "Payment")


def steps_bar(current: int) -> str:
    """The booking progress bar; ``current`` counts from 1."""
    items = []
    for number, name in enumerate(_STEPS, start=1):
        state = "done" if number < current else "current" if number == current else "todo"
        aria = ' aria-current="step"' if number == current else ""
        items.append(f'<li class="step {state}"{aria}><span>{number}</span>{name}</li>')
    return f'<ol class="steps" aria-label="Booking progress">{"".join(items)}</ol>'


def booking_total(booking: Booking, flight: Flight) -> int:
    """What the whole booking costs: the fare for every adult plus the extras."""
    return flight.fare_price(booking.fare) * booking.adults + sum(p for _, p in booking.extras)


def trip_summary(booking: Booking, flight: Flight) -> str:
    """The "Your trip" box shown beside every booking step."""
    fare_name = FARES[booking.fare][0]
    adults = f"{booking.adults} Adult" + ("s" if booking.adults > 1 else "")
    extras = "".join(
        f'<div class="sum-row"><span>{e(name)}</span><span>{format_rupees(price)}</span></div>'
        for name, price in booking.extras
    )
    back = ""
    if booking.return_day is not None:
        back = f'<p class="muted">Return {e(format_short_date(booking.return_day))}</p>'
    fare_total = flight.fare_price(booking.fare) * booking.adults
    return f"""<aside class="trip-summary" aria-label="Your trip">
  <h2>Your trip</h2>
  <p class="sum-airline"><strong>{e(flight.airline.name)}</strong> · {e(flight.flight_no)}</p>
  <p>{e(flight.origin.short)} → {e(flight.destination.short)}</p>
  <p class="muted">{e(format_short_date(flight.day))} · {e(flight.depart_time)} – \
{e(flight.arrive_time)} · {e(flight.stops_text)}</p>
  {back}
  <div class="sum-row"><span>{e(fare_name)} fare · {e(adults)}</span>\
<span>{format_rupees(fare_total)}</span></div>
  {extras}
  <div class="sum-row sum-total"><span>Total</span>\
<span>{format_rupees(booking_total(booking, flight))}</span></div>
</aside>"""
