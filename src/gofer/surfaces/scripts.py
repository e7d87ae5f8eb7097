"""The page-side snippets the browser surface evaluates, next to the page helper.

Each is a JavaScript function in a string, handed to Playwright's ``evaluate``;
those that call ``window.__gofer`` rely on ``js/page_init.js`` being installed.
"""

from __future__ import annotations

import json
import secrets

__all__ = [
    "BRIDGE",
    "CHANGE",
    "CHANGED",
    "CHANGE_OF_REF",
    "COUNTERS",
    "COVERED",
    "FIELDS",
    "FIELD_KIND",
    "FIND_OPTION",
    "FOCUS",
    "FRAME_BOX",
    "GONE",
    "PROXY",
    "PROXY_REF",
    "READ_VALUE",
    "READ_VALUES_OF_REFS",
    "READ_VALUE_OF_REF",
    "REF_ENGINE",
    "REF_SELECTOR",
    "RESOLVE",
    "RESOLVES",
    "SELECTION",
    "SELECTION_OF_REF",
    "SETTLE",
    "SNAPSHOT",
    "SOCKETS_QUIET",
    "begun_ref",
    "by_ref",
    "counters_acting",
    "find_option",
]

BRIDGE = f"gofer-{secrets.token_hex(8)}"
"""The name, this process's own, of the events that hand an element from the page helper
to Playwright's isolated world (see ``js/page_init.js``)."""
GONE = "is no longer on the page"
"""What the ref selector's error says when the element is gone."""
REF_SELECTOR = "gofer-ref"
"""The selector engine that finds a ref's element: ``gofer-ref=e12`` (see :data:`REF_ENGINE`)."""
REF_ENGINE = f"""(() => {{
  let asking = false;
  let found = null;
  addEventListener({json.dumps(BRIDGE + "!")}, (e) => {{
    if (!asking) return;
    found = e.composedPath()[0];
    e.stopPropagation();
  }}, true);
  return {{
    queryAll(root, ref) {{
      asking = true;
      try {{
        dispatchEvent(new CustomEvent({json.dumps(BRIDGE + "?")}, {{ detail: ref }}));
      }} finally {{
        asking = false;
      }}
      const el = found;
      found = null;
      if (!el) throw new Error(`element ${{ref}} {GONE}`);
      return [el];
    }},
  }};
}})()"""
"""A selector engine run in Playwright's isolated world: the element of a ref, asked of the
page helper, which answers at once (events are dispatched synchronously). A ref whose
element is gone throws, so an action fails rather than waiting for it to come back."""

COUNTERS = """([r, begin]) => window.__gofer
  ? window.__gofer.counters(r ? window.__gofer.resolve(r) : null, begin) : null"""
SNAPSHOT = """(a) => window.__gofer && window.__gofer.snapshot
  ? window.__gofer.snapshot(a) : '{"missing": true}'"""
RESOLVE = "(r) => window.__gofer ? window.__gofer.resolve(r) : null"
RESOLVES = "(r) => !!(window.__gofer && window.__gofer.resolve(r))"
SOCKETS_QUIET = """([quiet, t]) => window.__gofer
  ? window.__gofer.socketsQuiet(quiet, t) : true"""
CHANGED = """([t, since]) => window.__gofer
  ? window.__gofer.changed(t, since) : new Promise(() => {})"""
COVERED = """([frameEl, points]) => points.map(([x, y]) => {
  if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
  let hit = document.elementFromPoint(x, y);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit !== frameEl;
})"""
FRAME_BOX = """(e) => {
  const r = e.getBoundingClientRect();
  if (!r.width || !r.height) return null;
  const s = getComputedStyle(e);
  if (s.display === "none" || s.visibility !== "visible") return null;
  return [r.left + e.clientLeft + parseFloat(s.paddingLeft || "0"),
          r.top + e.clientTop + parseFloat(s.paddingTop || "0")];
}"""
READ_VALUE = """(el) => {
  if (el instanceof HTMLSelectElement) {
    return Array.from(el.selectedOptions).map(o => o.text.trim()).join(", ");
  }
  const input = el instanceof HTMLInputElement;
  if (input && (el.type === "checkbox" || el.type === "radio")) {
    const stated = el.getAttribute("aria-checked");
    return stated === "true" || stated === "false" ? stated : String(el.checked);
  }
  if (input || el instanceof HTMLTextAreaElement) return el.value;
  if (el.isContentEditable) return el.innerText.trim();
  const text = el.getAttribute("aria-valuetext");
  if (text) return text.trim();
  const now = el.getAttribute("aria-valuenow");
  if (now !== null) {
    // a value outside the control's own range is a percent of it (a slider that
    // reports where its handle stands): read as the number it stands for
    const [n, lo, hi] = ["aria-valuenow", "aria-valuemin", "aria-valuemax"]
      .map((a) => parseFloat(el.getAttribute(a)));
    if (hi > lo && (n < lo || n > hi) && n >= 0 && n <= 100) {
      return String(Number((lo + (n * (hi - lo)) / 100).toFixed(6)));
    }
    return now.trim();
  }
  return (el.textContent || "").trim();
}"""
FIELD_KIND = """(el) => {
  const role = (el.getAttribute("role") || "").toLowerCase();
  const combo = role === "combobox" || el.hasAttribute("aria-autocomplete")
    || el.hasAttribute("list") || el.getAttribute("aria-haspopup") === "listbox";
  const native = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement;
  return { combo, native };
}"""
PROXY_REF = "proxy"
"""The ref under which :data:`PROXY` leaves what a person clicks for a hidden input."""
PROXY = "(el) => window.__gofer.proxy(el)"
"""Whether a click on the element goes to what a person clicks for it instead, left under
the ref :data:`PROXY_REF` (see ``proxy`` in ``js/page_init.js``)."""
FIND_OPTION = """(el, label) => {
  const norm = (s) => (s || "").replace(/\\s+/g, " ").trim();
  const opts = Array.from(el.options || []);
  let i = opts.findIndex((o) => norm(o.text) === norm(label));
  if (i < 0) i = opts.findIndex((o) => norm(o.text).toLowerCase() === norm(label).toLowerCase());
  return { index: i, options: opts.map((o) => norm(o.text)) };
}"""
SELECTION = """(el) => el instanceof HTMLSelectElement ? {
  multiple: el.multiple,
  selected: Array.from(el.options).flatMap((o, i) => o.selected ? [i] : []),
} : null"""
CHANGE = "(el) => el.dispatchEvent(new Event('change', { bubbles: true }))"
FOCUS = """(el) => {
  const STOP = 'input, select, textarea, button, [tabindex]:not([tabindex="-1"])';
  const box = (e) => e.getBoundingClientRect();
  const drawn = (e) => box(e).width > 0 && box(e).height > 0 &&
    getComputedStyle(e).visibility !== "hidden";
  if (el.readOnly && (el.tabIndex < 0 || box(el).width <= 4 || box(el).height <= 4)) {
    // a value holder drawn by a widget beside it (a slider's hidden input): the keys go
    // to the widget's own tab stop, in the nearest box that holds no other field
    let up = el.parentElement;
    for (let n = 0; up && n < 3; n++, up = up.parentElement) {
      const fields = Array.from(up.querySelectorAll("input, select, textarea"));
      if (fields.some((f) => f !== el && f.type !== "hidden")) break;
      const stop = Array.from(up.querySelectorAll(STOP)).find((s) => s !== el && drawn(s));
      if (stop) {
        if (stop.getRootNode().activeElement === stop) stop.blur();  // focused anew
        stop.focus();
        return;
      }
    }
  }
  el.focus();
  const active = el.getRootNode().activeElement;
  if (active === el || el.contains(active)) return;
  const inner = el.querySelector(STOP);
  if (inner) inner.focus();
}"""


SETTLE = f"""([q, g, m, t, r, w, s, c]) => {{
  if (!window.__gofer) return null;
  const changed = c ? window.__gofer.resolve(c) : null;
  if (changed) ({CHANGE})(changed);
  const el = r ? window.__gofer.resolve(r) : null;
  let before;
  if (m !== null && typeof m === "object") {{
    before = window.__gofer.begun(m.n);
    m = before ? before.mut : null;
  }}
  return window.__gofer.settle(q, g, m, t, el, w).then((res) => {{
    if (res && res.counters && before !== undefined) res.counters.before = before;
    if (res && res.counters && el && el.isConnected &&
        (el.matches("input, textarea, select") || el.isContentEditable)) {{
      res.counters.value = ({READ_VALUE})(el);
    }}
    if (s && res && res.counters && !res.leaving && window.__gofer.snapshot) {{
      res.snapshot = window.__gofer.snapshot(s);
    }}
    return res;
  }});
}}"""
"""Settle the page after an action on the ref ``r``; the counters carry the field's value,
and with snapshot arguments ``s`` the result carries the frame's snapshot as it settled.
The field of the ref ``c`` (a fill's) first gets its ``change`` event. ``m``, the mutation
count before the action, may be ``{n}``: the action begun as the ``n``-th by the ref
selector (:func:`begun_ref`), whose counters before it the counters then carry."""


def begun_ref(n: int, ref: str, *, click: bool = False) -> str:
    """The selector of ``ref``'s element as the target of the surface's ``n``-th action:
    the page helper begins the action as Playwright first finds it (the counters before
    it kept for the settle after, as :func:`counters_acting` reads them) and answers the
    same element from then on; with ``click``, what a person clicks for it (:data:`PROXY`)."""
    return f"{REF_SELECTOR}=^{n}:{'click' if click else ''}:{ref}"


def by_ref(fn: str) -> str:
    """A JS function of an element turned into one of the element's ref."""
    return (
        f"(r) => {{ const el = window.__gofer && window.__gofer.resolve(r); "
        f"return el ? ({fn})(el) : null; }}"
    )


def find_option(label: str) -> str:
    """A JS function of a select: the index of its option ``label`` (as
    :data:`FIND_OPTION`) and the indexes chosen now."""
    return (
        f"(el) => Object.assign(({FIND_OPTION})(el, {json.dumps(label)}), "
        f"{{ selected: (({SELECTION})(el) || {{ selected: [] }}).selected }})"
    )


def counters_acting(probe: str | None) -> str:
    """:data:`COUNTERS` for the frame of an element about to be acted on, given its ref:
    with ``found``, whether the ref's element is there, and ``probed``, what ``probe``
    (a JS function of the element, or None) answers for it; one round trip for all."""
    return f"""([r, begin]) => {{
  const g = window.__gofer;
  if (!g) return null;
  const el = g.resolve(r);
  return Object.assign(g.counters(el, begin),
    {{ found: !!el, probed: el ? ({probe or "() => null"})(el) : null }});
}}"""


CHANGE_OF_REF = by_ref(CHANGE)
READ_VALUE_OF_REF = by_ref(READ_VALUE)
READ_VALUES_OF_REFS = f"""(refs) => refs.map((r) => {{
  const el = window.__gofer && window.__gofer.resolve(r);
  return el ? ({READ_VALUE})(el) : null;
}})"""
SELECTION_OF_REF = by_ref(SELECTION)

FIELDS = (
    "input:not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button])"
    ":not([type=reset]):not([type=hidden]):not([type=image]), textarea, [contenteditable]"
)
"""A selector of every field a person types text into (painted over in screenshots)."""
