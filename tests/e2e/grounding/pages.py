"""The pages of the grounder's end-to-end site, by name, and how its server answers posts."""

from __future__ import annotations

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


def answer_post(site: _Held, name: str, form: dict[str, str]) -> str:
    """The page the server sends back for a post of ``form`` to ``/record/{name}``."""
    return _saved("your order was")
