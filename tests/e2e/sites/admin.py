"""A site administration in the style of Django's admin, that really deletes.

A users list, each user's change form with Save and a red "Delete" *link* to the
user's "Are you sure?" page, whose "Yes, I’m sure" button posts the deletion. The
server keeps who is still there (``state["users"]``) and what it deleted
(``state["deleted"]``). A notes page deletes the Rails way: each note's "Delete" is
a link with ``data-method="delete"`` that the page's script turns into a request.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .base import Site, document

USERS = {"3": "asha", "4": "ravi", "5": "mina"}
NOTES = {"7": "Welcome call", "8": "Invoice sent"}

CSS = """
header{display:flex;gap:16px;align-items:center;padding:10px 20px;background:#417690;color:#fff}
header a{color:#fff}
header .brand{flex:1;font-weight:bold}
main{padding:20px;max-width:760px}
table{border-collapse:collapse}
th,td{text-align:left;padding:6px 12px;border-bottom:1px solid #eee}
.row{margin:10px 0}
.row label{display:inline-block;width:140px}
.submit-row{margin-top:16px;padding:10px;background:#f8f8f8;display:flex;gap:10px;align-items:center}
.deletelink{background:#ba2121;color:#fff;padding:8px 12px;text-decoration:none;margin-left:auto}
.messagelist{background:#dfd;padding:8px 12px}
"""

HEADER = """<header><span class="brand">Site administration</span>
<span>Welcome, admin.</span> <a href="/admin/password_change/">Change password</a>
<a href="/admin/logout/">Log out</a></header>"""


def _page(title: str, body: str, script: str = "") -> str:
    return document(f"{title} | Site administration", HEADER + f"<main>{body}</main>", CSS, script)


def _users(site: Site) -> str:
    message = site.state.pop("message", "")
    note = f'<p class="messagelist" role="status">{escape(message)}</p>' if message else ""
    rows = "".join(
        f'<tr><td><a href="/admin/auth/user/{uid}/change/">{escape(name)}</a></td>'
        f"<td>{escape(name)}@example.com</td></tr>"
        for uid, name in site.state["users"].items()
    )
    return _page(
        "Select user to change",
        f"""{note}<h1>Select user to change</h1>
<table><thead><tr><th>Username</th><th>Email address</th></tr></thead>
<tbody>{rows}</tbody></table>""",
    )


def _change(uid: str) -> Any:
    def make(site: Site) -> str:
        name = site.state["users"].get(uid)
        if name is None:
            return _page("Not found", "<h1>User with this ID doesn’t exist.</h1>")
        return _page(
            "Change user",
            f"""<h1>Change user</h1><h2>{escape(name)}</h2>
<form method="post" action="/admin/auth/user/{uid}/change/">
 <div class="row"><label for="id_username">Username:</label>
  <input id="id_username" name="username" value="{escape(name, quote=True)}"></div>
 <div class="row"><label for="id_email">Email address:</label>
  <input id="id_email" name="email" value="{escape(name, quote=True)}@example.com"></div>
 <div class="submit-row">
  <input type="submit" value="Save" name="_save">
  <input type="submit" value="Save and continue editing" name="_continue">
  <a href="/admin/auth/user/{uid}/delete/" class="deletelink">Delete</a>
 </div>
</form>""",
        )

    return make


def _confirm(uid: str) -> Any:
    def make(site: Site) -> str:
        name = site.state["users"].get(uid)
        if name is None:
            return _page("Not found", "<h1>User with this ID doesn’t exist.</h1>")
        return _page(
            "Are you sure?",
            f"""<h1>Are you sure?</h1>
<p>Are you sure you want to delete the user “{escape(name)}”? All of the following related
items will be deleted:</p>
<h2>Summary</h2><ul><li>Users: 1</li><li>Log entries: 4</li></ul>
<form method="post" action="/admin/auth/user/{uid}/delete/">
 <input type="hidden" name="post" value="yes">
 <input type="submit" value="Yes, I’m sure">
 <a href="/admin/auth/user/{uid}/change/" class="button cancel-link">No, take me back</a>
</form>""",
        )

    return make


def _delete(uid: str) -> Any:
    def handle(site: Site, data: dict[str, Any]) -> str:
        name = site.state["users"].pop(uid, None)
        if name is not None and data.get("post") == "yes":
            site.state["deleted"].append(name)
            site.state["message"] = f"The user “{name}” was deleted successfully."
        return "/admin/auth/user/"

    return handle


def _saved(uid: str) -> Any:
    def handle(site: Site, data: dict[str, Any]) -> str:
        site.state["users"][uid] = data.get("username", site.state["users"][uid])
        site.state["message"] = "The user was changed successfully."
        return "/admin/auth/user/"

    return handle


NOTES_JS = """
document.querySelectorAll('a[data-method]').forEach((a) => a.addEventListener('click', (e) => {
  e.preventDefault();
  fetch(a.getAttribute('href'), {method: 'POST', headers: {'content-type': 'application/json'},
    body: JSON.stringify({_method: a.dataset.method})}).then(() => {
      a.closest('li').remove(); });
}));
"""


def _notes(site: Site) -> str:
    items = "".join(
        f'<li>{escape(title)} <a href="/notes/{nid}" data-method="delete" rel="nofollow">'
        "Delete</a></li>"
        for nid, title in site.state["notes"].items()
    )
    return _page("Notes", f"<h1>Notes</h1><ul>{items}</ul>", NOTES_JS)


def _note_deleted(nid: str) -> Any:
    def handle(site: Site, data: dict[str, Any]) -> None:
        if data.get("_method") == "delete":
            site.state["deleted"].append(site.state["notes"].pop(nid))

    return handle


def build() -> Site:
    """The admin: ``/admin/auth/user/`` lists the users; ``/notes`` the notes."""
    site = Site(state={"users": dict(USERS), "deleted": [], "notes": dict(NOTES)})
    site.page("/admin/auth/user/", _users)
    site.page("/notes", _notes)
    for uid in USERS:
        base = f"/admin/auth/user/{uid}"
        site.page(f"{base}/change/", _change(uid))
        site.page(f"{base}/delete/", _confirm(uid))
        site.on_post(f"{base}/delete/", _delete(uid))
        site.on_post(f"{base}/change/", _saved(uid))
    for nid in NOTES:
        site.on_post(f"/notes/{nid}", _note_deleted(nid))
    return site
