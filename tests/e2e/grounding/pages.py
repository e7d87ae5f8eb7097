"""The pages of the grounder's end-to-end site, by name, and how its server answers posts."""

from __future__ import annotations

import re
from html import escape
from typing import Protocol

__all__ = ["PAGES", "answer_post"]


class _Held(Protocol):
    state: dict[str, str]


def _page(title: str, body: str, *, bootstrap: bool = False) -> str:
    head = ('<link rel="stylesheet" href="/vendor/bootstrap/bootstrap.min.css">'
            '<script src="/vendor/bootstrap/bootstrap.bundle.min.js"></script>'
            if bootstrap else "")
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
            f"{head}</head><body><main><h1>{title}</h1>{body}</main></body></html>")


def _saved(what: str) -> str:
    return _page("Saved", f"<p>Thank you, {escape(what)} saved.</p>")


PAGES: dict[str, str] = {}

# A market stall's quick-order form: nothing has a label of its own, so a person names
# each control by what it is ("the second text field", "the list", "the checkboxes").
PAGES["quick-order"] = _page("Quick order", """
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
</script>""")


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
        return (f'<div class="error" id="{key}-error" role="alert">{escape(errors[key])}</div>'
                if key in errors else "")

    user_error = (f'<ul class="errorlist"><li>{escape(errors["user"])}</li></ul>'
                  if "user" in errors else "")
    summary = ('<p role="alert">Please correct the errors below.</p>' if errors else "")
    return _page("Create your account", f"""{summary}
<form method="post" action="/record/signup">
<p><label for="user">Username</label>{user_error}<br>
<input id="user" name="user" value="{value('user')}"></p>
<p><label for="email">Email</label><br>
<input id="email" name="email" value="{value('email')}"{marked('email')}>{note('email')}</p>
<p><label for="born">Date of birth</label><br>
<input id="born" name="born" placeholder="DD/MM/YYYY" value="{value('born')}"{marked('born')}>
{note('born')}</p>
<button>Create account</button>
</form>""")


PAGES["signup"] = _signup({}, {})

# A select the page puts back when the option is not to be had.
PAGES["plan"] = _page("Choose a plan", """
<p><label for="plan">Plan</label> <select id="plan" name="plan"><option>Free</option>
<option>Pro</option><option>Team</option></select></p>
<p id="note"></p>
<script>
document.getElementById("plan").addEventListener("change", (e) => {
  if (e.target.value === "Team") { e.target.value = "Free";
    document.getElementById("note").textContent = "Team plans are sold out."; } });
</script>""")

# Bootstrap 5's own client-side validation: the form is not sent while a field is wrong.
PAGES["bootstrap-signup"] = _page("Join the club", """
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
</script>""", bootstrap=True)


def _signup_errors(form: dict[str, str]) -> dict[str, str]:
    errors: dict[str, str] = {}
    if not form.get("user", "").strip():
        errors["user"] = "This field is required."
    if not re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", form.get("email", "")):
        errors["email"] = "Enter a valid email address."
    if not re.fullmatch(r"\d{2}/\d{2}/\d{4}", form.get("born", "")):
        errors["born"] = "Enter a valid date."
    return errors


def answer_post(site: _Held, name: str, form: dict[str, str]) -> str:
    """The page the server sends back for a post of ``form`` to ``/record/{name}``."""
    if name == "signup":
        errors = _signup_errors(form)
        if errors:
            return _signup(form, errors)
        site.state["account"] = form["user"]
        return _saved(f"the account {form['user']} was")
    if name == "bootstrap-signup":
        site.state["member"] = form["user"]
        return _saved(f"the member {form['user']} was")
    return _saved("your order was")
