"""What the demo airline sells: cities, airlines, and the flights on a route and day.

Everything here is generated from a seed, so the same seed, route and day always
give the same flights in the same order, with the same prices.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import date

__all__ = [
    "AIRLINES",
    "CITIES",
    "FARES",
    "Airline",
    "City",
    "Flight",
    "city_by_code",
    "find_city",
    "format_duration",
    "format_long_date",
    "format_rupees",
    "format_short_date",
    "search_flights",
]


@dataclass(frozen=True, slots=True)
class City:
    """A city the site flies to, with its main airport."""

    name: str
    code: str
    airport: str
    lat: float
    lon: float

    @property
    def label(self) -> str:
        """How an autocomplete option names the city: ``Delhi (DEL) Indira Gandhi ...``."""
        return f"{self.name} ({self.code}) {self.airport}"

    @property
    def short(self) -> str:
        """``Delhi (DEL)``: what the field shows once the city is picked."""
        return f"{self.name} ({self.code})"


CITIES: tuple[City, ...] = (
    City("Delhi", "DEL", "Indira Gandhi International", 28.56, 77.10),
    City("Mumbai", "BOM", "Chhatrapati Shivaji Maharaj International", 19.09, 72.87),
    City("Bengaluru", "BLR", "Kempegowda International", 13.20, 77.71),
    City("Chennai", "MAA", "Chennai International", 12.99, 80.17),
    City("Kolkata", "CCU", "Netaji Subhas Chandra Bose International", 22.65, 88.45),
    City("Hyderabad", "HYD", "Rajiv Gandhi International", 17.24, 78.43),
    City("Srinagar", "SXR", "Sheikh ul-Alam International", 33.99, 74.77),
    City("Goa", "GOI", "Dabolim", 15.38, 73.83),
    City("Jaipur", "JAI", "Jaipur International", 26.82, 75.81),
    City("Ahmedabad", "AMD", "Sardar Vallabhbhai Patel International", 23.07, 72.63),
    City("Pune", "PNQ", "Pune International", 18.58, 73.92),
    City("Kochi", "COK", "Cochin International", 10.15, 76.40),
    City("Lucknow", "LKO", "Chaudhary Charan Singh International", 26.76, 80.89),
    City("Amritsar", "ATQ", "Sri Guru Ram Dass Jee International", 31.71, 74.80),
    City("Leh", "IXL", "Kushok Bakula Rimpochee", 34.14, 77.55),
    City("Varanasi", "VNS", "Lal Bahadur Shastri International", 25.45, 82.86),
    City("Guwahati", "GAU", "Lokpriya Gopinath Bordoloi International", 26.11, 91.59),
    City("Bhubaneswar", "BBI", "Biju Patnaik International", 20.24, 85.82),
    City("Thiruvananthapuram", "TRV", "Trivandrum International", 8.48, 76.92),
    City("Chandigarh", "IXC", "Shaheed Bhagat Singh International", 30.67, 76.79),
    City("Jammu", "IXJ", "Jammu Airport", 32.69, 74.84),
    City("Udaipur", "UDR", "Maharana Pratap Airport", 24.62, 73.90),
)

_BY_CODE = {city.code: city for city in CITIES}
_HUBS = ("DEL", "BOM", "BLR", "HYD", "CCU", "MAA", "AMD", "LKO", "IXC", "IXJ")


@dataclass(frozen=True, slots=True)
class Airline:
    """An airline whose flights the site sells."""

    name: str
    code: str
    colour: str


AIRLINES: tuple[Airline, ...] = (
    Airline("Peacock Air", "PK", "#1f6feb"),
    Airline("Saffron Airways", "SF", "#e8590c"),
    Airline("Indus Air", "IU", "#0b7285"),
    Airline("Monsoon Jet", "MJ", "#5f3dc4"),
    Airline("Deccan Blue", "DB", "#1864ab"),
    Airline("Kestrel Airlines", "KS", "#c92a2a"),
)

FARES: dict[str, tuple[str, tuple[str, ...]]] = {
    "economy": (
        "Economy",
        (
            "7 kg cabin bag",
            "15 kg check-in bag",
            "Cancellation fee ₹3,500",
            "Seat selection chargeable",
        ),
    ),
    "premium": (
        "Premium",
        (
            "7 kg cabin bag + 25 kg check-in",
            "Free cancellation up to 3 days before",
            "Free seat and meal",
            "Priority boarding",
        ),
    ),
}
"""Fare key -> (name shown on the fare card, what the fare includes)."""


@dataclass(frozen=True, slots=True)
class Flight:
    """One flight on the results page."""

    airline: Airline
    number: int
    origin: City
    destination: City
    day: date
    depart: int  # minutes after midnight
    duration: int  # minutes
    via: City | None
    economy: int  # rupees per adult
    premium: int

    @property
    def ident(self) -> str:
        """The flight's id in addresses: ``PK512``."""
        return f"{self.airline.code}{self.number}"

    @property
    def flight_no(self) -> str:
        """``PK 512``."""
        return f"{self.airline.code} {self.number}"

    @property
    def stops(self) -> int:
        """Number of stops on the way."""
        return 0 if self.via is None else 1

    @property
    def depart_time(self) -> str:
        """Departure time, ``06:15``."""
        return _clock(self.depart)

    @property
    def arrive_time(self) -> str:
        """Arrival time, ``08:50`` (``+1`` when it lands the next day)."""
        end = self.depart + self.duration
        return _clock(end) + (" +1" if end >= 24 * 60 else "")

    @property
    def duration_text(self) -> str:
        """``2h 35m``."""
        return format_duration(self.duration)

    @property
    def stops_text(self) -> str:
        """``Non-stop`` or ``1 stop via Mumbai``."""
        return "Non-stop" if self.via is None else f"1 stop via {self.via.name}"

    def fare_price(self, fare: str) -> int:
        """The price per adult of ``economy`` or ``premium``."""
        return self.premium if fare == "premium" else self.economy


def _clock(minutes: int) -> str:
    minutes %= 24 * 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def format_duration(minutes: int) -> str:
    """``155`` -> ``2h 35m``."""
    return f"{minutes // 60}h {minutes % 60:02d}m"


def format_rupees(amount: int) -> str:
    """Rupees with Indian digit grouping: ``7346`` -> ``₹7,346``, ``123456`` -> ``₹1,23,456``."""
    digits = str(abs(amount))
    if len(digits) > 3:
        head, tail = digits[:-3], digits[-3:]
        groups: list[str] = []
        while len(head) > 2:
            groups.insert(0, head[-2:])
            head = head[:-2]
        if head:
            groups.insert(0, head)
        digits = ",".join([*groups, tail])
    return ("-₹" if amount < 0 else "₹") + digits


def format_short_date(day: date) -> str:
    """``Wed, 14 Oct 2026``."""
    return f"{day.strftime('%a')}, {day.day} {day.strftime('%b %Y')}"


def format_long_date(day: date) -> str:
    """``Wednesday, 14 October 2026``: how the calendar names a day."""
    return f"{day.strftime('%A')}, {day.day} {day.strftime('%B %Y')}"


def city_by_code(code: str) -> City | None:
    """The city with this airport code, if the site flies there."""
    return _BY_CODE.get(code.strip().upper())


def find_city(text: str) -> City | None:
    """The one city that typed text names (a code, a name, or an option's label)."""
    wanted = " ".join(text.split()).casefold()
    if not wanted:
        return None
    by_code = city_by_code(wanted)
    if by_code is not None:
        return by_code
    for city in CITIES:
        if wanted in (city.name.casefold(), city.short.casefold(), city.label.casefold()):
            return city
    starts = [city for city in CITIES if city.name.casefold().startswith(wanted)]
    return starts[0] if len(starts) == 1 else None


def _distance_km(a: City, b: City) -> float:
    lat1, lon1, lat2, lon2 = map(math.radians, (a.lat, a.lon, b.lat, b.lon))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * 6371 * math.asin(math.sqrt(h))


def search_flights(
    seed: int, origin: City, destination: City, day: date, count: int = 10
) -> list[Flight]:
    """The flights on a route and day, in the site's "Recommended" order.

    The order is never the price order, and the cheapest flight is never first,
    so sorting by price always changes what a visitor sees first.
    """
    rng = random.Random(f"{seed}|{origin.code}|{destination.code}|{day.isoformat()}")
    distance = _distance_km(origin, destination)
    base_minutes = 35 + distance / 11.5
    base_price = 1900 + distance * 4.1
    hubs = sorted(
        (_BY_CODE[code] for code in _HUBS if code not in (origin.code, destination.code)),
        key=lambda hub: _distance_km(origin, hub) + _distance_km(hub, destination),
    )[:2]
    used_numbers: set[tuple[str, int]] = set()
    used_prices: set[int] = set()
    used_departures: set[int] = set()
    flights: list[Flight] = []
    while len(flights) < count:
        airline = rng.choice(AIRLINES)
        number = rng.randint(101, 989)
        depart = rng.randrange(5 * 60, 22 * 60 + 30, 5)
        if (airline.code, number) in used_numbers or depart in used_departures:
            continue
        via = rng.choice(hubs) if rng.random() < 0.3 else None
        duration = int(base_minutes) + rng.randint(-5, 20)
        if via is not None:
            duration += 45 + rng.randint(12, 48) * 5
        duration -= duration % 5
        factor = rng.uniform(0.85, 1.7) * (0.88 if via is not None else 1.0)
        economy = int(base_price * factor) + rng.randint(0, 9)
        if economy in used_prices:
            continue
        premium = int(economy * rng.uniform(1.4, 1.85)) // 10 * 10 + 9
        used_numbers.add((airline.code, number))
        used_prices.add(economy)
        used_departures.add(depart)
        flights.append(
            Flight(
                airline, number, origin, destination, day, depart, duration, via, economy, premium
            )
        )
    rng.shuffle(flights)
    cheapest = min(flights, key=lambda f: f.economy)
    if flights[0] is cheapest:
        flights.append(flights.pop(0))
    return flights
