"""The page-side snippets the browser surface evaluates, next to the page helper.

Each is a JavaScript function in a string, handed to Playwright's ``evaluate``;
those that call ``window.__gofer`` rely on ``js/page_init.js`` being installed.
"""

from __future__ import annotations

import json

__all__ = [
    "CHANGE",
    "CHANGED",
    "COUNTERS",
    "COVERED",
    "FIELDS",
    "FIELD_KIND",
    "FIELD_KIND_OF_REF",
    "FIND_OPTION",
    "FRAME_BOX",
    "READ_VALUE",
    "READ_VALUE_OF_REF",
    "RESOLVE",
    "SELECTION",
    "SELECTION_OF_REF",
    "SETTLE",
    "SNAPSHOT",
    "by_ref",
    "find_option_of_ref",
]

COUNTERS = """([r, begin]) => window.__gofer
  ? window.__gofer.counters(r ? window.__gofer.resolve(r) : null, begin) : null"""
SNAPSHOT = """(a) => window.__gofer && window.__gofer.snapshot
  ? window.__gofer.snapshot(a) : '{"missing": true}'"""
RESOLVE = "(r) => window.__gofer ? window.__gofer.resolve(r) : null"
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
  if (input && (el.type === "checkbox" || el.type === "radio")) return String(el.checked);
  if (input || el instanceof HTMLTextAreaElement) return el.value;
  if (el.isContentEditable) return el.innerText.trim();
  const aria = el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow");
  return (aria || el.textContent || "").trim();
}"""
FIELD_KIND = """(el) => {
  const role = (el.getAttribute("role") || "").toLowerCase();
  const combo = role === "combobox" || el.hasAttribute("aria-autocomplete")
    || el.hasAttribute("list") || el.getAttribute("aria-haspopup") === "listbox";
  const native = el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement;
  return { combo, native };
}"""
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


SETTLE = f"""([q, g, m, t, r, w]) => {{
  if (!window.__gofer) return null;
  const el = r ? window.__gofer.resolve(r) : null;
  return window.__gofer.settle(q, g, m, t, el, w).then((res) => {{
    if (res && res.counters && el && el.isConnected &&
        (el.matches("input, textarea, select") || el.isContentEditable)) {{
      res.counters.value = ({READ_VALUE})(el);
    }}
    return res;
  }});
}}"""
"""Settle the page after an action on the ref ``r``; the counters carry the field's value."""


def by_ref(fn: str) -> str:
    """A JS function of an element turned into one of the element's ref."""
    return (
        f"(r) => {{ const el = window.__gofer && window.__gofer.resolve(r); "
        f"return el ? ({fn})(el) : null; }}"
    )


def find_option_of_ref(label: str) -> str:
    """A JS function of a select's ref: the index of its option ``label`` (as
    :data:`FIND_OPTION`) and the indexes chosen now."""
    return by_ref(
        f"(el) => Object.assign(({FIND_OPTION})(el, {json.dumps(label)}), "
        f"{{ selected: (({SELECTION})(el) || {{ selected: [] }}).selected }})"
    )


FIELD_KIND_OF_REF = by_ref(FIELD_KIND)
READ_VALUE_OF_REF = by_ref(READ_VALUE)
SELECTION_OF_REF = by_ref(SELECTION)

FIELDS = (
    "input:not([type=checkbox]):not([type=radio]):not([type=submit]):not([type=button])"
    ":not([type=reset]):not([type=hidden]):not([type=image]), textarea, [contenteditable]"
)
"""A selector of every field a person types text into (painted over in screenshots)."""
