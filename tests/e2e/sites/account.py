"""A shop account behind a login wall, with real sessions: ``/orders`` shows "Sign in
to continue" and its form until the browser holds a session cookie the site issued
at ``POST /login``; then the orders, each with its page and a "Track package" button.

The site keeps its own record of what happened: every sign-in tried (who, whether
it took), and every page served with the user whose session asked for it (or none).
The wall's fields sit at fixed places, so a person looking at a picture of the page
knows where to click; the username field is painted a colour of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from gofer.demo import DemoServer

from .base import document

COOKIE = "shop_sid"
USERNAME_BOX = (100, 160, 320, 40)
"""Where the username field is on the wall page: x, y, width, height in CSS pixels."""
PASSWORD_BOX = (100, 240, 320, 40)
USERNAME_COLOUR = (255, 235, 59)
"""The username field's background, as RGB."""
SIGN_IN_BOX = (100, 310, 120, 40)
"""The wall's "Sign in" button."""
ORDER_LINK_BOX = (100, 160, 320, 40)
"""The orders page's "View order 1042" link."""
TRACK_BOX = (100, 160, 200, 40)
"""An order page's "Track package" button."""

PAGE_CSS = """
h1{position:absolute;left:100px;top:40px;margin:0;font-size:28px}
ul{list-style:none;margin:0;padding:0}
.order{position:absolute;left:100px;width:320px;height:40px;display:block;font-size:18px}
#o1042{top:160px} #o1043{top:240px}
form.track button{position:absolute;left:100px;top:160px;width:200px;height:40px;font-size:16px}
p.about{position:absolute;left:100px;top:100px;margin:0}
"""

CSS = """
h1{position:absolute;left:100px;top:40px;margin:0;font-size:28px}
label{position:absolute;left:100px;font-size:16px}
input{position:absolute;left:100px;width:320px;height:40px;box-sizing:border-box;
  font-size:18px;border:2px solid #333;padding:4px}
#username{top:160px;background:rgb(255,235,59)} #password{top:240px;background:#fff}
button{position:absolute;left:100px;top:310px;width:120px;height:40px;font-size:16px}
.problem{position:absolute;left:460px;top:160px;color:#a00}
"""


@dataclass
class AccountSite:
    """The site, its users and its record (see the module)."""

    users: dict[str, str]
    origin: str = ""
    sessions: dict[str, str] = field(default_factory=dict)
    sign_ins: list[dict[str, Any]] = field(default_factory=list)
    served: list[tuple[str, str | None]] = field(default_factory=list)
    signed_in: asyncio.Event = field(default_factory=asyncio.Event)
    """Set once someone signs in."""
    _serving: asyncio.Event = field(default_factory=asyncio.Event)

    def _serve(self, path: str, user: str | None) -> None:
        self.served.append((path, user))
        woken, self._serving = self._serving, asyncio.Event()
        woken.set()

    async def until_served(self, path: str, user: str | None) -> None:
        """Wait until ``path`` is served to ``user``."""
        while (path, user) not in self.served:
            await self._serving.wait()

    def url(self, path: str) -> str:
        return self.origin + path

    def user_of(self, request: Request) -> str | None:
        return self.sessions.get(request.cookies.get(COOKIE, ""))

    def seen(self, path: str) -> list[str | None]:
        """Who asked for ``path``, each time it was served."""
        return [user for served, user in self.served if served == path]

    def _wall(self, problem: str = "") -> str:
        shown = f'<p class="problem" role="alert">{problem}</p>' if problem else ""
        body = f"""<main><h1>Sign in to continue</h1>
<form method="post" action="/login">
<label for="username" style="top:135px">Username</label>
<input id="username" name="username" autocomplete="username">
<label for="password" style="top:215px">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password">
<button>Sign in</button></form>{shown}</main>"""
        return document("Sign in · Parcel Shop", body, CSS)

    async def orders(self, request: Request) -> Response:
        user = self.user_of(request)
        self._serve("/orders", user)
        if user is None:
            return HTMLResponse(self._wall(), headers={"Cache-Control": "no-store"})
        body = f"""<main><h1>Your orders, {user}</h1><ul>
<li><a class="order" id="o1042" href="/orders/1042">View order 1042</a></li>
<li><a class="order" id="o1043" href="/orders/1043">View order 1043</a></li></ul></main>"""
        return HTMLResponse(
            document("Orders · Parcel Shop", body, PAGE_CSS),
            headers={"Cache-Control": "no-store"},
        )

    async def order(self, request: Request) -> Response:
        user = self.user_of(request)
        number = request.path_params["number"]
        self._serve(f"/orders/{number}", user)
        if user is None:
            return RedirectResponse("/orders", status_code=303)
        body = f"""<main><h1>Order {number}</h1><p class="about">A kettle. Shipped on 2
December.</p><form class="track" method="post" action="/orders/{number}/track"><button>Track
package</button></form></main>"""
        return HTMLResponse(document(f"Order {number} · Parcel Shop", body, PAGE_CSS))

    async def track(self, request: Request) -> Response:
        user = self.user_of(request)
        number = request.path_params["number"]
        self._serve(f"/orders/{number}/track", user)
        if user is None:
            return RedirectResponse("/orders", status_code=303)
        body = f"""<main><h1>Tracking order {number}</h1>
<p>Out for delivery: it arrives today.</p></main>"""
        return HTMLResponse(document(f"Tracking {number} · Parcel Shop", body))

    async def login(self, request: Request) -> Response:
        form = parse_qs((await request.body()).decode(), keep_blank_values=True)
        username = form.get("username", [""])[0]
        password = form.get("password", [""])[0]
        ok = username in self.users and secrets.compare_digest(
            self.users[username].encode(), password.encode()
        )
        self.sign_ins.append({"username": username, "ok": ok})
        if not ok:
            return HTMLResponse(
                self._wall("That username and password do not match."), status_code=401
            )
        self.signed_in.set()
        session = secrets.token_urlsafe(16)
        self.sessions[session] = username
        response = RedirectResponse("/orders", status_code=303)
        response.set_cookie(COOKIE, session, httponly=True, samesite="lax")
        return response

    def app(self) -> Starlette:
        return Starlette(
            routes=[
                Route("/orders", self.orders),
                Route("/orders/{number}", self.order),
                Route("/orders/{number}/track", self.track, methods=["POST"]),
                Route("/login", self.login, methods=["POST"]),
            ]
        )


@contextlib.asynccontextmanager
async def serve_account(users: dict[str, str]) -> AsyncIterator[AccountSite]:
    """The account site on a free local port for the duration of the block."""
    site = AccountSite(users)
    async with DemoServer(app=site.app()) as server:
        site.origin = server.url.rstrip("/")
        yield site
