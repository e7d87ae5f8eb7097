"""A small shop's basket and checkout, kept by the server, in the style of a classic
store theme.

``/basket`` lists the lines (price, a quantity field, a "Remove" button each) with
"Proceed to checkout"; the header has "Sign in" and "Login or register" links, as
most shops do. Checkout is an address form, then a review page whose "Place order"
button is the one that orders. The server keeps the basket (``state["basket"]``),
the address given (``state["address"]``) and the orders placed (``state["orders"]``).
``/orders`` is behind a sign-in wall: it sends the person to the sign-in page.
``/checkout/card`` is a card form named only by placeholders and autocomplete.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .base import Site, document

PRICES = {"Linen Shirt": 38.0, "Canvas Tote": 24.5, "Wool Beanie": 19.0}
BASKET = {"Linen Shirt": 1, "Canvas Tote": 2, "Wool Beanie": 1}
COUNTRIES = ("Ireland", "Portugal", "United Kingdom")

CSS = """
header{display:flex;justify-content:space-between;align-items:center;padding:10px 24px;
  border-bottom:1px solid #ddd}
header nav{display:flex;gap:12px}
main{padding:20px 24px;max-width:720px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:8px;border-bottom:1px solid #eee}
td input{width:3em}
.btn{background:#111;color:#fff;border:0;padding:10px 16px;cursor:pointer}
.link-btn{background:none;border:0;color:#06c;text-decoration:underline;cursor:pointer}
label{display:block;margin-top:10px}
form input[type=text],form select{padding:6px;width:300px}
.steps{display:flex;gap:10px;list-style:none;padding:0;color:#666}
"""


def _header(site: Site) -> str:
    count = sum(site.state["basket"].values())
    return f"""<header><a href="/">Corner Shop</a>
<nav><a href="/account/login">Sign in</a>
<span><a href="/account/login">Login</a> or <a href="/account/register">register</a></span>
<a href="/basket">Basket ({count})</a></nav></header>"""


def _money(value: float) -> str:
    return f"${value:.2f}"


def _total(site: Site) -> float:
    return sum(PRICES[n] * q for n, q in site.state["basket"].items())


def _page(site: Site, title: str, body: str) -> str:
    return document(f"{title} · Corner Shop", _header(site) + f"<main>{body}</main>", CSS)


def _basket(site: Site) -> str:
    rows = "".join(
        f"""<tr><td>{escape(name)}</td><td>{_money(PRICES[name])}</td>
<td><input aria-label="Quantity" value="{qty}" inputmode="numeric"></td>
<td><form method="post" action="/basket/remove"><input type="hidden" name="item"
 value="{escape(name, quote=True)}"><button class="link-btn">Remove</button></form></td></tr>"""
        for name, qty in site.state["basket"].items()
    )
    if not rows:
        return _page(site, "Your basket", "<h1>Your basket</h1><p>Your basket is empty.</p>")
    return _page(
        site,
        "Your basket",
        f"""<h1>Your basket</h1>
<table><thead><tr><th>Item</th><th>Price</th><th>Qty</th><th></th></tr></thead>
<tbody>{rows}</tbody></table>
<p>Subtotal {_money(_total(site))}</p>
<form method="post" action="/basket/checkout"><button class="btn">Proceed to checkout</button>
</form>""",
    )


def _removed(site: Site, data: dict[str, Any]) -> str:
    site.state["basket"].pop(str(data.get("item", "")), None)
    return "/basket"


def _address(site: Site) -> str:
    options = "".join(f"<option>{c}</option>" for c in COUNTRIES)
    return _page(
        site,
        "Delivery address",
        f"""
<ol class="steps"><li>Basket</li><li aria-current="step">Address</li><li>Review</li></ol>
<h1>Where should we send it?</h1>
<form method="post" action="/checkout/address">
 <label for="name">Full name</label><input type="text" id="name" name="name"
  autocomplete="name">
 <label for="street">Street address</label><input type="text" id="street" name="street"
  autocomplete="address-line1">
 <label for="city">Town or city</label><input type="text" id="city" name="city"
  autocomplete="address-level2">
 <label for="postcode">Postcode</label><input type="text" id="postcode" name="postcode"
  autocomplete="postal-code">
 <label for="country">Country</label><select id="country" name="country">
  <option value="">Choose…</option>{options}</select>
 <p><button class="btn">Continue to review</button></p>
</form>""",
    )


def _address_given(site: Site, data: dict[str, Any]) -> str:
    site.state["address"] = dict(data)
    return "/checkout/review"


def _review(site: Site) -> str:
    address = site.state.get("address") or {}
    lines = "".join(f"<li>{escape(n)} × {q}</li>" for n, q in site.state["basket"].items())
    where = ", ".join(
        escape(str(address.get(k, ""))) for k in ("name", "street", "city", "postcode", "country")
    )
    return _page(
        site,
        "Review your order",
        f"""
<ol class="steps"><li>Basket</li><li>Address</li><li aria-current="step">Review</li></ol>
<h1>Review your order</h1>
<ul>{lines}</ul>
<p>Deliver to {where} <a href="/checkout/address">Change</a></p>
<p>Total {_money(_total(site))}, paid on delivery</p>
<form method="post" action="/checkout/place"><button class="btn">Place order</button></form>""",
    )


def _placed(site: Site, data: dict[str, Any]) -> str:
    site.state["orders"].append(
        {"lines": dict(site.state["basket"]), "address": dict(site.state.get("address") or {})}
    )
    site.state["basket"] = {}
    return "/thanks"


def _card(site: Site) -> str:
    """A card form whose fields say what they are only by placeholder and autocomplete."""
    return _page(
        site,
        "Payment",
        """<h1>How would you like to pay?</h1>
<form method="post" action="/checkout/card">
 <input type="text" name="n" placeholder="1234 1234 1234 1234" autocomplete="cc-number"
  inputmode="numeric">
 <input type="text" name="e" placeholder="MM / YY" autocomplete="cc-exp">
 <input type="text" name="c" placeholder="123" autocomplete="cc-csc">
 <p><button class="btn">Continue</button></p>
</form>""",
    )


def _journal(site: Site) -> str:
    """The shop's journal: a story behind a layer asking to log in to keep reading."""
    return _page(
        site,
        "Journal",
        """<h1>How we dye our linen</h1>
<p>Every shirt starts as undyed flax from a mill two valleys away.</p>
<button class="btn" type="button">Share</button>
<div style="position:fixed;inset:0;background:rgba(0,0,0,.5)"></div>
<div role="dialog" aria-modal="true" aria-labelledby="wall-title"
 style="position:fixed;top:120px;left:50%;width:360px;margin-left:-180px;background:#fff;
 padding:20px"><h2 id="wall-title">Log in to keep reading</h2>
<p>Members read every story.</p><a href="/account/login">Log in</a>
<a href="/account/register">Join</a></div>""",
    )


def _product(site: Site) -> str:
    return _page(
        site,
        "Linen Shirt",
        f"""<h1>Linen Shirt</h1>
<p>{_money(PRICES["Linen Shirt"])} · A light shirt for warm days.</p>
<form method="post" action="/basket/add"><button class="btn">Add to basket</button></form>
<section><h2>Reviews</h2>
<p><a href="/account/login">Log in</a> or <a href="/account/register">register</a> to post
comments</p></section>""",
    )


def _sign_in(site: Site) -> str:
    return _page(
        site,
        "Sign in",
        """<h1>Sign in</h1><p>Welcome back.</p>
<form method="post" action="/account/login">
 <label for="email">Email</label><input type="text" id="email" name="email"
  autocomplete="username">
 <label for="password">Password</label><input type="password" id="password" name="password"
  autocomplete="current-password">
 <p><button class="btn">Sign in</button></p>
</form>""",
    )


def build() -> Site:
    """The shop: ``/basket``, ``/checkout/address``, ``/checkout/review``; ``/product``
    (header sign-in links, no wall) and ``/account/login`` (the wall ``/orders`` sends
    a person to)."""
    site = Site(state={"basket": dict(BASKET), "orders": []})
    site.page("/basket", _basket)
    site.page("/checkout/address", _address)
    site.page("/checkout/review", _review)
    site.page("/product", _product)
    site.page("/checkout/card", _card)
    site.page("/journal", _journal)
    site.page("/account/login", _sign_in)
    # A page for signed-in people only sends everyone else to sign in first.
    site.page(
        "/orders",
        document(
            "Your orders",
            "<p>Loading…</p>",
            script=("location.replace('/account/login?next=' + encodeURIComponent('/orders'))"),
        ),
    )
    site.page("/thanks", lambda s: _page(s, "Thank you", "<h1>Thank you for your order</h1>"))
    site.on_post("/basket/remove", _removed)
    site.on_post("/basket/checkout", lambda _s, _d: "/checkout/address")
    site.on_post("/checkout/address", _address_given)
    site.on_post("/checkout/place", _placed)
    return site
