"""A content admin in the style of real CMS back offices, quiet or busy.

A posts list whose rows arrive by ``fetch`` after the page loaded, and a new-post
form (title, summary, category, publish date, a "Featured" box) saved by a
``fetch`` that shows a toast with a link back to the list. Built ``busy``, every
page's header also does what admin applications do all the time: it polls a
notifications endpoint every 250 ms and writes the count it gets, spins a sync
icon with an endless CSS animation, and runs a clock that ticks every second.
"""

from __future__ import annotations

import json
from typing import Any

from .base import Site, document

POSTS = [
    {"title": "Spring opening hours", "category": "News", "status": "Published"},
    {"title": "Meet the new team", "category": "People", "status": "Published"},
]
POLL_MS = 250
"""How often a busy page asks for its notifications."""

CSS = """
.top{display:flex;gap:16px;align-items:center;padding:10px 20px;background:#1f2937;color:#fff}
.top a{color:#fff}
.brand{font-weight:bold;flex:1}
.badge{background:#dc2626;border-radius:9px;padding:0 6px;margin-left:4px}
.sync{width:14px;height:14px;border:2px solid #9ca3af;border-top-color:#fff;border-radius:50%}
.busy .sync{animation:spin 0.8s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
main{padding:20px;max-width:760px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:8px;border-bottom:1px solid #e5e7eb}
label{display:block;margin-top:12px}
input,select,textarea{padding:6px;width:320px}
input[type=checkbox]{width:auto}
.toast{margin-top:16px;background:#065f46;color:#fff;padding:10px 14px}
.toast a{color:#fff}
"""

HEADER = """<header class="top">
  <span class="brand">Acme CMS</span>
  <span class="sync" aria-hidden="true"></span>
  <a href="/notifications">Notifications <span id="badge" class="badge">3</span></a>
  <time id="clock">09:00:00</time>
</header>"""

BUSY_JS = """
setInterval(() => {
  fetch('/api/notifications').then((r) => r.json()).then((d) => {
    document.getElementById('badge').textContent = d.count;
  });
}, %POLL%);
(function tick() {
  document.getElementById('clock').textContent = new Date().toLocaleTimeString('en-GB');
  setTimeout(tick, 1000 - (Date.now() % 1000));
})();
"""

LIST_JS = """
fetch('/api/posts').then((r) => r.json()).then((posts) => {
  document.querySelector('#posts tbody').innerHTML = posts.map((p) =>
    `<tr><td>${p.title}</td><td>${p.category}</td><td>${p.status}</td></tr>`).join('');
  document.getElementById('loading').remove();
});
"""

FORM_JS = """
document.getElementById('post-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const f = ev.target;
  const body = {title: f.title.value, summary: f.summary.value, category: f.category.value,
                publish: f.publish.value, featured: f.featured.checked};
  const save = document.getElementById('save');
  save.disabled = true; save.textContent = 'Saving…';
  fetch('/api/posts', {method: 'POST', headers: {'content-type': 'application/json'},
                       body: JSON.stringify(body)}).then(() => {
    save.disabled = false; save.textContent = 'Save draft';
    const toast = document.getElementById('toast');
    toast.innerHTML = 'Post saved as a draft. <a href="/posts">Back to posts</a>';
    toast.hidden = false;
  });
});
"""


def _page(site: Site, title: str, main: str, script: str) -> str:
    busy = bool(site.state["busy"])
    script += BUSY_JS.replace("%POLL%", str(POLL_MS)) if busy else ""
    body = f'<div class="{"busy" if busy else "quiet"}">{HEADER}<main>{main}</main></div>'
    return document(f"{title} – Acme CMS", body, CSS, script)


def _list_page(site: Site) -> str:
    main = """<h1>Posts</h1>
<p><a href="/posts/new">New post</a></p>
<p id="loading">Loading posts…</p>
<table id="posts"><thead><tr><th>Title</th><th>Category</th><th>Status</th></tr></thead>
<tbody></tbody></table>"""
    return _page(site, "Posts", main, LIST_JS)


def _form_page(site: Site) -> str:
    main = """<h1>New post</h1>
<form id="post-form">
  <label for="title">Title</label><input id="title" name="title">
  <label for="summary">Summary</label><textarea id="summary" name="summary"></textarea>
  <label for="category">Category</label>
  <select id="category" name="category"><option>News</option><option>People</option>
    <option>Events</option></select>
  <label for="publish">Publish date</label><input id="publish" name="publish" type="date">
  <label><input type="checkbox" id="featured" name="featured"> Featured post</label>
  <p><button id="save" type="submit">Save draft</button></p>
</form>
<div id="toast" class="toast" role="status" hidden></div>"""
    return _page(site, "New post", main, FORM_JS)


def _saved(site: Site, data: dict[str, Any]) -> None:
    site.state["posts"].append(
        {
            "title": str(data.get("title", "")),
            "category": str(data.get("category", "")),
            "status": "Draft",
        }
    )


def _notifications(site: Site) -> dict[str, int]:
    site.state["polls"] += 1
    return {"count": 3 + site.state["polls"] // 40}


def build(*, busy: bool) -> Site:
    """The CMS: ``/posts`` and ``/posts/new``; ``busy`` adds the polling, spinning and ticking
    header. ``state["polls"]`` counts the notification polls the pages sent."""
    site = Site()
    site.state.update(busy=busy, polls=0, posts=[dict(p) for p in POSTS])
    site.page("/posts", _list_page)
    site.page("/posts/new", _form_page)
    site.json("/api/posts", lambda s: json.loads(json.dumps(s.state["posts"])))
    site.json("/api/notifications", _notifications)
    site.on_post("/api/posts", _saved)
    # what a real server takes: listing and saving do work, a poll is cheap but not free
    site.slow.update({"/api/posts": 0.15, "/api/notifications": 0.04})
    return site


FLOW_TITLE = "Autumn reading list"

FLOW: list[dict[str, Any]] = [
    {"click": "New post"},
    {"enter": FLOW_TITLE, "into": "Title"},
    {"enter": "Ten books for the long evenings", "into": "Summary"},
    {"choose": "Events", "in": "Category"},
    {"choose": "14 October 2026", "in": "Publish date"},
    {"choose": "yes", "in": "Featured post"},
    {"click": "Save draft"},
    {"click": "Back to posts"},
    {"read": "the posts", "as": "posts", "list": True},
]
"""The steps after opening ``/posts``: write a post, save it, and read the list back."""
