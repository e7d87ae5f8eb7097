"""A SaaS admin dashboard in the style of Tailwind/MUI admin templates.

A sign-in form, a sidebar of links, a customers table whose rows end in icon
buttons named only by aria-label ("Edit", "Delete"), a tab list switching panels,
an edit dialog with its own Save and Cancel, and a toast after saving.
"""

from __future__ import annotations

import json
from typing import Any

from .base import Site, document

CUSTOMERS = [
    {"Name": "Ada Lovelace", "Email": "ada@example.com", "Plan": "Pro", "Status": "Active"},
    {"Name": "Grace Hopper", "Email": "grace@example.com", "Plan": "Starter", "Status": "Active"},
    {"Name": "Alan Turing", "Email": "alan@example.com", "Plan": "Pro", "Status": "Active"},
]
ARCHIVED = [
    {
        "Name": "Charles Babbage",
        "Email": "charles@example.com",
        "Plan": "Starter",
        "Status": "Archived",
    }
]

CSS = """
.layout{display:flex;min-height:100vh}
.sidebar{width:220px;background:#111827;color:#e5e7eb;padding:16px}
.sidebar a{display:block;color:#e5e7eb;padding:8px;text-decoration:none;border-radius:6px}
.sidebar a[aria-current=page]{background:#374151}
.content{flex:1;padding:24px}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:10px;border-bottom:1px solid #e5e7eb}
.icon-btn{background:none;border:0;padding:6px;cursor:pointer;border-radius:6px}
.icon-btn svg{width:18px;height:18px;display:block}
[role=tablist]{display:flex;gap:4px;border-bottom:1px solid #e5e7eb;margin:16px 0}
[role=tab]{background:none;border:0;padding:8px 14px;cursor:pointer}
[role=tab][aria-selected=true]{border-bottom:2px solid #4f46e5;color:#4f46e5}
.backdrop{position:fixed;inset:0;background:rgba(17,24,39,.5);display:flex;
  align-items:center;justify-content:center}
.backdrop[hidden]{display:none}
.modal{background:#fff;border-radius:8px;padding:24px;width:420px}
.modal label{display:block;font-size:14px;margin-top:12px}
.modal input,.modal select{width:100%;padding:8px;box-sizing:border-box}
.toast{position:fixed;bottom:24px;right:24px;background:#065f46;color:#fff;padding:12px 16px;
  border-radius:6px}
.btn{padding:8px 14px;border-radius:6px;border:1px solid #d1d5db;background:#fff;cursor:pointer}
.btn-primary{background:#4f46e5;color:#fff;border-color:#4f46e5}
"""

PENCIL = (
    '<svg viewBox="0 0 20 20" aria-hidden="true" fill="currentColor">'
    '<path d="M13.6 3.6l2.8 2.8-9 9H4.6v-2.8z"/></svg>'
)
TRASH = (
    '<svg viewBox="0 0 20 20" aria-hidden="true" fill="currentColor">'
    '<path d="M6 6h8l-1 11H7zM8 3h4v2H8z"/></svg>'
)

APP_JS = """
const data = %DATA%;
const tables = {active: data.active, archived: data.archived};
function row(c, i, kind) {
  const actions = kind === 'active' ? `<td class="actions">
      <button class="icon-btn edit" aria-label="Edit" data-i="${i}">%PENCIL%</button>
      <button class="icon-btn delete" aria-label="Delete" data-i="${i}">%TRASH%</button></td>`
    : '<td></td>';
  return `<tr><td>${c.Name}</td><td>${c.Email}</td><td>${c.Plan}</td>
    <td><span class="badge">${c.Status}</span></td>${actions}</tr>`;
}
function render(kind) {
  const body = document.querySelector(`#panel-${kind} tbody`);
  body.innerHTML = tables[kind].map((c, i) => row(c, i, kind)).join('');
}
render('active'); render('archived');
document.querySelectorAll('[role=tab]').forEach((tab) => tab.addEventListener('click', () => {
  document.querySelectorAll('[role=tab]').forEach((t) => {
    const on = t === tab;
    t.setAttribute('aria-selected', on); t.tabIndex = on ? 0 : -1;
    document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
  });
}));
let editing = null;
const modal = document.getElementById('edit-modal');
document.getElementById('panel-active').addEventListener('click', (ev) => {
  const btn = ev.target.closest('button'); if (!btn) return;
  const c = tables.active[Number(btn.dataset.i)];
  if (btn.classList.contains('edit')) {
    editing = c;
    document.getElementById('edit-name').value = c.Name;
    document.getElementById('edit-plan').value = c.Plan;
    document.getElementById('modal-title').textContent = 'Edit ' + c.Name;
    modal.hidden = false; document.getElementById('edit-name').focus();
  } else if (btn.classList.contains('delete')) {
    if (confirm('Delete ' + c.Name + '?')) {
      tables.active.splice(tables.active.indexOf(c), 1); render('active');
    }
  }
});
document.getElementById('cancel').addEventListener('click', () => { modal.hidden = true; });
document.getElementById('edit-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const body = {email: editing.Email, name: document.getElementById('edit-name').value,
                plan: document.getElementById('edit-plan').value};
  fetch('/api/customers', {method: 'POST', headers: {'content-type': 'application/json'},
                           body: JSON.stringify(body)}).then(() => {
    editing.Name = body.name; editing.Plan = body.plan; render('active');
    modal.hidden = true;
    const toast = document.getElementById('toast');
    toast.textContent = 'Changes saved for ' + body.name; toast.hidden = false;
    setTimeout(() => { toast.hidden = true; }, 4000);
  });
});
"""


def _login_page(site: Site) -> str:
    failed = site.state.get("login_failed")
    err = '<p role="alert" class="error">Invalid email or password</p>' if failed else ""
    body = f"""
<main style="max-width:360px;margin:80px auto">
<h1>Sign in to Acme Admin</h1>{err}
<form method="post" action="/login">
  <label for="email">Email address</label>
  <input id="email" name="email" type="email" autocomplete="username" required>
  <div style="display:flex;justify-content:space-between">
    <label for="password">Password</label><a href="/forgot">Forgot password?</a></div>
  <input id="password" name="password" type="password" autocomplete="current-password"
    required>
  <label><input type="checkbox" name="remember"> Remember me</label>
  <button class="btn btn-primary" type="submit">Sign in</button>
</form>
<p>Don't have an account? <a href="/signup">Sign up</a></p></main>"""
    return document("Sign in – Acme Admin", body, CSS)


def _app_page(site: Site) -> str:
    if not site.state.get("signed_in"):
        return _login_page(site)
    heads = "".join(f'<th scope="col">{h}</th>' for h in ("Name", "Email", "Plan", "Status"))
    table = (
        f'<table><thead><tr>{heads}<th scope="col"><span class="sr-only" '
        'style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">'
        "Actions</span></th></tr></thead><tbody></tbody></table>"
    )
    body = f"""
<div class="layout">
<nav class="sidebar" aria-label="Main">
  <div class="brand">Acme Admin</div>
  <a href="/app">Dashboard</a>
  <a href="/app/customers" aria-current="page">Customers</a>
  <a href="/app/invoices">Invoices</a>
  <a href="/app/settings">Settings</a>
</nav>
<main class="content">
  <h1>Customers</h1>
  <div role="tablist" aria-label="Customer status">
    <button role="tab" id="tab-active" aria-selected="true" aria-controls="panel-active">
      Active</button>
    <button role="tab" id="tab-archived" aria-selected="false" aria-controls="panel-archived"
      tabindex="-1">Archived</button>
  </div>
  <section id="panel-active" role="tabpanel" aria-labelledby="tab-active">{table}</section>
  <section id="panel-archived" role="tabpanel" aria-labelledby="tab-archived" hidden>
    {table}</section>
</main></div>
<div id="edit-modal" class="backdrop" hidden>
  <div class="modal" role="dialog" aria-modal="true" aria-labelledby="modal-title">
    <h2 id="modal-title">Edit customer</h2>
    <form id="edit-form">
      <label for="edit-name">Full name</label><input id="edit-name">
      <label for="edit-plan">Plan</label>
      <select id="edit-plan"><option>Starter</option><option>Pro</option>
        <option>Enterprise</option></select>
      <div style="display:flex;gap:8px;justify-content:flex-end;margin-top:16px">
        <button type="button" class="btn" id="cancel">Cancel</button>
        <button type="submit" class="btn btn-primary">Save</button></div>
    </form></div></div>
<div id="toast" class="toast" role="status" hidden></div>"""
    data = json.dumps({"active": site.state["customers"], "archived": ARCHIVED})
    script = APP_JS.replace("%DATA%", data).replace("%PENCIL%", PENCIL).replace("%TRASH%", TRASH)
    return document("Customers – Acme Admin", body, CSS, script)


def _home_page(site: Site) -> str:
    if not site.state.get("signed_in"):
        return _login_page(site)
    body = """<div class="layout"><nav class="sidebar" aria-label="Main">
  <div class="brand">Acme Admin</div>
  <a href="/app" aria-current="page">Dashboard</a><a href="/app/customers">Customers</a>
  <a href="/app/invoices">Invoices</a><a href="/app/settings">Settings</a></nav>
<main class="content"><h1>Dashboard</h1><p>Welcome back.</p>
<div class="stats"><div><h2>Revenue</h2><p>$12,400</p></div>
<div><h2>Customers</h2><p>3 active</p></div></div></main></div>"""
    return document("Dashboard – Acme Admin", body, CSS)


def _login(site: Site, data: dict[str, Any]) -> str:
    ok = data.get("email") == "admin@acme.test" and data.get("password") == "hunter2!"
    site.state["signed_in"] = ok
    site.state["login_failed"] = not ok
    return "/app" if ok else "/login"


def build() -> Site:
    """The admin: ``/login``, ``/app`` (dashboard), ``/app/customers``."""
    site = Site()
    site.state["customers"] = [dict(c) for c in CUSTOMERS]
    site.page("/login", _login_page)
    site.page("/app", _home_page)
    site.page("/app/customers", _app_page)
    site.on_post("/login", _login)
    return site
