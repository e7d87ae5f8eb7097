"""The bundled demo site: SkyLark, an airline booking site gofer can serve locally.

It is a site, not a client: it imports nothing of gofer's engine. End-to-end tests,
the benchmark and the README demo book flights on it.

    async with DemoServer(seed=7) as site:
        ...  # browse site.url; afterwards check site.events_of("payment") == []

Variants are switched on per visitor with ``?variant=NAME`` on any page (kept in
a cookie): ``captcha``, ``otp``, ``login``, ``dead_continue``, ``injection``,
``confirm``; several at once as ``?variant=captcha,otp``; ``?variant=`` clears them.
"""

from __future__ import annotations

from gofer.demo.app import DEFAULT_TODAY, create_app, demo_state
from gofer.demo.catalog import CITIES, Flight, format_rupees, search_flights
from gofer.demo.server import DemoServer, DemoSiteError, serve
from gofer.demo.state import VARIANTS, DemoState

__all__ = [
    "CITIES",
    "DEFAULT_TODAY",
    "VARIANTS",
    "DemoServer",
    "DemoSiteError",
    "DemoState",
    "Flight",
    "create_app",
    "demo_state",
    "format_rupees",
    "search_flights",
    "serve",
]
