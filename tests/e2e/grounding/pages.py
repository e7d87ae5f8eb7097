"""The pages of the grounder's end-to-end site, by name, and how its server answers posts."""

from __future__ import annotations

import re
from html import escape
from pathlib import Path
from typing import Protocol

__all__ = ["PAGES", "answer_post"]


class _Held(Protocol):
    state: dict[str, str]


def _page(title: str, body: str, *, bootstrap: bool = False) -> str:
    head = (
        '<link rel="stylesheet" href="/vendor/bootstrap/bootstrap.min.css">'
        '<script src="/vendor/bootstrap/bootstrap.bundle.min.js"></script>'
        if bootstrap
        else ""
    )
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
        f"{head}</head><body><main><h1>{title}</h1>{body}</main></body></html>"
    )


def _saved(what: str) -> str:
    return _page("Saved", f"<p>Thank you, {escape(what)} saved.</p>")


PAGES: dict[str, str] = {}

# A market stall's quick-order form: nothing has a label of its own, so a person names
# each control by what it is ("the second text field", "the list", "the checkboxes").
PAGES["quick-order"] = _page(
    "Quick order",
    """
<div><button type="button" onclick="document.body.dataset.view='list'">List view</button>
<button type="button" onclick="document.body.dataset.view='grid'">Grid view</button></div>
<form method="post" action="/record/quick-order">
<p><input name="first"> <input name="last"></p>
<p><select name="size"><option>Small</option><option>Medium</option><option>Large</option>
</select> <select name="colour"><option>Red</option><option>Green</option><option>Blue</option>
</select></p>
<p><label><input type="checkbox" name="contact" value="email"> Email me</label>
<label><input type="checkbox" name="contact" value="sms"> Text me</label>
<label><input type="checkbox" name="contact" value="post"> Post me</label></p>
<p><label><input type="radio" name="speed" value="standard" checked> Standard</label>
<label><input type="radio" name="speed" value="express"> Express</label></p>
<input type="hidden" name="wrap" id="wrap" value="">
<ul role="listbox" tabindex="0" style="list-style:none;padding:0;width:12em;border:1px solid #888">
<li role="option" aria-selected="false" style="cursor:pointer">Gift wrap</li>
<li role="option" aria-selected="false" style="cursor:pointer">Plain box</li></ul>
<p><textarea name="note" rows="2"></textarea></p>
<button>Save</button>
</form>
<script>
for (const li of document.querySelectorAll('[role=option]')) li.addEventListener('click', () => {
  for (const o of document.querySelectorAll('[role=option]')) {
    o.setAttribute('aria-selected', 'false'); }
  li.setAttribute('aria-selected', 'true'); document.getElementById('wrap').value = li.textContent;
});
</script>""",
)


def _signup(form: dict[str, str], errors: dict[str, str]) -> str:
    """A sign-up form as a server renders it: with the values sent and its errors, if any.

    The username's error is an alert list above the field (no aria-invalid), the
    email's and the date's are linked to their fields with aria-describedby.
    """

    def value(key: str) -> str:
        return escape(form.get(key, ""), quote=True)

    def marked(key: str) -> str:
        return f' aria-invalid="true" aria-describedby="{key}-error"' if key in errors else ""

    def note(key: str) -> str:
        return (
            f'<div class="error" id="{key}-error" role="alert">{escape(errors[key])}</div>'
            if key in errors
            else ""
        )

    user_error = (
        f'<ul class="errorlist"><li>{escape(errors["user"])}</li></ul>' if "user" in errors else ""
    )
    summary = '<p role="alert">Please correct the errors below.</p>' if errors else ""
    return _page(
        "Create your account",
        f"""{summary}
<form method="post" action="/record/signup">
<p><label for="user">Username</label>{user_error}<br>
<input id="user" name="user" value="{value("user")}"></p>
<p><label for="email">Email</label><br>
<input id="email" name="email" value="{value("email")}"{marked("email")}>{note("email")}</p>
<p><label for="born">Date of birth</label><br>
<input id="born" name="born" placeholder="DD/MM/YYYY" value="{value("born")}"{marked("born")}>
{note("born")}</p>
<button>Create account</button>
</form>""",
    )


PAGES["signup"] = _signup({}, {})

# A select the page puts back when the option is not to be had.
PAGES["plan"] = _page(
    "Choose a plan",
    """
<p><label for="plan">Plan</label> <select id="plan" name="plan"><option>Free</option>
<option>Pro</option><option>Team</option></select></p>
<p id="note"></p>
<script>
document.getElementById("plan").addEventListener("change", (e) => {
  if (e.target.value === "Team") { e.target.value = "Free";
    document.getElementById("note").textContent = "Team plans are sold out."; } });
</script>""",
)

# Bootstrap 5's own client-side validation: the form is not sent while a field is wrong.
PAGES["bootstrap-signup"] = _page(
    "Join the club",
    """
<form class="needs-validation" novalidate method="post" action="/record/bootstrap-signup" id="f">
 <div class="mb-3"><label for="email" class="form-label">Email</label>
  <input type="email" class="form-control" id="email" name="email" required>
  <div class="invalid-feedback">Please enter a valid email address.</div></div>
 <div class="mb-3"><label for="user" class="form-label">Username</label>
  <input class="form-control" id="user" name="user" required minlength="3">
  <div class="invalid-feedback">Please choose a username of 3 letters or more.</div></div>
 <button class="btn btn-primary" type="submit">Join</button>
</form>
<script>
document.getElementById("f").addEventListener("submit", (e) => {
  const f = e.target;
  if (!f.checkValidity()) { e.preventDefault(); e.stopPropagation(); }
  f.classList.add("was-validated"); });
</script>""",
    bootstrap=True,
)


def _signup_errors(form: dict[str, str]) -> dict[str, str]:
    errors: dict[str, str] = {}
    if not form.get("user", "").strip():
        errors["user"] = "This field is required."
    if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", form.get("email", "")):
        errors["email"] = "Enter a valid email address."
    if not re.fullmatch(r"\d{2}/\d{2}/\d{4}", form.get("born", "")):
        errors["born"] = "Enter a valid date."
    return errors


def _invoices(site: _Held) -> str:
    """An admin list of invoices: each row's actions in a closed "⋯" menu, bulk actions in
    a "More actions" menu, and filters in a collapsed section. The menus are toggled by
    the page's own script (Escape closes them); an action posts to the server."""
    rows = "".join(
        f"""<tr><td>{no}</td><td>{who}</td><td>{status}</td><td>{amount}</td><td>
<div class="menu"><button type="button" class="kebab" aria-haspopup="menu"
 aria-expanded="false" aria-label="Actions for invoice {no}">⋯</button>
<ul role="menu" hidden>{
            "".join(
                f'<li><button role="menuitem" name="act" value="{act}-{no}" form="acts">'
                f"{label}</button></li>"
                for act, label in items
            )
        }</ul></div></td></tr>"""
        for no, who, status, amount, items in (
            (
                41,
                "Asha Rao",
                site.state.get("status-41", "Archived"),
                "$120.00",
                (("pdf", "Download PDF"),),
            ),
            (
                42,
                "Ben Ortiz",
                site.state.get("status-42", "Overdue"),
                "$75.50",
                (
                    ("pdf", "Download PDF"),
                    ("remind", "Send reminder"),
                    ("delete", "Delete invoice"),
                ),
            ),
            (
                43,
                "Chen Li",
                site.state.get("status-43", "Paid"),
                "$310.00",
                (("pdf", "Download PDF"), ("delete", "Delete invoice")),
            ),
        )
    )
    return _page(
        "Invoices",
        f"""
<style>.menu{{position:relative;display:inline-block}}
.menu ul{{position:absolute;right:0;top:100%;background:#fff;border:1px solid #999;
list-style:none;margin:0;padding:4px;z-index:5}} td,th{{padding:4px 10px}}</style>
<form id="acts" method="post" action="/record/invoices"></form>
<div class="menu"><button type="button" aria-haspopup="menu" aria-expanded="false">More actions
</button><ul role="menu" hidden><li><button role="menuitem" name="act" value="export"
 form="acts">Export CSV</button></li></ul></div>
<table><thead><tr><th>Invoice</th><th>Customer</th><th>Status</th><th>Amount</th>
<th>Actions</th></tr></thead><tbody>{rows}</tbody></table>
<p><button type="button" id="ft" aria-expanded="false" aria-controls="filters">Filters</button></p>
<div id="filters" hidden><button name="act" value="overdue" form="acts">Show overdue only</button>
</div>
<script>
const closeAll = () => document.querySelectorAll('[aria-haspopup=menu]').forEach((b) => {{
  b.setAttribute('aria-expanded', 'false'); b.nextElementSibling.hidden = true; }});
document.querySelectorAll('[aria-haspopup=menu]').forEach((b) => b.addEventListener('click',
  (e) => {{ const open = b.getAttribute('aria-expanded') === 'true'; closeAll();
    if (!open) {{ b.setAttribute('aria-expanded', 'true'); b.nextElementSibling.hidden = false; }}
    e.stopPropagation(); }}));
document.addEventListener('keydown', (e) => {{ if (e.key === 'Escape') closeAll(); }});
document.getElementById('ft').addEventListener('click', (e) => {{
  const f = document.getElementById('filters'); f.hidden = !f.hidden;
  e.target.setAttribute('aria-expanded', String(!f.hidden)); }});
</script>""",
    )


def page(site: _Held, name: str) -> str | None:
    """The page ``name`` as the server renders it now, or None when there is none."""
    if name == "invoices":
        return _invoices(site)
    return PAGES.get(name)


PAGES["invoices"] = ""  # rendered from the server's state by page()

# Bootstrap 5's own dropdown, split button and collapse (the vendored corpus).
PAGES["bootstrap-team"] = _page(
    "Team settings",
    """
<div class="container">
<p id="state">No changes</p>
<div class="dropdown d-inline-block">
 <button class="btn btn-secondary dropdown-toggle" type="button" data-bs-toggle="dropdown"
  aria-expanded="false">More actions</button>
 <ul class="dropdown-menu"><li><a class="dropdown-item" href="#" data-do="Team archived">
  Archive team</a></li><li><a class="dropdown-item" href="#" data-do="Team deleted">
  Delete team</a></li></ul></div>
<div class="btn-group">
 <button type="button" class="btn btn-primary" data-do="Members exported as CSV">Export</button>
 <button type="button" class="btn btn-primary dropdown-toggle dropdown-toggle-split"
  data-bs-toggle="dropdown" aria-expanded="false"><span class="visually-hidden">Toggle Dropdown
  </span></button>
 <ul class="dropdown-menu"><li><a class="dropdown-item" href="#"
  data-do="Members exported as PDF">Export as PDF</a></li></ul></div>
<p><button class="btn btn-link" type="button" data-bs-toggle="collapse" data-bs-target="#adv"
  aria-expanded="false" aria-controls="adv">Advanced options</button></p>
<div class="collapse" id="adv"><button type="button" class="btn btn-warning"
  data-do="Quota reset">Reset storage quota</button></div>
</div>
<script>
document.querySelectorAll("[data-do]").forEach((el) => el.addEventListener("click", (e) => {
  e.preventDefault(); document.getElementById("state").textContent = el.dataset.do; }));
</script>""",
    bootstrap=True,
)


# Pages of the first-contact classes (issue 28), shared with the unit tests' captured
# screens (tests/unit/screens/html/fc_*.html).
for _path in sorted((Path(__file__).parents[2] / "unit" / "screens" / "html").glob("fc_*.html")):
    PAGES[_path.stem] = _path.read_text()

_ALERT = '<div role="alert" class="alert">Please choose a room type before booking.</div>'


def answer_post(site: _Held, name: str, form: dict[str, str]) -> str:
    """The page the server sends back for a post of ``form`` to ``/record/{name}``."""
    if name == "fc_booking" and not form.get("room"):
        return PAGES[name].replace('<div id="main">', '<div id="main">' + _ALERT, 1)
    if name == "signup":
        errors = _signup_errors(form)
        if errors:
            return _signup(form, errors)
        site.state["account"] = form["user"]
        return _saved(f"the account {form['user']} was")
    if name == "invoices":
        act = form.get("act", "")
        if act.startswith("delete-"):
            site.state[f"status-{act[7:]}"] = "Deleted"
        return _invoices(site)
    if name == "bootstrap-signup":
        site.state["member"] = form["user"]
        return _saved(f"the member {form['user']} was")
    return _saved("your order was")
