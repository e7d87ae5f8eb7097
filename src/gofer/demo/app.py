"""The demo airline as a Starlette application: routes, sessions, variants and guards."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from importlib.resources import files
from urllib.parse import parse_qsl, urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from gofer.demo import booking_pages, search_pages, wall_pages
from gofer.demo.booking_pages import EXTRAS
from gofer.demo.catalog import FARES, Flight, city_by_code, find_city, search_flights
from gofer.demo.layout import Frame, booking_total
from gofer.demo.search_pages import SearchForm
from gofer.demo.state import Booking, DemoState, Visitor, parse_variants

__all__ = ["DEFAULT_TODAY", "SESSION_COOKIE", "VARIANT_COOKIE", "create_app", "demo_state"]

DEFAULT_TODAY = date(2026, 9, 20)
SESSION_COOKIE = "skylark_session"
VARIANT_COOKIE = "skylark_variant"
CONSENT_COOKIE = "skylark_consent"

_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_STATIC_TYPES = {"site.css": "text/css; charset=utf-8", "site.js": "text/javascript"}


@dataclass(slots=True)
class Visit:
    """One request's visitor, and the cookies the response must set."""

    sid: str
    visitor: Visitor
    new_session: bool
    variant_cookie: str | None
    frame: Frame

    def finish(self, response: Response) -> Response:
        if self.new_session:
            response.set_cookie(SESSION_COOKIE, self.sid, httponly=True, samesite="lax")
        if self.variant_cookie is not None:
            response.set_cookie(VARIANT_COOKIE, self.variant_cookie, samesite="lax")
        return response


Handler = Callable[[Request, Visit], Awaitable[Response]]


class _Form:
    """A posted ``application/x-www-form-urlencoded`` body (the site's only kind of form)."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self._pairs = pairs

    def get(self, key: str, default: str = "") -> str:
        return next((value for name, value in self._pairs if name == key), default)

    def getlist(self, key: str) -> list[str]:
        return [value for name, value in self._pairs if name == key]

    def items(self) -> list[tuple[str, str]]:
        return list(self._pairs)


async def _read_form(request: Request) -> _Form:
    body = (await request.body()).decode("utf-8", errors="replace")
    return _Form(parse_qsl(body, keep_blank_values=True))


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers={"Cache-Control": "no-store"})


def _go(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def _safe_next(url: str | None, default: str = "/") -> str:
    if not url or not url.startswith("/") or url.startswith("//") or "\\" in url:
        return default
    return url


def _parse_day(text: str | None) -> date | None:
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def _adults(text: str | None) -> int:
    return int(text) if text and text.isdigit() and 1 <= int(text) <= 6 else 1


def read_search(params: Mapping[str, str], today: date) -> SearchForm:
    """The search form's values from query parameters, with every problem found."""
    form = SearchForm(
        origin_text=params.get("from_text", ""),
        destination_text=params.get("to_text", ""),
        day=_parse_day(params.get("date")),
        return_day=_parse_day(params.get("return")),
        round_trip=params.get("trip") == "return",
        adults=_adults(params.get("adults")),
    )
    for key, text_key, where in (("from", "from_text", "from"), ("to", "to_text", "to")):
        code, text = params.get(key, ""), params.get(text_key, "")
        city = city_by_code(code) if code else find_city(text)
        if key == "from":
            form.origin = city
        else:
            form.destination = city
        if city is None and not text.strip():
            form.errors[key] = f"Choose where you're flying {where}."
        elif city is None:
            form.errors[key] = (
                f"We don't fly to or from “{text.strip()}”. Pick a city from the list."
            )
    if form.origin and form.origin == form.destination:
        form.errors["to"] = "From and To can't be the same city."
    if form.day is None:
        form.errors["date"] = "Choose a departure date."
    elif form.day < today:
        form.errors["date"] = "Choose a date from today onwards."
    elif form.day > today + timedelta(days=365):
        form.errors["date"] = "Flights are on sale up to a year ahead."
    if form.round_trip:
        if form.return_day is None:
            form.errors["return"] = "Choose a return date."
        elif form.day and form.return_day < form.day:
            form.errors["return"] = "Your return can't be before your departure."
    return form


class _Site:
    """The route handlers, sharing one :class:`DemoState`."""

    def __init__(self, state: DemoState) -> None:
        self.state = state
        base = files("gofer.demo").joinpath("static")
        self.static = {name: base.joinpath(name).read_bytes() for name in _STATIC_TYPES}

    # ---- plumbing

    def visit(self, request: Request) -> Visit:
        state = self.state
        sid = request.cookies.get(SESSION_COOKIE)
        visitor = state.visitor(sid)
        new_session = visitor is None
        if visitor is None or sid is None:
            sid, visitor = state.new_visitor()
        variant_cookie = None
        if "variant" in request.query_params:
            variants = parse_variants(request.query_params["variant"])
            variant_cookie = ",".join(sorted(variants))
        else:
            variants = parse_variants(request.cookies.get(VARIANT_COOKIE, ""))
        if variants != visitor.variants:
            visitor.reset_walls()
            visitor.variants = variants
        frame = Frame(signed_in=visitor.signed_in, consent=CONSENT_COOKIE in request.cookies)
        return Visit(sid, visitor, new_session, variant_cookie, frame)

    def route(self, path: str, handler: Handler, methods: tuple[str, ...] = ("GET",)) -> Route:
        async def endpoint(request: Request) -> Response:
            visit = self.visit(request)
            return visit.finish(await handler(request, visit))

        return Route(path, endpoint, methods=list(methods))

    def flight_of(self, booking: Booking) -> Flight:
        origin = city_by_code(booking.origin)
        destination = city_by_code(booking.destination)
        assert origin is not None and destination is not None
        flights = search_flights(self.state.seed, origin, destination, booking.day)
        return next(f for f in flights if f.ident == booking.flight)

    def booking_or_redirect(
        self, request: Request, visit: Visit, *, need_passenger: bool
    ) -> tuple[Booking, Flight] | Response:
        """The visitor's booking, or where they must go first."""
        visitor = visit.visitor
        booking = visitor.booking
        if booking is None:
            return _go("/?expired=1")
        if "login" in visitor.variants and not visitor.signed_in:
            return _go("/signin?" + urlencode({"next": request.url.path}))
        if booking.finished:
            return _go("/done")
        if need_passenger and booking.passenger is None:
            return _go("/passengers")
        return booking, self.flight_of(booking)

    def after_extras(self, visitor: Visitor) -> str:
        if "otp" in visitor.variants and not visitor.otp_verified:
            return "/verify-code"
        return "/review" if "confirm" in visitor.variants else "/payment"

    # ---- search

    async def home(self, request: Request, visit: Visit) -> Response:
        params = request.query_params
        form = read_search(params, self.state.today) if "from" in params else SearchForm()
        form.errors.clear()
        notice = ""
        if params.get("expired"):
            notice = "Your session has expired. Please search again."
        return _html(search_pages.home_page(form, self.state.today, visit.frame, notice))

    async def flights(self, request: Request, visit: Visit) -> Response:
        form = read_search(request.query_params, self.state.today)
        if form.errors:
            return _html(search_pages.home_page(form, self.state.today, visit.frame))
        visitor = visit.visitor
        if "captcha" in visitor.variants and not visitor.captcha_solved:
            here = request.url.path + "?" + request.url.query
            return _go("/verify?" + urlencode({"next": here}))
        assert form.origin and form.destination and form.day
        flights = search_flights(self.state.seed, form.origin, form.destination, form.day)
        self.state.record("search", **form.query())
        return _html(search_pages.results_page(form, flights, visit.frame))

    async def captcha(self, request: Request, visit: Visit) -> Response:
        visitor = visit.visitor
        if request.method == "GET":
            next_url = _safe_next(request.query_params.get("next"))
            if "captcha" not in visitor.variants or visitor.captcha_solved:
                return _go(next_url)
            return _html(wall_pages.captcha_page(next_url, visit.frame))
        data = await _read_form(request)
        next_url = _safe_next(str(data.get("next", "")))
        if data.get("robot") != "yes":
            error = "Please tick “I'm not a robot” to continue."
            return _html(wall_pages.captcha_page(next_url, visit.frame, error))
        visitor.captcha_solved = True
        self.state.record("captcha_solved")
        return _go(next_url)

    async def book(self, request: Request, visit: Visit) -> Response:
        params = request.query_params
        form = read_search(params, self.state.today)
        fare = params.get("fare", "")
        if form.errors or fare not in FARES:
            return _go("/?expired=1")
        assert form.origin and form.destination and form.day
        flights = search_flights(self.state.seed, form.origin, form.destination, form.day)
        flight = next((f for f in flights if f.ident == params.get("flight")), None)
        if flight is None:
            return _go("/?expired=1")
        visit.visitor.booking = Booking(
            origin=form.origin.code,
            destination=form.destination.code,
            day=form.day,
            return_day=form.return_day if form.round_trip else None,
            adults=form.adults,
            flight=flight.ident,
            fare=fare,
        )
        self.state.record(
            "flight_selected", flight=flight.ident, fare=fare, price=flight.fare_price(fare)
        )
        return _go("/passengers")

    # ---- accounts

    async def signin(self, request: Request, visit: Visit) -> Response:
        visitor = visit.visitor
        if request.method == "GET":
            next_url = _safe_next(request.query_params.get("next"), "/passengers")
            if visitor.signed_in:
                return _go(next_url)
            return _html(wall_pages.signin_wall_page(next_url, visit.frame))
        data = await _read_form(request)
        next_url = _safe_next(str(data.get("next", "")), "/passengers")
        email, password = str(data.get("email", "")).strip(), str(data.get("password", ""))
        if not email or not password:
            error = "Enter your email and password."
            return _html(wall_pages.signin_wall_page(next_url, visit.frame, error, email))
        visitor.signed_in = email
        self.state.record("login", email=email, wall=True)
        return _go(next_url)

    async def login(self, request: Request, visit: Visit) -> Response:
        if request.method == "GET":
            return _html(wall_pages.login_page(visit.frame))
        data = await _read_form(request)
        email, password = str(data.get("email", "")).strip(), str(data.get("password", ""))
        if not email or not password:
            error = "Enter your email and password."
            return _html(wall_pages.login_page(visit.frame, error, email))
        visit.visitor.signed_in = email
        self.state.record("login", email=email, wall=False)
        return _go("/")

    async def signup(self, request: Request, visit: Visit) -> Response:
        if request.method == "GET":
            return _html(wall_pages.signup_page(visit.frame))
        data = await _read_form(request)
        name = str(data.get("name", "")).strip()
        email = str(data.get("email", "")).strip()
        if not name or not _EMAIL.match(email) or not data.get("password"):
            error = "Enter your name, a valid email and a password."
            return _html(wall_pages.signup_page(visit.frame, error))
        visit.visitor.signed_in = email
        self.state.record("signup", name=name, email=email)
        return _go("/")

    async def logout(self, request: Request, visit: Visit) -> Response:
        visit.visitor.signed_in = None
        return _go("/")

    # ---- booking

    async def passengers(self, request: Request, visit: Visit) -> Response:
        found = self.booking_or_redirect(request, visit, need_passenger=False)
        if isinstance(found, Response):
            return found
        booking, flight = found
        dead = "dead_continue" in visit.visitor.variants
        if request.method == "GET":
            return _html(
                booking_pages.passengers_page(
                    booking, flight, visit.frame, values=booking.passenger, dead_continue=dead
                )
            )
        data = await _read_form(request)
        values = {
            key: str(data.get(key, "")).strip()
            for key in ("first_name", "last_name", "email", "mobile", "gender")
        }
        errors = _passenger_errors(values)
        if errors:
            return _html(
                booking_pages.passengers_page(
                    booking, flight, visit.frame, values=values, errors=errors, dead_continue=dead
                )
            )
        values["mobile"] = _mobile_digits(values["mobile"])
        booking.passenger = values
        self.state.record("passengers", **values)
        return _go("/extras")

    async def extras(self, request: Request, visit: Visit) -> Response:
        found = self.booking_or_redirect(request, visit, need_passenger=True)
        if isinstance(found, Response):
            return found
        booking, flight = found
        next_url = self.after_extras(visit.visitor)
        if request.method == "GET":
            injection = "injection" in visit.visitor.variants
            return _html(
                booking_pages.extras_page(
                    booking, flight, next_url, visit.frame, injection=injection
                )
            )
        data = await _read_form(request)
        chosen = [str(data.get("seat", "")), *map(str, data.getlist("meal"))]
        chosen.append(str(data.get("insurance", "")))
        booking.extras = [EXTRAS[key] for key in chosen if key in EXTRAS]
        self.state.record("extras", items=[name for name, _ in booking.extras])
        return _go(next_url)

    async def otp(self, request: Request, visit: Visit) -> Response:
        found = self.booking_or_redirect(request, visit, need_passenger=True)
        if isinstance(found, Response):
            return found
        booking, _ = found
        visitor = visit.visitor
        if "otp" not in visitor.variants or visitor.otp_verified:
            return _go(self.after_extras(visitor))
        assert booking.passenger is not None
        masked = f"+91 ••••• {booking.passenger['mobile'][-5:]}"
        if request.method == "GET" or request.url.path.endswith("/resend"):
            self.state.record("otp_sent", to=masked, code=self.state.otp_code)
            resent = request.method == "POST"
            return _html(wall_pages.otp_page(masked, visit.frame, resent=resent))
        data = await _read_form(request)
        if str(data.get("code", "")).strip() != self.state.otp_code:
            error = "That code doesn't match. Check the SMS and try again."
            return _html(wall_pages.otp_page(masked, visit.frame, error))
        visitor.otp_verified = True
        self.state.record("otp_verified")
        return _go(self.after_extras(visitor))

    async def payment(self, request: Request, visit: Visit) -> Response:
        found = self.booking_or_redirect(request, visit, need_passenger=True)
        if isinstance(found, Response):
            return found
        booking, flight = found
        if self.after_extras(visit.visitor) != "/payment":
            return _go(self.after_extras(visit.visitor))
        if request.method == "GET":
            return _html(booking_pages.payment_page(booking, flight, visit.frame))
        data = await _read_form(request)
        values = {key: str(value).strip() for key, value in data.items()}
        errors = _payment_errors(values)
        if errors:
            return _html(
                booking_pages.payment_page(
                    booking, flight, visit.frame, values=values, errors=errors
                )
            )
        booking.pnr = self.state.new_pnr()
        booking.finished = "paid"
        method = values.get("method", "card")
        self.state.record(
            "payment",
            method=method,
            amount=booking_total(booking, flight),
            card_last4=_digits(values.get("card_number", ""))[-4:] if method == "card" else "",
            flight=flight.ident,
            fare=booking.fare,
            pnr=booking.pnr,
        )
        return _go("/done")

    async def review(self, request: Request, visit: Visit) -> Response:
        found = self.booking_or_redirect(request, visit, need_passenger=True)
        if isinstance(found, Response):
            return found
        booking, flight = found
        if self.after_extras(visit.visitor) != "/review":
            return _go(self.after_extras(visit.visitor))
        if request.method == "GET":
            return _html(booking_pages.review_page(booking, flight, visit.frame))
        booking.pnr = self.state.new_pnr()
        booking.finished = "confirmed"
        self.state.record(
            "booking_confirmed",
            amount=booking_total(booking, flight),
            flight=flight.ident,
            fare=booking.fare,
            pnr=booking.pnr,
        )
        return _go("/done")

    async def done(self, request: Request, visit: Visit) -> Response:
        booking = visit.visitor.booking
        if booking is None or not booking.finished:
            return _go("/")
        return _html(booking_pages.done_page(booking, self.flight_of(booking), visit.frame))

    # ---- the rest

    async def coming_soon(self, request: Request, visit: Visit) -> Response:
        what = request.query_params.get("what", "Coming soon")[:40]
        return _html(wall_pages.coming_soon_page(what, visit.frame))

    async def asset(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in self.static:
            return Response("Not found", status_code=404)
        return Response(
            self.static[name],
            media_type=_STATIC_TYPES[name],
            headers={"Cache-Control": "no-cache"},
        )

    async def events(self, request: Request) -> Response:
        return JSONResponse({"events": self.state.events, "otp_code": self.state.otp_code})


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _mobile_digits(text: str) -> str:
    digits = _digits(text)
    if len(digits) == 12 and digits.startswith("91"):
        digits = digits[2:]
    elif len(digits) == 11 and digits.startswith("0"):
        digits = digits[1:]
    return digits


def _passenger_errors(values: dict[str, str]) -> dict[str, str]:
    errors = {}
    if not values["first_name"]:
        errors["first_name"] = "Enter the passenger's first name."
    if not values["last_name"]:
        errors["last_name"] = "Enter the passenger's last name."
    if not _EMAIL.match(values["email"]):
        errors["email"] = "Enter a valid email address, like name@example.com."
    mobile = _mobile_digits(values["mobile"])
    if len(mobile) != 10 or mobile[0] not in "6789":
        errors["mobile"] = "Enter a 10-digit Indian mobile number."
    if values["gender"] not in ("", "female", "male", "other"):
        values["gender"] = ""
    return errors


def _payment_errors(values: dict[str, str]) -> dict[str, str]:
    errors = {}
    if values.get("method") == "upi":
        if "@" not in values.get("upi_id", ""):
            errors["upi_id"] = "Enter a UPI ID like name@bank."
        return errors
    if not 12 <= len(_digits(values.get("card_number", ""))) <= 19:
        errors["card_number"] = "Enter a valid card number."
    if not values.get("card_name"):
        errors["card_name"] = "Enter the name printed on the card."
    expiry = re.fullmatch(r"(\d{2})\s*/\s*(\d{2})", values.get("expiry", ""))
    if expiry is None or not 1 <= int(expiry.group(1)) <= 12:
        errors["expiry"] = "Enter the expiry date as MM/YY."
    if not re.fullmatch(r"\d{3,4}", values.get("cvv", "")):
        errors["cvv"] = "Enter the 3 or 4 digit CVV."
    return errors


def create_app(seed: int = 7, *, today: date | None = None) -> Starlette:
    """The demo airline site for one seed; ``today`` fixes the date the site lives on.

    The app's :class:`DemoState` (events, the one-time code) is ``app.state.demo``.
    """
    state = DemoState(seed, today or DEFAULT_TODAY)
    site = _Site(state)
    both = ("GET", "POST")
    routes = [
        site.route("/", site.home),
        site.route("/flights", site.flights),
        site.route("/verify", site.captcha, both),
        site.route("/book", site.book),
        site.route("/signin", site.signin, both),
        site.route("/login", site.login, both),
        site.route("/signup", site.signup, both),
        site.route("/logout", site.logout),
        site.route("/passengers", site.passengers, both),
        site.route("/extras", site.extras, both),
        site.route("/verify-code", site.otp, both),
        site.route("/verify-code/resend", site.otp, ("POST",)),
        site.route("/payment", site.payment, both),
        site.route("/review", site.review, both),
        site.route("/done", site.done),
        site.route("/coming-soon", site.coming_soon),
        Route("/static/{name}", site.asset),
        Route("/_demo/events", site.events),
    ]
    app = Starlette(routes=routes)
    app.state.demo = state
    return app


def demo_state(app: Starlette) -> DemoState:
    """The :class:`DemoState` of an app made by :func:`create_app`."""
    state = app.state.demo
    assert isinstance(state, DemoState)
    return state
