"""A small clothing store in the style of a Shopify theme.

A product grid whose cards each have an "Add to cart" button, a cart drawer that
slides in over the page with +/− quantity steppers named only by aria-label, a
shipping form with floating labels (the label comes after its input and sits on
top of it), a native country select, a react-select style state combobox whose
options open in a portal at the end of the body, and a payment step whose card
fields live in same-origin iframes, Stripe Elements style, with a "Pay" button.
"""

from __future__ import annotations

from typing import Any

from .base import Site, document

PRODUCTS = (("Linen Shirt", "38.00"), ("Canvas Tote", "24.50"), ("Wool Beanie", "19.00"))

CSS = """
header{display:flex;justify-content:space-between;align-items:center;padding:12px 24px;
  border-bottom:1px solid #ddd}
.grid{display:grid;grid-template-columns:repeat(3,220px);gap:24px;padding:24px}
.card{border:1px solid #eee;padding:12px}
.card .img{height:120px;background:#f3f3f3}
.card h3{font-size:16px;margin:8px 0 4px}
.btn{background:#111;color:#fff;border:0;padding:10px 14px;cursor:pointer}
.icon-btn{background:none;border:1px solid #ccc;width:32px;height:32px;cursor:pointer}
.drawer-overlay{position:fixed;inset:0;background:rgba(0,0,0,.45);display:none}
.drawer{position:fixed;top:0;right:0;bottom:0;width:380px;background:#fff;padding:20px;
  transform:translateX(100%);transition:transform .15s ease}
.drawer.open{transform:none}
.open-overlay{display:block}
.qty{display:flex;align-items:center;gap:4px}
.qty input{width:40px;text-align:center}
"""

SHOP_JS = """
const cart = JSON.parse(sessionStorage.getItem('cart') || '{}');
const prices = %PRICES%;
function money(v) { return '$' + v.toFixed(2); }
function render() {
  const body = document.getElementById('cart-lines');
  body.innerHTML = '';
  let total = 0, count = 0;
  for (const [name, qty] of Object.entries(cart)) {
    total += prices[name] * qty; count += qty;
    const line = document.createElement('div');
    line.className = 'cart-line';
    line.innerHTML = `<p class="line-name">${name}</p>
      <div class="qty">
        <button class="icon-btn minus" aria-label="Decrease quantity for ${name}">&minus;</button>
        <input class="q" aria-label="Quantity for ${name}" value="${qty}" inputmode="numeric">
        <button class="icon-btn plus" aria-label="Increase quantity for ${name}">+</button>
      </div><p>${money(prices[name] * qty)}</p>`;
    line.querySelector('.minus').addEventListener('click', () => {
      cart[name] = Math.max(0, cart[name] - 1); if (!cart[name]) delete cart[name]; save(); });
    line.querySelector('.plus').addEventListener('click', () => { cart[name] += 1; save(); });
    body.appendChild(line);
  }
  document.getElementById('subtotal').textContent = 'Subtotal ' + money(total);
  document.getElementById('cart-count').textContent = count;
}
function save() { sessionStorage.setItem('cart', JSON.stringify(cart)); render(); }
const drawer = document.getElementById('drawer');
const overlay = document.getElementById('overlay');
function openDrawer() {
  overlay.classList.add('open-overlay'); drawer.hidden = false;
  requestAnimationFrame(() => drawer.classList.add('open'));
}
function closeDrawer() {
  drawer.classList.remove('open'); overlay.classList.remove('open-overlay');
  setTimeout(() => { drawer.hidden = true; }, 160);
}
document.querySelectorAll('.add').forEach((b) => b.addEventListener('click', () => {
  const name = b.closest('.card').querySelector('h3').textContent;
  b.textContent = 'Adding…';
  fetch('/cart/add', {method: 'POST', headers: {'content-type': 'application/json'},
                      body: JSON.stringify({item: name, quantity: 1})}).then(() => {
    cart[name] = (cart[name] || 0) + 1; save(); b.textContent = 'Add to cart'; openDrawer();
  });
}));
document.getElementById('close-drawer').addEventListener('click', closeDrawer);
overlay.addEventListener('click', closeDrawer);
document.getElementById('cart-icon').addEventListener('click', openDrawer);
document.getElementById('checkout').addEventListener('click', () => {
  fetch('/cart', {method: 'POST', headers: {'content-type': 'application/json'},
                  body: JSON.stringify(cart)}).then(() => { location.href = '/checkout'; });
});
render();
"""


def _shop_page(_site: Site) -> str:
    cards = "".join(
        f"""<div class="card"><div class="img" role="img" aria-label="{name} photo"></div>
        <h3>{name}</h3><p class="price">${price}</p>
        <button class="btn add" type="button">Add to cart</button></div>"""
        for name, price in PRODUCTS
    )
    body = f"""
<header><a href="/" class="logo">Northwind Goods</a>
  <nav><a href="/">Shop</a> <a href="/about">About</a></nav>
  <button id="cart-icon" class="icon-btn" aria-label="Open cart">
    <svg width="16" height="16" aria-hidden="true"><circle cx="8" cy="8" r="6"/></svg>
    <span id="cart-count">0</span></button></header>
<main><h1>New arrivals</h1><div class="grid">{cards}</div></main>
<div id="overlay" class="drawer-overlay"></div>
<aside id="drawer" class="drawer" role="dialog" aria-modal="true" aria-label="Your cart" hidden>
  <h2>Your cart</h2>
  <button id="close-drawer" class="icon-btn" aria-label="Close">&times;</button>
  <div id="cart-lines"></div>
  <p id="subtotal"></p>
  <button id="checkout" class="btn" type="button">Checkout</button>
</aside>"""
    prices = "{" + ",".join(f'"{n}": {p}' for n, p in PRODUCTS) + "}"
    return document("Northwind Goods", body, CSS, SHOP_JS.replace("%PRICES%", prices))


CHECKOUT_CSS = """
main{max-width:560px;margin:24px auto}
.float{position:relative;margin:14px 0}
.float input{width:100%;box-sizing:border-box;padding:22px 10px 6px;font-size:15px;
  border:1px solid #bbb}
.float label{position:absolute;left:11px;top:15px;color:#666;pointer-events:none;
  transition:all .1s}
.float input:focus + label,.float input:not(:placeholder-shown) + label{top:4px;font-size:11px}
.select-wrap{margin:14px 0}
.select-wrap select{width:100%;padding:10px}
.rs{position:relative;margin:14px 0}
.rs-control{border:1px solid #bbb;display:flex;align-items:center;padding:4px 8px;
  min-height:38px;cursor:default}
.rs-single{position:absolute;left:9px;color:#333}
.rs-placeholder{position:absolute;left:9px;color:#888}
.rs-input{border:0;outline:0;flex:1;font-size:15px;background:transparent;z-index:1}
.rs-menu{position:absolute;background:#fff;border:1px solid #bbb;box-shadow:0 4px 10px #0002;
  z-index:10}
.rs-option{padding:8px 10px;cursor:default}
.rs-option.focused{background:#deebff}
.btn{background:#111;color:#fff;border:0;padding:12px 18px;cursor:pointer}
"""

STATES = (
    "Alabama",
    "Alaska",
    "Arizona",
    "California",
    "Colorado",
    "Connecticut",
    "Delaware",
    "New Jersey",
    "New Mexico",
    "New York",
    "Oregon",
    "Texas",
    "Washington",
)

RS_JS = """
const input = document.getElementById('react-select-3-input');
const control = document.getElementById('rs-control');
const hidden = document.getElementById('state-value');
const shownValue = document.getElementById('rs-value');
const states = %STATES%;
let menu = null, focused = 0;
function close() {
  if (menu) { menu.remove(); menu = null; }
  input.setAttribute('aria-expanded', 'false');
  shownValue.hidden = !hidden.value || !!input.value;
  document.getElementById('rs-placeholder').hidden = !!hidden.value || !!input.value;
}
function pick(name) {
  hidden.value = name; shownValue.textContent = name; input.value = ''; close();
}
function open() {
  const q = input.value.trim().toLowerCase();
  const found = states.filter((s) => s.toLowerCase().includes(q));
  if (!menu) {
    menu = document.createElement('div');
    menu.className = 'rs-menu'; menu.id = 'react-select-3-listbox';
    menu.setAttribute('role', 'listbox');
    document.body.appendChild(menu);
  }
  const r = control.getBoundingClientRect();
  menu.style.left = (r.left + scrollX) + 'px'; menu.style.top = (r.bottom + scrollY + 2) + 'px';
  menu.style.width = r.width + 'px';
  menu.innerHTML = '';
  focused = 0;
  found.forEach((s, i) => {
    const o = document.createElement('div');
    o.className = 'rs-option' + (i === 0 ? ' focused' : ''); o.textContent = s;
    o.id = 'react-select-3-option-' + i; o.setAttribute('role', 'option');
    o.setAttribute('aria-selected', s === hidden.value ? 'true' : 'false');
    o.addEventListener('mousedown', (ev) => ev.preventDefault());
    o.addEventListener('click', () => pick(s));
    menu.appendChild(o);
  });
  if (!found.length) menu.innerHTML = '<div class="rs-notice">No options</div>';
  input.setAttribute('aria-expanded', 'true');
  shownValue.hidden = true;
  document.getElementById('rs-placeholder').hidden = true;
}
control.addEventListener('mousedown', (ev) => {
  if (ev.target !== input) ev.preventDefault(); input.focus(); menu ? close() : open(); });
input.addEventListener('input', open);
input.addEventListener('blur', () => setTimeout(close, 0));
input.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && menu) {
    ev.preventDefault();
    const o = menu.querySelectorAll('[role=option]')[focused]; if (o) pick(o.textContent);
  }
  if (ev.key === 'Escape') close();
});
"""


def _float(name: str, label: str, auto: str) -> str:
    return (
        f'<div class="float"><input id="{name}" name="{name}" placeholder=" " '
        f'autocomplete="{auto}"><label for="{name}">{label}</label></div>'
    )


def _checkout_page(site: Site) -> str:
    lines = site.state.get("cart", {})
    summary = "".join(f"<li>{n} × {q}</li>" for n, q in lines.items())
    body = f"""
<header><a href="/">Northwind Goods</a></header>
<main>
<nav aria-label="Breadcrumb"><ol><li>Cart</li><li aria-current="step">Shipping</li>
  <li>Payment</li></ol></nav>
<h1>Shipping address</h1>
<aside><h2>Order summary</h2><ul>{summary}</ul></aside>
<form method="post" action="/checkout">
  {_float("email", "Email", "email")}
  {_float("first_name", "First name", "given-name")}
  {_float("last_name", "Last name", "family-name")}
  {_float("address1", "Address", "address-line1")}
  {_float("city", "City", "address-level2")}
  <div class="select-wrap"><label for="country">Country/region</label>
    <select id="country" name="country" autocomplete="country">
      <option value="">Select a country</option><option value="CA">Canada</option>
      <option value="GB">United Kingdom</option><option value="US">United States</option>
    </select></div>
  <div class="rs"><label id="react-select-3-label" for="react-select-3-input">State</label>
    <div class="rs-control" id="rs-control">
      <div class="rs-placeholder" id="rs-placeholder">Select...</div>
      <div class="rs-single" id="rs-value" hidden></div>
      <input id="react-select-3-input" class="rs-input" role="combobox" autocomplete="off"
        aria-autocomplete="list" aria-expanded="false" aria-haspopup="true"
        aria-labelledby="react-select-3-label" aria-controls="react-select-3-listbox">
    </div>
    <input type="hidden" id="state-value" name="state"></div>
  {_float("zip", "ZIP code", "postal-code")}
  <button class="btn" type="submit">Continue to payment</button>
</form></main>"""
    states = "[" + ",".join(f'"{s}"' for s in STATES) + "]"
    return document(
        "Shipping – Northwind Goods", body, CHECKOUT_CSS, RS_JS.replace("%STATES%", states)
    )


def _card_frame(label: str, name: str, placeholder: str) -> str:
    # Each card field is its own small document, as a payment provider serves it.
    return document(
        label,
        f"""<input name="{name}" aria-label="{label}" placeholder="{placeholder}"
  autocomplete="cc-{name}" inputmode="numeric"
  style="border:0;outline:0;font-size:16px;width:100%;padding:8px 0">""",
        "body{margin:0;background:transparent}",
    )


def _payment_page(site: Site) -> str:
    ship = site.state.get("shipping", {})
    body = f"""
<header><a href="/">Northwind Goods</a></header>
<main style="max-width:560px;margin:24px auto">
<h1>Payment</h1>
<p>Ship to {ship.get("first_name", "")} {ship.get("last_name", "")}, {ship.get("city", "")},
  {ship.get("state", "")} {ship.get("zip", "")}</p>
<p>All transactions are secure and encrypted.</p>
<form id="payment-form">
  <div class="card-box" style="border:1px solid #bbb;padding:4px 10px">
    <iframe src="/elements/number" title="Secure card number input frame"
      style="border:0;width:100%;height:40px"></iframe>
    <div style="display:flex;gap:10px">
      <iframe src="/elements/expiry" title="Secure expiration date input frame"
        style="border:0;width:50%;height:40px"></iframe>
      <iframe src="/elements/cvc" title="Secure CVC input frame"
        style="border:0;width:50%;height:40px"></iframe>
    </div></div>
  <p>Total <strong>$49.00</strong></p>
  <button class="btn" id="pay" type="submit">Pay $49.00</button>
</form></main>"""
    script = """document.getElementById('payment-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  fetch('/pay', {method: 'POST', headers: {'content-type': 'application/json'}, body: '{}'})
    .then(() => { location.href = '/thanks'; });
});"""
    return document("Payment – Northwind Goods", body, CHECKOUT_CSS, script)


def _after_shipping(site: Site, data: dict[str, Any]) -> str:
    site.state["shipping"] = data
    return "/checkout/payment"


def build() -> Site:
    """The store: ``/`` the grid, ``/checkout`` shipping, ``/checkout/payment``."""
    site = Site()
    site.page("/", _shop_page)
    site.page("/checkout", _checkout_page)
    site.page("/checkout/payment", _payment_page)
    site.page("/elements/number", _card_frame("Card number", "number", "1234 1234 1234 1234"))
    site.page("/elements/expiry", _card_frame("Expiration date MM / YY", "exp", "MM / YY"))
    site.page("/elements/cvc", _card_frame("Security code", "csc", "CVC"))
    site.page("/thanks", document("Thanks", "<h1>Thank you for your order</h1>"))
    site.on_post("/checkout", _after_shipping)
    site.on_post("/cart", lambda s, data: s.state.__setitem__("cart", data) or None)
    return site
