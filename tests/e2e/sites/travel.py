"""A hotel search in the style of the big booking sites.

A destination box, a two-month range calendar (check-in, then check-out) whose day
cells are ``<td data-date>`` holding only the day number inside tables captioned
"October 2026", month arrows that are icon buttons "‹" and "›" with titles, a
guests popover with +/− steppers, and results as a grid of ``<div>`` cards (no
lists, no tables) with a "Load more" button.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from .base import Site, document

TODAY = date(2026, 9, 20)
"""The site's today: the calendar opens on September 2026, days before are past."""

HOTELS = [
    ("Harbour View Hotel", "8.9", 182),
    ("The Linden", "9.2", 240),
    ("Canal House", "8.4", 145),
    ("Old Town Inn", "7.9", 98),
    ("Grand Meridian", "9.0", 310),
    ("Riverside Lodge", "8.1", 120),
    ("Parkside Suites", "8.7", 199),
    ("The Wren", "9.4", 275),
]

CSS = """
main{max-width:980px;margin:20px auto}
.search{display:flex;gap:8px;align-items:stretch;border:3px solid #febb02;border-radius:8px;
  padding:4px;position:relative}
.search > div{flex:1}
.search input{width:100%;box-sizing:border-box;padding:12px;border:0}
.date-btn,.guests-btn{width:100%;height:100%;text-align:left;background:#fff;border:0;
  padding:12px;cursor:pointer}
.go{background:#006ce4;color:#fff;border:0;padding:0 22px;font-size:18px;cursor:pointer}
.popover{position:absolute;top:60px;background:#fff;box-shadow:0 2px 12px #0004;padding:16px;
  z-index:5;border-radius:8px}
.cal{display:flex;gap:24px}
.cal table{border-collapse:collapse}
.cal caption{font-weight:bold;padding:6px}
.cal td{width:38px;height:36px;text-align:center;cursor:pointer}
.cal td.past{color:#bbb;cursor:default}
.cal td.sel{background:#006ce4;color:#fff}
.cal td.between{background:#e6f0fc}
.nav{position:absolute;top:12px;width:32px;height:32px;border-radius:50%;border:0;
  background:#fff;font-size:22px;cursor:pointer}
.stepper{display:flex;align-items:center;justify-content:space-between;gap:12px;margin:8px 0;
  width:300px}
.stepper button{width:36px;height:36px;border:1px solid #006ce4;color:#006ce4;background:#fff;
  border-radius:4px;font-size:20px;cursor:pointer}
.stepper button:disabled{border-color:#ccc;color:#ccc}
.results{display:grid;grid-template-columns:repeat(2,1fr);gap:16px;margin-top:20px}
.hotel{border:1px solid #ddd;border-radius:8px;padding:12px;display:flex;gap:12px}
.hotel .thumb{width:120px;height:90px;background:#eee}
.score{background:#003b95;color:#fff;padding:4px;border-radius:4px}
.btn{background:#006ce4;color:#fff;border:0;padding:8px 12px;border-radius:4px;cursor:pointer}
"""

SEARCH_JS = """
const MONTHS = ['January','February','March','April','May','June','July','August',
  'September','October','November','December'];
const today = new Date(2026, 8, 20);
let first = new Date(2026, 8, 1);
let checkIn = null, checkOut = null;
const pop = document.getElementById('calendar');
const iso = (d) => d.getFullYear() + '-' + String(d.getMonth() + 1).padStart(2, '0') + '-' +
  String(d.getDate()).padStart(2, '0');
const nice = (d) => d.toLocaleDateString('en-GB', {weekday: 'short', day: 'numeric',
  month: 'short'});
function month(start) {
  const y = start.getFullYear(), m = start.getMonth();
  const days = new Date(y, m + 1, 0).getDate();
  const lead = (new Date(y, m, 1).getDay() + 6) % 7;
  let html = `<table role="presentation"><caption>${MONTHS[m]} ${y}</caption><thead><tr>` +
    ['Mo','Tu','We','Th','Fr','Sa','Su'].map((d) => `<th>${d}</th>`).join('') +
    '</tr></thead><tbody><tr>';
  for (let i = 0; i < lead; i++) html += '<td></td>';
  for (let d = 1; d <= days; d++) {
    const date = new Date(y, m, d), key = iso(date);
    let cls = date < today ? 'past' : '';
    if ((checkIn && key === iso(checkIn)) || (checkOut && key === iso(checkOut))) cls += ' sel';
    else if (checkIn && checkOut && date > checkIn && date < checkOut) cls += ' between';
    html += `<td data-date="${key}" class="${cls}">${d}</td>`;
    if ((lead + d) % 7 === 0) html += '</tr><tr>';
  }
  return html + '</tr></tbody></table>';
}
function draw() {
  const second = new Date(first.getFullYear(), first.getMonth() + 1, 1);
  document.getElementById('months').innerHTML = month(first) + month(second);
  if (!DELEGATED) {
    document.querySelectorAll('#months td[data-date]').forEach((td) =>
      td.addEventListener('click', () => pickDay(td)));
  }
  document.getElementById('check-in-text').textContent = checkIn ? nice(checkIn) : 'Check-in date';
  document.getElementById('check-out-text').textContent =
    checkOut ? nice(checkOut) : 'Check-out date';
  document.getElementById('checkin').value = checkIn ? iso(checkIn) : '';
  document.getElementById('checkout').value = checkOut ? iso(checkOut) : '';
}
function toggle(open) {
  pop.hidden = !open;
  document.querySelectorAll('.date-btn').forEach((b) => b.setAttribute('aria-expanded', open));
  if (open) draw();
}
document.querySelectorAll('.date-btn').forEach((b) => b.addEventListener('click', () => {
  toggle(pop.hidden);
}));
document.getElementById('prev').addEventListener('click', () => {
  first = new Date(first.getFullYear(), first.getMonth() - 1, 1); draw(); });
document.getElementById('next').addEventListener('click', () => {
  first = new Date(first.getFullYear(), first.getMonth() + 1, 1); draw(); });
function pickDay(td) {
  if (td.classList.contains('past')) return;
  const [y, m, d] = td.dataset.date.split('-').map(Number);
  const date = new Date(y, m - 1, d);
  if (!checkIn || checkOut || date <= checkIn) { checkIn = date; checkOut = null; draw(); }
  else { checkOut = date; draw(); toggle(false); }
}
// Like flatpickr, one listener on the days container (delegated), or, like most
// component libraries, one per day cell.
if (DELEGATED) {
  document.getElementById('months').addEventListener('click', (ev) => {
    const td = ev.target.closest('td[data-date]'); if (td) pickDay(td); });
}
const counts = {adults: 2, children: 0, rooms: 1};
const limits = {adults: [1, 30], children: [0, 10], rooms: [1, 30]};
const guests = document.getElementById('guests');
function drawGuests() {
  for (const k of Object.keys(counts)) {
    document.getElementById(k + '-count').textContent = counts[k];
    document.getElementById(k + '-input').value = counts[k];
    document.querySelector(`[data-k=${k}][data-d="-1"]`).disabled = counts[k] <= limits[k][0];
  }
  document.getElementById('guests-text').textContent =
    `${counts.adults} adults · ${counts.children} children · ${counts.rooms} room` +
    (counts.rooms > 1 ? 's' : '');
}
document.getElementById('guests-btn').addEventListener('click', () => {
  guests.hidden = !guests.hidden;
  document.getElementById('guests-btn').setAttribute('aria-expanded', !guests.hidden);
});
guests.querySelectorAll('[data-k]').forEach((b) => b.addEventListener('click', () => {
  const k = b.dataset.k; counts[k] = Math.min(limits[k][1], Math.max(limits[k][0],
    counts[k] + Number(b.dataset.d)));
  drawGuests();
}));
document.getElementById('done').addEventListener('click', () => {
  guests.hidden = true;
  document.getElementById('guests-btn').setAttribute('aria-expanded', 'false');
});
drawGuests();
"""


def _stepper(key: str, title: str, hint: str) -> str:
    return f"""<div class="stepper"><div><label for="{key}-input">{title}</label>
  <div class="hint">{hint}</div></div>
  <input type="hidden" id="{key}-input" name="group_{key}">
  <div style="display:flex;align-items:center;gap:12px">
  <button type="button" data-k="{key}" data-d="-1" aria-label="Decrease number of {title}">
    <span aria-hidden="true">−</span></button>
  <span id="{key}-count" aria-live="polite"></span>
  <button type="button" data-k="{key}" data-d="1" aria-label="Increase number of {title}">
    <span aria-hidden="true">+</span></button></div></div>"""


def _search_page(site: Site) -> str:
    body = f"""
<header style="background:#003b95;color:#fff;padding:12px 24px"><a href="/" style="color:#fff">
  staylight</a></header>
<main><h1>Find your next stay</h1>
<form class="search" method="get" action="/searchresults" autocomplete="off">
  <div><input name="ss" placeholder="Where are you going?" aria-label="Where are you going?">
  </div>
  <div><button type="button" class="date-btn" aria-expanded="false" aria-controls="calendar">
    <span id="check-in-text">Check-in date</span></button></div>
  <div><button type="button" class="date-btn" aria-expanded="false" aria-controls="calendar">
    <span id="check-out-text">Check-out date</span></button></div>
  <input type="hidden" name="checkin" id="checkin"><input type="hidden" name="checkout"
    id="checkout">
  <div><button type="button" class="guests-btn" id="guests-btn" aria-expanded="false">
    <span class="lbl" style="display:block;font-size:12px">Guests</span>
    <span id="guests-text"></span></button></div>
  <button class="go" type="submit">Search</button>
  <div id="calendar" class="popover" hidden style="left:200px;width:640px">
    <button type="button" class="nav" id="prev" title="Previous month" style="left:8px">‹</button>
    <button type="button" class="nav" id="next" title="Next month" style="right:8px">›</button>
    <div class="cal" id="months"></div></div>
  <div id="guests" class="popover" hidden style="right:60px">
    {_stepper("adults", "Adults", "")}{_stepper("children", "Children", "Ages 0 – 17")}
    {_stepper("rooms", "Rooms", "")}
    <button type="button" class="btn" id="done" style="width:100%">Done</button></div>
</form></main>"""
    script = f"const DELEGATED = {'true' if site.state.get('delegated') else 'false'};"
    return document("staylight – hotels, homes and more", body, CSS, script + SEARCH_JS)


RESULTS_JS = """
const all = %HOTELS%;
let shown = 0;
const grid = document.getElementById('grid');
function more() {
  const next = all.slice(shown, shown + 4);
  for (const h of next) {
    const card = document.createElement('div');
    card.className = 'hotel'; card.setAttribute('data-testid', 'property-card');
    card.innerHTML = `<div class="thumb"></div><div class="body">
      <div class="title" data-testid="title">${h.name}</div>
      <div><span class="score" aria-label="Scored ${h.score}">${h.score}</span> Excellent</div>
      <div class="price" data-testid="price-and-discounted-price">$${h.price}</div>
      <div class="nights">%NIGHTS%</div>
      <a class="btn" href="/hotel?name=${encodeURIComponent(h.name)}">See availability</a>
    </div>`;
    grid.appendChild(card);
  }
  shown += next.length;
  document.getElementById('count').textContent = `Showing ${shown} of ${all.length}`;
  if (shown >= all.length) document.getElementById('more').remove();
}
document.getElementById('more').addEventListener('click', () => {
  const b = document.getElementById('more'); b.disabled = true; b.textContent = 'Loading…';
  fetch('/api/more', {method: 'POST', headers: {'content-type': 'application/json'},
                      body: JSON.stringify({offset: shown})})
    .then(() => { more(); const m = document.getElementById('more');
                  if (m) { m.disabled = false; m.textContent = 'Load more results'; } });
});
more();
"""


def _results_page(site: Site) -> str:
    q: dict[str, Any] = site.state.get("query", {})
    hotels = json.dumps([{"name": n, "score": s, "price": p} for n, s, p in HOTELS])
    nights = f"{q.get('group_adults', '?')} adults"
    body = f"""
<header style="background:#003b95;color:#fff;padding:12px 24px">staylight</header>
<main><h1>{q.get("ss", "")}: {len(HOTELS)} properties found</h1>
<p>{q.get("checkin", "")} — {q.get("checkout", "")} · {q.get("group_adults", "")} adults ·
  {q.get("group_children", "")} children · {q.get("group_rooms", "")} room</p>
<p id="count"></p>
<div class="results" id="grid"></div>
<button class="btn" id="more" type="button" style="margin:20px auto;display:block">
  Load more results</button></main>"""
    return document(
        "staylight – results",
        body,
        CSS,
        RESULTS_JS.replace("%HOTELS%", hotels).replace("%NIGHTS%", nights),
    )


def build(*, delegated: bool = False) -> Site:
    """The site: ``/`` the search, ``/searchresults`` the results (a GET form).

    ``delegated``: the calendar's days share one click listener on their container.
    """
    site = Site()
    site.state["delegated"] = delegated
    site.page("/", _search_page)
    site.page("/searchresults", _results_page)
    site.page("/hotel", document("Hotel", "<h1>Availability</h1>"))
    return site
