"""The pages before a flight is chosen: the home search form and the results."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from urllib.parse import urlencode

from gofer.demo.catalog import (
    CITIES,
    FARES,
    City,
    Flight,
    format_rupees,
    format_short_date,
)
from gofer.demo.layout import Frame, e, page

__all__ = ["SearchForm", "home_page", "results_page"]


@dataclass(slots=True)
class SearchForm:
    """The search form's values as the visitor left them, and what was wrong with them."""

    origin: City | None = None
    origin_text: str = ""
    destination: City | None = None
    destination_text: str = ""
    day: date | None = None
    return_day: date | None = None
    round_trip: bool = False
    adults: int = 1
    errors: dict[str, str] = field(default_factory=dict)

    def query(self) -> dict[str, str]:
        """The results page's query parameters for a valid search."""
        assert self.origin and self.destination and self.day
        params = {
            "from": self.origin.code,
            "to": self.destination.code,
            "date": self.day.isoformat(),
            "trip": "return" if self.round_trip else "oneway",
            "adults": str(self.adults),
        }
        if self.round_trip and self.return_day:
            params["return"] = self.return_day.isoformat()
        return params


def _city_field(key: str, label: str, city: City | None, text: str, error: str | None) -> str:
    options = "".join(
        f'<li role="option" id="{key}-opt-{c.code}" data-code="{c.code}" '
        f'data-short="{e(c.short)}" aria-selected="false">'
        f'<span class="opt-city">{e(c.name)} ({c.code})</span> '
        f'<span class="opt-airport">{e(c.airport)}</span></li>'
        for c in CITIES
    )
    shown = city.short if city else text
    invalid = ' aria-invalid="true"' if error else ""
    message = f'<p class="field-error" id="{key}-error">{e(error)}</p>' if error else ""
    return f"""<div class="field city-field" data-combobox>
  <label for="{key}-input">{label}</label>
  <input id="{key}-input" type="text" role="combobox" aria-autocomplete="list"
    aria-expanded="false" aria-controls="{key}-list" autocomplete="off"
    placeholder="City or airport" value="{e(shown)}" name="{key}_text"{invalid}>
  <input type="hidden" name="{key}" value="{e(city.code if city else "")}">
  <ul role="listbox" id="{key}-list" class="listbox" aria-label="{label} cities" hidden>
    {options}
  </ul>
  {message}
</div>"""


def _date_field(
    key: str, label: str, value: date | None, error: str | None, *, hidden: bool = False
) -> str:
    shown = format_short_date(value) if value else ""
    invalid = ' aria-invalid="true"' if error else ""
    message = f'<p class="field-error">{e(error)}</p>' if error else ""
    wrapper_hidden = " hidden" if hidden else ""
    disabled = " disabled" if hidden else ""
    return f"""<div class="field date-field" data-datepicker="{key}"{wrapper_hidden}>
  <label for="{key}-input">{label}</label>
  <input id="{key}-input" type="text" readonly placeholder="Select date"
    value="{e(shown)}" aria-haspopup="dialog" class="date-input"{invalid}>
  <input type="hidden" name="{key}" value="{e(value.isoformat() if value else "")}"{disabled}>
  <div class="calendar" role="dialog" aria-label="Calendar" hidden></div>
  {message}
</div>"""


def home_page(form: SearchForm, today: date, frame: Frame, notice: str = "") -> str:
    """The home page with its flight search form."""
    one_way = "" if form.round_trip else " checked"
    round_trip = " checked" if form.round_trip else ""
    passengers = "".join(
        f'<option value="{n}"{" selected" if n == form.adults else ""}>'
        f"{n} Adult{'s' if n > 1 else ''}</option>"
        for n in range(1, 7)
    )
    notice_html = f'<div class="notice" role="alert">{e(notice)}</div>' if notice else ""
    body = f"""<section class="hero">
  <h1>Fly anywhere in India</h1>
  <p class="hero-sub">Low fares on 6 airlines, no hidden fees.</p>
  {notice_html}
  <form class="search-card" action="/flights" method="get" id="search-form"
        data-today="{today.isoformat()}" novalidate>
    <fieldset class="trip-tabs">
      <legend class="sr-only">Trip type</legend>
      <label class="trip-tab"><input type="radio" name="trip" value="oneway"
        id="trip-oneway"{one_way}>One-way</label>
      <label class="trip-tab"><input type="radio" name="trip" value="return"
        id="trip-return"{round_trip}>Round trip</label>
    </fieldset>
    <div class="search-grid">
      <div class="route">
        {_city_field("from", "From", form.origin, form.origin_text, form.errors.get("from"))}
        <button type="button" class="swap" aria-label="Swap origin and destination">⇄</button>
        {_city_field("to", "To", form.destination, form.destination_text, form.errors.get("to"))}
      </div>
      <div class="dates">
        {_date_field("date", "Departure date", form.day, form.errors.get("date"))}
        {
        _date_field(
            "return",
            "Return date",
            form.return_day,
            form.errors.get("return"),
            hidden=not form.round_trip,
        )
    }
      </div>
      <div class="pax-row">
        <div class="field">
          <label for="adults">Passengers</label>
          <select id="adults" name="adults">{passengers}</select>
        </div>
        <button type="submit" class="btn btn-primary btn-search">Search flights</button>
      </div>
    </div>
  </form>
</section>
<section class="offers" aria-labelledby="offers-title">
  <h2 id="offers-title">Offers for you</h2>
  <div class="offer-grid">
    <div class="offer"><strong>Monsoon getaways</strong>
      <p>Up to 15% off on flights to Goa and Kochi.</p>
      <span class="code">Code SKYMONSOON</span></div>
    <div class="offer"><strong>Students fly lighter</strong>
      <p>Extra 10 kg check-in bag for students with a valid ID.</p></div>
    <div class="offer"><strong>Pay later with UPI</strong>
      <p>Book now and pay in 3 interest-free instalments.</p></div>
  </div>
</section>"""
    return page("Cheap flights across India", body, frame, body_class="home")


_SORTS = (
    ("recommended", "Recommended"),
    ("price", "Lowest price"),
    ("departure", "Earliest departure"),
    ("duration", "Shortest duration"),
)


def _flight_card(rank: int, flight: Flight, search: dict[str, str]) -> str:
    fares = []
    for key, (name, perks) in FARES.items():
        href = "/book?" + urlencode({**search, "flight": flight.ident, "fare": key})
        perk_items = "".join(f"<li>{e(perk)}</li>" for perk in perks)
        fares.append(
            f"""<div class="fare-card fare-{key}">
        <h4>{name}</h4>
        <p class="fare-price">{format_rupees(flight.fare_price(key))}</p>
        <ul class="perks">{perk_items}</ul>
        <div class="btn btn-primary btn-small" onclick="chooseFare(this)"
             data-href="{e(href)}">Select</div>
      </div>"""
        )
    return f"""<li class="flight-card" id="flight-{flight.ident}" data-rank="{rank}"
    data-price="{flight.economy}"
    data-depart="{flight.depart}" data-duration="{flight.duration}"
    data-stops="{flight.stops}" data-airline="{flight.airline.code}">
  <div class="flight-main">
    <div class="airline">
      <span class="logo" style="background:{flight.airline.colour}" aria-hidden="true">\
{flight.airline.code}</span>
      <div><div class="airline-name">{e(flight.airline.name)}</div>
        <div class="flight-no">{e(flight.flight_no)}</div></div>
    </div>
    <div class="leg"><div class="time">{flight.depart_time}</div>
      <div class="place">{flight.origin.code}</div></div>
    <div class="journey"><div>{flight.duration_text}</div><div class="line"></div>
      <div class="stops">{e(flight.stops_text)}</div></div>
    <div class="leg"><div class="time">{flight.arrive_time}</div>
      <div class="place">{flight.destination.code}</div></div>
    <div class="price"><span class="from">from</span>
      <strong>{format_rupees(flight.economy)}</strong>
      <span class="per">per adult</span></div>
    <button type="button" class="btn btn-outline select-flight" aria-expanded="false"
      aria-controls="fares-{flight.ident}">Select</button>
  </div>
  <div class="fares" id="fares-{flight.ident}" hidden>
    {"".join(fares)}
  </div>
</li>"""


def results_page(form: SearchForm, flights: list[Flight], frame: Frame) -> str:
    """The results page: a sortable, filterable list of flights with fare cards."""
    assert form.origin and form.destination and form.day
    search = form.query()
    sort_options = "".join(f'<option value="{k}">{label}</option>' for k, label in _SORTS)
    airlines = sorted({f.airline for f in flights}, key=lambda a: a.name)
    airline_filters = "".join(
        f'<label class="check"><input type="checkbox" name="airline" value="{a.code}" checked>'
        f" {e(a.name)}</label>"
        for a in airlines
    )
    adults = f"{form.adults} Adult" + ("s" if form.adults > 1 else "")
    trip = "Round trip" if form.round_trip else "One-way"
    modify = "/?" + urlencode(search)
    cards = "".join(_flight_card(n, f, search) for n, f in enumerate(flights))
    body = f"""<section class="search-summary">
  <div>
    <h1>{e(form.origin.name)} to {e(form.destination.name)}</h1>
    <p class="muted">{e(form.origin.short)} → {e(form.destination.short)} ·
      {e(format_short_date(form.day))} · {adults} · {trip}</p>
  </div>
  <a class="btn btn-ghost" href="{e(modify)}">Modify search</a>
</section>
<div class="results-layout">
  <aside class="filters" aria-label="Filters">
    <h2>Filters</h2>
    <fieldset><legend>Stops</legend>
      <label class="check"><input type="checkbox" name="stops" value="0" checked> Non-stop</label>
      <label class="check"><input type="checkbox" name="stops" value="1" checked> 1 stop</label>
    </fieldset>
    <fieldset><legend>Airlines</legend>{airline_filters}</fieldset>
  </aside>
  <section class="results" aria-label="Flights">
    <div class="results-bar">
      <p><strong id="result-count">{len(flights)}</strong> flights found</p>
      <div class="sort">
        <label for="sort-by">Sort by</label>
        <select id="sort-by">{sort_options}</select>
      </div>
    </div>
    <ul class="flight-list" id="flight-list">
      {cards}
    </ul>
    <p class="muted small">Fares are per adult, include taxes and fees, and may change until
      you pay.</p>
  </section>
</div>"""
    title = f"Flights from {form.origin.name} to {form.destination.name}"
    return page(title, body, frame, body_class="results-page")
