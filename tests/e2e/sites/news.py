"""A news site in the style of big publishers: a cookie consent wall that covers the
page until answered (Escape does nothing), a search box, article teasers as a grid
of ``<article>`` cards, and a "Read the full report" link that opens in a new tab."""

from __future__ import annotations

from .base import Site, document

CSS = """
header{display:flex;justify-content:space-between;padding:12px 24px;border-bottom:4px solid #c00}
main{max-width:960px;margin:20px auto}
.teasers{display:grid;grid-template-columns:repeat(3,1fr);gap:20px}
article{border-top:1px solid #ccc;padding-top:8px}
article h2{font-size:18px}
.cmp-backdrop{position:fixed;inset:0;background:rgba(0,0,0,.6);z-index:1000;display:flex;
  align-items:flex-end;justify-content:center}
.cmp-backdrop[hidden]{display:none}
.cmp{background:#fff;max-width:720px;padding:24px;margin-bottom:40px}
.cmp button{padding:10px 16px;margin-right:8px;cursor:pointer}
.cmp .primary{background:#c00;color:#fff;border:0}
"""

TEASERS = (
    ("Rivers run low as summer heat lingers", "Water authorities warn of restrictions."),
    ("City council approves new tram line", "Construction to start in spring."),
    ("Local bakery wins national award", "The sourdough that took the prize."),
)

CONSENT_JS = """
const wall = document.getElementById('cmp');
function answer(choice) {
  fetch('/consent', {method: 'POST', headers: {'content-type': 'application/json'},
                     body: JSON.stringify({choice})});
  document.cookie = 'consent=' + choice; wall.hidden = true;
  document.body.style.overflow = '';
}
if (!document.cookie.includes('consent=')) {
  wall.hidden = false; document.body.style.overflow = 'hidden';
}
document.getElementById('accept').addEventListener('click', () => answer('accepted'));
document.getElementById('reject').addEventListener('click', () => answer('rejected'));
"""


def _consent() -> str:
    return """<div id="cmp" class="cmp-backdrop" hidden>
  <div class="cmp" role="dialog" aria-modal="true" aria-labelledby="cmp-title">
    <h2 id="cmp-title">We value your privacy</h2>
    <p>We and our 812 partners store and access information on your device, such as
    cookies, for personalised ads and content, measurement, audience research and
    services development.</p>
    <button id="accept" class="primary">Accept all</button>
    <button id="reject">Reject all</button>
    <a href="/privacy">Manage preferences</a>
  </div></div>"""


def _home(_site: Site) -> str:
    cards = "".join(
        f'<article><h2><a href="/story/{i}">{title}</a></h2><p>{blurb}</p></article>'
        for i, (title, blurb) in enumerate(TEASERS)
    )
    body = f"""
<header><a href="/">The Daily Ledger</a>
<form action="/search" role="search"><input type="search" name="q" aria-label="Search">
  <button>Search</button></form></header>
<main><h1>Top stories</h1><div class="teasers">{cards}</div></main>{_consent()}"""
    return document("The Daily Ledger", body, CSS, CONSENT_JS)


def _story(_site: Site) -> str:
    body = f"""<header><a href="/">The Daily Ledger</a></header>
<main><h1>{TEASERS[0][0]}</h1><p>By Staff Reporter</p>
<p>Reservoir levels fell to 41 per cent this week.</p>
<p><a href="/reports/drought-2026" target="_blank" rel="noopener">Read the full report</a>
  (opens in a new tab)</p></main>{_consent()}"""
    return document(TEASERS[0][0], body, CSS, CONSENT_JS)


def _report(_site: Site) -> str:
    body = """<main><h1>Drought outlook 2026</h1>
<p>Summary: rainfall 38 per cent below the long-term average.</p></main>"""
    return document("Drought outlook 2026", body, CSS)


def _search(site: Site) -> str:
    q = str(site.state.get("query", {}).get("q", ""))
    hits = [t for t, b in TEASERS if q and q.casefold() in (t + " " + b).casefold()]
    items = "".join(f"<li><a href='/story/{i}'>{t}</a></li>" for i, t in enumerate(hits))
    body = f"""<header><a href="/">The Daily Ledger</a></header>
<main><h1>Results for “{q}”</h1><p>{len(hits)} result(s)</p><ul>{items}</ul></main>{_consent()}"""
    return document("Search – The Daily Ledger", body, CSS, CONSENT_JS)


def build() -> Site:
    """The site: ``/`` the front page, ``/story/0``, ``/reports/drought-2026``."""
    site = Site()
    site.page("/", _home)
    site.page("/story/0", _story)
    site.page("/reports/drought-2026", _report)
    site.page("/search", _search)
    site.page("/privacy", document("Privacy", "<h1>Privacy settings</h1>"))
    return site
