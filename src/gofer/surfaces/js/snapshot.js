// gofer's screen reader: one call per frame returns the frame's visible text lines,
// its interactive elements and its repeated records. Refs of elements are kept in
// window.__gofer.refs (weakly) so that later actions can find them again. The result
// comes back as a JSON string, which crosses to Python faster than a structured value.
(args) => {
  const g = window.__gofer;
  if (!g) return JSON.stringify({ missing: true });
  const prefix = args.prefix || "";
  const MAX_TEXT = args.maxText || 300;
  // A page of tens of thousands of rows is read only so far: the first elements and
  // lines in document order.
  const MAX_ELEMENTS = args.maxElements || 3000;
  const MAX_LINES = args.maxLines || 5000;
  const VW = window.innerWidth;
  const VH = window.innerHeight;
  const DOC_W = Math.max(VW, document.documentElement ? document.documentElement.scrollWidth : 0);
  const INTERACTIVE_ROLES = new Set(["button", "link", "textbox", "searchbox", "combobox",
    "listbox", "option", "checkbox", "radio", "switch", "tab", "menuitem", "menuitemcheckbox",
    "menuitemradio", "spinbutton", "slider", "treeitem"]);
  const SOMETIMES_ROLES = new Set(["gridcell", "row"]);
  const NAME_FROM_CONTENT = new Set(["button", "link", "tab", "menuitem", "menuitemcheckbox",
    "menuitemradio", "option", "checkbox", "radio", "switch", "treeitem", "gridcell", "row",
    "clickable", "heading"]);
  const BOUNDARY_TAGS = new Set(["BUTTON", "SELECT", "TEXTAREA", "INPUT", "BR", "HR", "LI",
    "TR", "TD", "TH", "DT", "DD", "SUMMARY", "OPTION", "LABEL"]);
  const BLOCK_DISPLAYS = new Set(["inline", "contents"]);
  const SECTIONING = "section,article,form,dialog,aside,nav,main,fieldset,[role=dialog]," +
    "[role=alertdialog],[role=region],[role=form],[role=navigation],[role=main]";
  const FORM_FIELDS = "input:not([type=hidden]):not([type=checkbox]):not([type=radio]), " +
    "select, textarea";
  const TEXT_TYPES = new Set(["", "text", "email", "tel", "url", "password", "search", "number",
    "date", "time", "datetime-local", "month", "week"]);

  // A <form> shows its fields as properties over the DOM's own (a field named "children"
  // is form.children, one named "parentNode" its parentNode), so the walk reads nodes
  // through the prototypes' accessors and methods, which no field can hide.
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const NODE_TYPE = getter(Node.prototype, "nodeType");
  const CHILD_NODES = getter(Node.prototype, "childNodes");
  const PARENT_NODE = getter(Node.prototype, "parentNode");
  const PARENT_ELEMENT = getter(Node.prototype, "parentElement");
  const TAG_NAME = getter(Element.prototype, "tagName");
  const CHILDREN = getter(Element.prototype, "children");
  const SHADOW_ROOT = getter(Element.prototype, "shadowRoot");
  const CHILD_COUNT = getter(Element.prototype, "childElementCount");
  const PREVIOUS = getter(Element.prototype, "previousElementSibling");
  const CLASS_LIST = getter(Element.prototype, "classList");
  const CONNECTED = getter(Node.prototype, "isConnected");
  const EP = Element.prototype;
  const nodeType = (n) => NODE_TYPE.call(n);
  const tagOf = (el) => TAG_NAME.call(el);
  const kids = (el) => CHILDREN.call(el);
  const up = (n) => PARENT_NODE.call(n);
  const upElement = (n) => PARENT_ELEMENT.call(n);
  const attr = (el, name) => EP.getAttribute.call(el, name);
  const hasAttr = (el, name) => EP.hasAttribute.call(el, name);
  const matches = (el, sel) => EP.matches.call(el, sel);
  const query = (el, sel) => EP.querySelector.call(el, sel);
  const queryAll = (el, sel) => EP.querySelectorAll.call(el, sel);
  // Any other property of an element: a form's from its prototypes, past its fields.
  const prop = (el, name) => {
    if (!(el instanceof HTMLFormElement)) return el[name];
    for (let p = Object.getPrototypeOf(el); p; p = Object.getPrototypeOf(p)) {
      const d = Object.getOwnPropertyDescriptor(p, name);
      if (d) return d.get ? d.get.call(el) : d.value;
    }
    return undefined;
  };

  const styles = new Map();
  const style = (el) => {
    let s = styles.get(el);
    if (!s) { s = getComputedStyle(el); styles.set(el, s); }
    return s;
  };
  const rects = new Map();
  const rectOf = (el) => {
    let r = rects.get(el);
    if (!r) { r = EP.getBoundingClientRect.call(el); rects.set(el, r); }
    return r;
  };
  const box = (r) => [r.left, r.top, r.width, r.height];
  const norm = (s) => (s || "").replace(/[\s\u00a0\u200b]+/g, " ").trim();
  const cut = (s) => (s.length > MAX_TEXT ? s.slice(0, MAX_TEXT - 1) + "…" : s);
  const parentOf = (n) => {
    const p = up(n);
    return p instanceof ShadowRoot ? p.host : upElement(n);
  };
  const composedContains = (a, b) => {
    for (let n = b; n; n = up(n) || (n instanceof ShadowRoot ? n.host : null)) {
      if (n === a) return true;
    }
    return false;
  };
  const childrenOf = (node) => {
    if (nodeType(node) !== 1) return CHILD_NODES.call(node);
    const shadow = SHADOW_ROOT.call(node);
    if (shadow) return CHILD_NODES.call(shadow);
    if (tagOf(node) === "SLOT") {
      const assigned = node.assignedNodes({ flatten: true });
      return assigned.length ? assigned : CHILD_NODES.call(node);
    }
    return CHILD_NODES.call(node);
  };
  const hiddenStyle = (el) => {
    const s = style(el);
    if (s.display === "none") return "none";
    // Out of the accessibility tree and the tab order alike: a value a widget keeps for
    // its form (a date picker's hidden input under its drawn sections), not a control.
    if (attr(el, "aria-hidden") === "true" && attr(el, "tabindex") === "-1") return "held";
    if (s.opacity === "0") return "invisible";
    const r = rectOf(el);
    if (r.width <= 1 && r.height <= 1 && s.overflow !== "visible" && s.display !== "contents") {
      return "invisible";
    }
    if (s.clipPath === "inset(50%)" || s.clip === "rect(0px, 0px, 0px, 0px)") return "invisible";
    // Hidden from assistive technology, not from the eye: its text is still read as
    // lines a person sees, its controls are not offered.
    if (attr(el, "aria-hidden") === "true") return "unvoiced";
    return "";
  };

  // The visible text under a node, across open shadow roots; controls skipped when asked.
  const deepText = (node, skipControls) => {
    const out = [];
    let len = 0;
    const visit = (n) => {
      if (len > MAX_TEXT) return;
      const type = nodeType(n);
      if (type === 3) { out.push(n.data); len += n.data.length; return; }
      if (type !== 1 && type !== 11) return;
      if (type === 1) {
        const tag = tagOf(n);
        if (tag === "SCRIPT" || tag === "STYLE" || tag === "TEMPLATE" || tag === "NOSCRIPT") return;
        const s = style(n);
        if (s.display === "none" || attr(n, "aria-hidden") === "true") return;
        if (skipControls && (tag === "SELECT" || tag === "TEXTAREA" || tag === "INPUT")) return;
        if (tag === "IMG" && n.alt) { out.push(" " + n.alt + " "); return; }
        if (s.visibility !== "visible" && !CHILD_COUNT.call(n)) return;
        if (s.display !== "inline") out.push(" ");
      }
      for (const c of childrenOf(n)) visit(c);
      if (type === 1 && style(n).display !== "inline") out.push(" ");
    };
    visit(node);
    return cut(norm(out.join("")));
  };
  const byIds = (el, name) => {
    const ids = norm(attr(el, name));
    if (!ids) return "";
    const root = Node.prototype.getRootNode.call(el);
    const parts = ids.split(" ").map((id) => {
      const t = root.getElementById ? root.getElementById(id) : document.getElementById(id);
      // As the accessible-name rules read a referenced node: its aria-label first.
      return t ? (norm(attr(t, "aria-label")) || deepText(t, true)) : "";
    });
    // a control labelled by itself and by its group, both saying the same words
    // ("Budget" "Budget"), is read once, as a person reads it
    return norm([...new Set(parts.filter(Boolean))].join(" "));
  };

  // ---- the walk: lines, candidates, headings, tables and lists -----------------------
  const lines = [];
  let cur = null;
  const flush = () => {
    if (cur) {
      const text = norm(cur.parts.join(""));
      if (text && lines.length < MAX_LINES) {
        let x1 = Infinity, y1 = Infinity, x2 = -Infinity, y2 = -Infinity;
        for (const r of cur.rects) {
          x1 = Math.min(x1, r.left); y1 = Math.min(y1, r.top);
          x2 = Math.max(x2, r.right); y2 = Math.max(y2, r.bottom);
        }
        lines.push({ t: cut(text), b: [x1, y1, x2 - x1, y2 - y1], h: cur.heading, el: cur.el });
      }
    }
    cur = null;
  };
  const addText = (text, rect, el, heading) => {
    if (!cur) cur = { parts: [], rects: [], heading, el };
    cur.parts.push(text);
    cur.rects.push(rect);
  };
  const range = document.createRange();
  const order = new Map();
  const candidates = [];
  const headings = [];
  const tables = [];
  const lists = [];
  const fixed = [];
  let modalEl = null;
  const headingLevel = (el) => {
    const m = /^H([1-6])$/.exec(tagOf(el));
    if (m) return Number(m[1]);
    if (attr(el, "role") === "heading") return Number(attr(el, "aria-level")) || 2;
    return 0;
  };
  const ariaRole = (el) => (attr(el, "role") || "").trim().split(/\s+/)[0].toLowerCase();

  const walk = (node, ctx) => {
    for (const child of childrenOf(node)) {
      const type = nodeType(child);
      if (type === 3) {
        if (ctx.textHidden) continue;
        if (!child.data.trim()) {
          // Space between inline elements ("<b>October</b>&nbsp;<b>2016</b>") parts words.
          if (cur && child.data) cur.parts.push(" ");
          continue;
        }
        const parent = upElement(child) || node;
        if (nodeType(parent) === 1 && style(parent).visibility !== "visible") continue;
        range.selectNodeContents(child);
        const r = range.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        if (r.right <= 0 || r.bottom + window.scrollY <= 0 || r.left >= DOC_W) continue;
        addText(child.data, r, ctx.block, ctx.heading);
      } else if (type === 1) {
        visitElement(child, ctx);
      }
    }
  };
  const visitElement = (el, ctx) => {
    const tag = tagOf(el);
    if (tag === "SCRIPT" || tag === "STYLE" || tag === "TEMPLATE" || tag === "NOSCRIPT" ||
        tag === "HEAD" || tag === "IFRAME" || tag === "FRAME" || tag === "OBJECT") return;
    const hidden = hiddenStyle(el);
    if (hidden === "none") return;
    order.set(el, order.size);
    const s = style(el);
    const role = ariaRole(el);
    const level = headingLevel(el);
    const boundary = !BLOCK_DISPLAYS.has(s.display) || BOUNDARY_TAGS.has(tag) || level > 0 ||
      INTERACTIVE_ROLES.has(role);
    const unvoiced = ctx.unvoiced || hidden === "unvoiced" || hidden === "held";
    const inner = {
      textHidden: ctx.textHidden || hidden === "invisible",
      unvoiced,
      invisible: ctx.invisible || hidden === "invisible" || unvoiced,
      heading: level || ctx.heading,
      block: boundary ? el : ctx.block,
      interactive: ctx.interactive,
      interactiveRole: ctx.interactiveRole,
    };
    if (level && !inner.invisible) headings.push({ el, text: "", level });
    if (tag === "TABLE") tables.push(el);
    if (tag === "UL" || tag === "OL" || role === "list") lists.push(el);
    if (s.position === "fixed" && !inner.invisible) fixed.push(el);
    if (!modalEl && !inner.invisible &&
        ((tag === "DIALOG" && el.matches(":modal")) ||
         ((role === "dialog" || role === "alertdialog") && attr(el, "aria-modal") === "true"))) {
      modalEl = el;
    }
    const irole = interactiveRole(el, tag, role, s, ctx);
    if (irole) {
      if (candidates.length < MAX_ELEMENTS) {
        candidates.push({
          el, role: irole, invisible: inner.invisible, tag, held: hidden === "held",
        });
      }
      // A clickable with no area of its own (a wrapper its content overflows) holds
      // no cells: what it shows is judged as if it were not there.
      const r = rectOf(el);
      if ((irole !== "clickable" || !ctx.interactive) &&
          (irole !== "clickable" || r.width * r.height > 0)) {
        inner.interactive = el;
        inner.interactiveRole = irole;
      }
    }
    if (boundary) flush();
    if (tag === "SELECT") {
      const chosen = Array.from(el.selectedOptions).map((o) => o.text).join(", ");
      if (chosen && !inner.invisible) addText(chosen, rectOf(el), el, inner.heading);
    } else if (tag === "INPUT") {
      const t = (el.type || "").toLowerCase();
      if ((t === "submit" || t === "button" || t === "reset") && !inner.invisible) {
        const v = el.value || (t === "submit" ? "Submit" : t === "reset" ? "Reset" : "");
        if (v) addText(v, rectOf(el), el, inner.heading);
      }
    } else if (tag !== "TEXTAREA") {
      if (tag === "BR") flush();
      walk(el, inner);
    }
    if (boundary) flush();
  };

  const interactiveRole = (el, tag, role, s, ctx) => {
    if (role && INTERACTIVE_ROLES.has(role)) return role;
    if (role && SOMETIMES_ROLES.has(role) &&
        (prop(el, "tabIndex") >= 0 || hasAttr(el, "aria-selected") || g.isClicky(el) ||
         prop(el, "onclick"))) {
      return role;
    }
    switch (tag) {
      case "A": if (el.hasAttribute("href")) return "link"; break;
      case "BUTTON": return "button";
      case "SELECT": return el.multiple || el.size > 1 ? "listbox" : "combobox";
      case "TEXTAREA": return "textbox";
      case "SUMMARY": return "button";
      case "INPUT": {
        const t = (el.type || "text").toLowerCase();
        if (t === "hidden") return null;
        if (t === "checkbox" || t === "radio") return t;
        if (t === "number") return "spinbutton";
        if (t === "range") return "slider";
        if (t === "search") return el.hasAttribute("list") ? "combobox" : "searchbox";
        if (["submit", "button", "reset", "image", "file", "color"].includes(t)) return "button";
        return el.hasAttribute("list") ? "combobox" : "textbox";
      }
      case "OPTION": case "OPTGROUP": case "LABEL": case "HTML": case "BODY": return null;
      default: break;
    }
    const parent = upElement(el);
    if (prop(el, "isContentEditable") && !(parent && prop(parent, "isContentEditable"))) {
      return "textbox";
    }
    if (ctx.interactive) return delegatedCell(el, tag, s, parent, ctx) ? "clickable" : null;
    const clicky = handlesClicks(el) || (prop(el, "tabIndex") >= 0 && hasAttr(el, "tabindex"));
    const pointer = s.cursor === "pointer" && (!parent || style(parent).cursor !== "pointer");
    if (!clicky && !pointer) return null;
    const r = rectOf(el);
    if (r.width * r.height > 0.5 * VW * VH) return null;  // a delegating container
    // so is one around a form or its fields (a framework's root, a form's wrapper)
    if (query(el, "form") || queryAll(el, FORM_FIELDS).length > 1) return null;
    return "clickable";
  };

  // A row of buttons that marks the one chosen only by a class of its own ("active",
  // "v-btn--active", "is-selected"): a toggle group drawn without ARIA. Each button of
  // the row is pressed or not; null for a button alone or a row that marks none.
  const PRESSED_CLASS = /(^|[-_])(active|selected|checked|pressed)$/i;
  const marked = (b) => Array.from(CLASS_LIST.call(b)).some((c) => PRESSED_CLASS.test(c));
  const shownPressed = (el) => {
    const parent = upElement(el);
    if (!parent) return null;
    const row = kids(parent);
    if (row.length < 2 || row.length > 12) return null;
    let on = 0;
    for (const b of row) {
      if (tagOf(b) !== "BUTTON" && attr(b, "role") !== "button") return null;
      if (hasAttr(b, "aria-pressed") || hasAttr(b, "aria-checked")) return null;
      if (marked(b)) on += 1;
    }
    return on === 1 ? marked(el) : null;
  };

  // A click handler of the element's own: an attribute, a property (React sets a no-op
  // `onclick` on every element it handles clicks for, calling the real handler from its
  // root), or a listener added to it.
  const signature = (el) => tagOf(el) + "." + Array.from(CLASS_LIST.call(el)).sort().join(".");
  const handlesClicks = (el) => hasAttr(el, "onclick") ||
    typeof prop(el, "onclick") === "function" || g.isClicky(el);
  // A child of a container whose one click handler serves a list of look-alike children
  // (suggestions, day cells drawn as plain elements): every element child has the same
  // tag and classes, and there are at least two.
  const listedChild = (el, parent, host) => {
    if (parent !== host || tagOf(host) === "TR" || !handlesClicks(host)) return false;
    const siblings = kids(host);
    if (siblings.length < 2) return false;
    const sig = signature(el);
    for (const sib of siblings) if (signature(sib) !== sig) return false;
    return true;
  };

  // Inside a control only a cell of a delegating container (one click listener for a
  // grid of days) is a control of its own: a small, leaf-ish element with a pointer
  // cursor of its own, or a role-less table cell with a few characters in a table the
  // container holds whole, either far smaller than the container. A button-like
  // control's own text never is, nor a cell of a clickable row.
  const delegatedCell = (el, tag, s, parent, ctx) => {
    if (ctx.interactiveRole !== "clickable") return false;
    const ownPointer = s.cursor === "pointer" && !!parent && style(parent).cursor !== "pointer";
    const table = tag === "TD" && !attr(el, "role") ? EP.closest.call(el, "table") : null;
    const cell = !!table && composedContains(ctx.interactive, table);
    const listed = !ownPointer && !cell && listedChild(el, parent, ctx.interactive);
    if (!ownPointer && !cell && !listed) return false;
    if (CHILD_COUNT.call(el) > (cell ? 1 : 3)) return false;
    const r = rectOf(el), host = rectOf(ctx.interactive);
    const area = r.width * r.height;
    // with a pointer and a click handler of its own it is a control however much of
    // its container it fills (the one option of a filtered list)
    const ratio = cell ? 8 : listed ? 1.5 : handlesClicks(el) ? 1 : 4;
    if (!area || host.width * host.height < ratio * area) return false;
    const text = deepText(el, false);
    return cell ? text.length > 0 && text.length <= 6 : text.length <= 40;
  };

  const root = document.body || document.documentElement;
  if (root) {
    order.set(root, 0);
    walk(root, { invisible: false, heading: 0, block: root, interactive: null,
      interactiveRole: "" });
    flush();
  }
  for (const h of headings) h.text = deepText(h.el, false);

  // ---- a modal that covers the page ----------------------------------------------------
  if (!modalEl) {
    for (const el of fixed) {
      const r = rectOf(el);
      if (r.width < 0.9 * VW || r.height < 0.9 * VH) continue;
      const bg = style(el).backgroundColor;
      const m = /rgba?\(([^)]+)\)/.exec(bg);
      const alpha = m ? Number((m[1].split(",")[3] || "1").trim()) : 0;
      if (alpha > 0.05 && style(el).pointerEvents !== "none") { modalEl = el; break; }
    }
  }

  // ---- element details -----------------------------------------------------------------
  const deepActive = () => {
    let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
    return a;
  };
  const active = deepActive();
  const hitAt = (x, y) => {
    let hit = document.elementFromPoint(x, y);
    while (hit && hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (!inner || inner === hit) break;
      hit = inner;
    }
    return hit;
  };
  // The part of ``r`` that the scroll boxes around ``el`` let show (null: none of it).
  const unclipped = (el, r) => {
    let x1 = r.left, x2 = r.right, y1 = r.top, y2 = r.bottom;
    for (let n = parentOf(el); n && n !== document.body && n !== document.documentElement; n = parentOf(n)) {
      if (!(n instanceof Element)) continue;
      const s = style(n);
      if (s.position === "fixed") break;
      const clipX = s.overflowX !== "visible", clipY = s.overflowY !== "visible";
      if (!clipX && !clipY) continue;
      const c = rectOf(n);
      if (clipX) { x1 = Math.max(x1, c.left); x2 = Math.min(x2, c.right); }
      if (clipY) { y1 = Math.max(y1, c.top); y2 = Math.min(y2, c.bottom); }
      if (x1 >= x2 || y1 >= y2) return null;
    }
    return { left: x1, right: x2, top: y1, bottom: y2 };
  };
  const onTop = (el, r, clipped = false) => {
    const x1 = Math.max(r.left, 0), x2 = Math.min(r.right, VW);
    const y1 = Math.max(r.top, 0), y2 = Math.min(r.bottom, VH);
    if (x1 >= x2 || y1 >= y2) return !(modalEl && !composedContains(modalEl, el));
    const reaches = (x, y) => {
      const hit = hitAt(x, y);
      if (!hit) return false;
      if (composedContains(el, hit)) return true;
      const label = hit instanceof Element ? EP.closest.call(hit, "label") : null;
      if (label && label.control === el) return true;
      return !!(el.labels && Array.from(el.labels).some((l) => composedContains(l, hit)));
    };
    if (reaches((x1 + x2) / 2, (y1 + y2) / 2)) return true;
    // A link that wraps onto two lines has a gap at its box's centre: try each line.
    const parts = Element.prototype.getClientRects.call(el);
    for (const p of parts.length > 1 ? parts : []) {
      const px = (Math.max(p.left, 0) + Math.min(p.right, VW)) / 2;
      const py = (Math.max(p.top, 0) + Math.min(p.bottom, VH)) / 2;
      if (p.width > 0 && p.height > 0 && px > 0 && py > 0 && reaches(px, py)) return true;
    }
    if (clipped) return false;
    // Clipped by a scroll box it sits in (a long list in a dropdown): out of sight as
    // off-screen is, or tried where it shows, but not covered.
    const shows = unclipped(el, r);
    if (!shows) return !(modalEl && !composedContains(modalEl, el));
    const whole = shows.left <= r.left && shows.right >= r.right && shows.top <= r.top && shows.bottom >= r.bottom;
    return !whole && onTop(el, shows, true);
  };
  const closestComposed = (el, sel) => {
    for (let n = el; n; ) {
      const found = n instanceof Element ? EP.closest.call(n, sel) : null;
      if (found) return found;
      const rootNode = Node.prototype.getRootNode.call(n);
      n = rootNode instanceof ShadowRoot ? rootNode.host : null;
    }
    return null;
  };
  const legendOf = (fs) => {
    const lg = fs && query(fs, ":scope > legend");
    return lg ? deepText(lg, true) : "";
  };
  const ownName = (el) => byIds(el, "aria-labelledby") || norm(attr(el, "aria-label"));
  const sectionOf = (el) => {
    const fs = closestComposed(el, "fieldset");
    const legend = legendOf(fs);
    if (legend) return legend;
    const container = closestComposed(el, SECTIONING);
    const pos = order.get(el) ?? Infinity;
    for (let i = headings.length - 1; i >= 0; i--) {
      const h = headings[i];
      if ((order.get(h.el) ?? 0) > pos || !h.text) continue;
      if (!container || composedContains(container, h.el)) return h.text;
      break;
    }
    return container ? ownName(container) : "";
  };
  const groupOf = (el, role) => {
    const sel = { radio: "[role=radiogroup],fieldset", checkbox: "[role=group],fieldset",
      option: "[role=listbox]", tab: "[role=tablist]", menuitem: "[role=menu],[role=menubar]",
      menuitemcheckbox: "[role=menu]", menuitemradio: "[role=menu]",
      gridcell: "[role=grid]", row: "[role=grid],[role=table]", treeitem: "[role=tree]",
      spinbutton: "[role=group],fieldset" }[role];
    const parent = sel ? closestComposed(upElement(el) || el, sel) : null;
    if (parent) {
      const name = ownName(parent) || (tagOf(parent) === "FIELDSET" ? legendOf(parent) : "");
      if (name) return name;
    }
    return role === "radio" ? norm(attr(el, "name")) : "";
  };
  // A text just left of the field on its row, or just above it, can label it.
  const near = (l, f) => {
    const sameRow = l.bottom > f.top - 4 && l.top < f.bottom + 4 && l.right <= f.left + 4 &&
      f.left - l.right < 240;
    const above = l.bottom <= f.top + 4 && f.top - l.bottom < 48 && l.left < f.right &&
      l.right > f.left - 24;
    return sameRow || above;
  };
  const nearbyLabel = (el) => {
    let n = el;
    for (let depth = 0; depth < 6 && n; depth++) {
      for (let p = PREVIOUS.call(n); p; p = PREVIOUS.call(p)) {
        if (style(p).display === "none") continue;
        if (matches(p, "input,select,textarea,button,a") || candidateEls.has(p)) return "";
        const t = deepText(p, true);
        // numbers alone are the widget's own scale or count (a slider's axis), no caption
        if (!t || !/\p{L}/u.test(t)) continue;
        if (t.length > 80 || headingLevel(p) || query(p, "input,select,textarea")) return "";
        return near(rectOf(p), rectOf(el)) ? t : "";
      }
      n = upElement(n);
      if (!n || n === document.body || matches(n, "form,fieldset")) break;
    }
    return "";
  };
  const fieldLabel = (el) => {
    if (el.labels && el.labels.length) {
      return norm(Array.from(el.labels).map((l) => deepText(l, true)).join(" "));
    }
    return byIds(el, "aria-labelledby") || nearbyLabel(el);
  };
  const candidateEls = new Set(candidates.map((c) => c.el));
  // A calendar (a month's grid of day controls, with its arrows and headings) named by
  // a caption: its container's own name (a group or region labelled by aria), or a
  // short text just before it that holds no control. Its controls without a group of
  // their own are in the group the caption names.
  const WIDGET_MIN = 28;
  const held = new Map();  // node -> how many controls other than fields it holds
  const days = new Map();  // node -> how many of them show a day's number
  const FIELD_TAGS = new Set(["INPUT", "SELECT", "TEXTAREA"]);
  for (const c of candidates) {
    if (c.invisible || FIELD_TAGS.has(c.tag)) continue;
    const day = /^\s*([1-9]|[12]\d|3[01])\s*$/.test(c.el.textContent || "");
    for (let n = c.el; n; n = parentOf(n)) {
      held.set(n, (held.get(n) || 0) + 1);
      if (day) days.set(n, (days.get(n) || 0) + 1);
    }
  }
  const captions = new Map();
  const STOPS = "form,fieldset,dialog,[role=dialog],body,html";
  // The widget is the highest container over the first one holding many controls that
  // adds no more than a few (its arrows and headings); the caption is searched only at
  // the levels that hold all of them, outermost first (a row of weekday names over
  // the days is no caption).
  const captionOf = (core) => {
    if (captions.has(core)) return captions.get(core);
    const path = [core];
    const most = (held.get(core) || 0) + 12;
    for (let n = parentOf(core); n && !matches(n, STOPS) && (held.get(n) || 0) <= most;
      n = parentOf(n)) path.push(n);
    const all = held.get(path[path.length - 1]) || 0;
    let name = "";
    for (let i = path.length - 1; i >= 0 && !name && (held.get(path[i]) || 0) === all; i--) {
      const a = path[i];
      if (matches(a, "[role=group],[role=region]")) name = ownName(a);
      if (name) break;
      let p = PREVIOUS.call(a);
      while (p && (style(p).display === "none" || (!held.get(p) && !deepText(p, true) &&
        !query(p, "input,select,textarea")))) p = PREVIOUS.call(p);
      if (!p || held.get(p) || headingLevel(p) || matches(p, "input,select,textarea") ||
          query(p, "input,select,textarea")) continue;
      const t = deepText(p, true);
      if (t.length <= 40) name = t;
    }
    captions.set(core, name);
    return name;
  };
  const widgetGroup = (el) => {
    if ((days.get(document.body) || 0) < WIDGET_MIN) return "";
    for (let n = parentOf(el), depth = 0; n && depth < 12 && !matches(n, STOPS);
      n = parentOf(n), depth++) {
      if ((days.get(n) || 0) >= WIDGET_MIN) return captionOf(n);
    }
    return "";
  };
  const tri = (v) => (v === "true" ? true : v === "false" ? false : null);
  // Where a plain link goes: "" for a link that runs script or sends another method
  // (an href of "#" or "javascript:", an onclick, Rails' data-method, htmx verbs).
  const SCRIPTED = ["onclick", "data-method", "data-turbo-method", "data-confirm",
    "data-turbo-confirm", "hx-post", "hx-put", "hx-patch", "hx-delete", "hx-get"];
  const hrefOf = (el, tag) => {
    if (tag !== "A" && tag !== "AREA") return "";
    const raw = (attr(el, "href") || "").trim();
    if (!raw || raw.startsWith("#") || /^javascript:/i.test(raw)) return "";
    if (SCRIPTED.some((a) => hasAttr(el, a) && (a !== "data-method" && a !== "data-turbo-method"
      || (attr(el, a) || "").toLowerCase() !== "get"))) return "";
    const to = String(el.href || "");
    if (!/^https?:/i.test(to)) return "";
    return to.split("#")[0] === String(location.href).split("#")[0] && to.includes("#") ? "" : to;
  };

  const describe = (c, idx) => {
    const { el, role, tag } = c;
    const t = tag === "INPUT" ? (el.type || "text").toLowerCase() : "";
    const isField = tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
    const editableText = prop(el, "isContentEditable");
    // A button drawn by an input is named by its value; text that only sits near it
    // (the "Remember me?" beside a login form's "Login") is not its label.
    const valueButton = tag === "INPUT" && ["submit", "button", "reset"].includes(t);
    const ownLabel = !valueButton || (el.labels && el.labels.length) ||
      hasAttr(el, "aria-labelledby");
    // a slider or switch drawn without an input (a div with its role) is captioned as a
    // field is, when nothing inside it names it
    const drawnValue = (role === "slider" || role === "switch") && !isField;
    // a button a <label for> names (a styled file picker's) is labelled like a field
    const labelledButton = tag === "BUTTON" && el.labels && el.labels.length > 0;
    const label = (isField || editableText || role === "combobox" || drawnValue ||
      labelledButton) && ownLabel
      ? fieldLabel(el) : "";
    const placeholder = norm(attr(el, "placeholder") || attr(el, "aria-placeholder"));
    const title = norm(attr(el, "title"));
    let value = "";
    if (tag === "SELECT") value = Array.from(el.selectedOptions).map((o) => norm(o.text)).join(", ");
    else if (tag === "TEXTAREA") value = el.value;
    else if (tag === "INPUT" && t !== "checkbox" && t !== "radio" && role !== "button") {
      value = el.value;
    } else if (editableText) value = deepText(el, false);
    else if (hasAttr(el, "aria-valuetext")) value = attr(el, "aria-valuetext");
    else if (hasAttr(el, "aria-valuenow")) {
      value = attr(el, "aria-valuenow");
      // a value outside the control's own range is a percent of it (a slider that
      // reports where its handle stands): read as the number it stands for
      const [n, lo, hi] = ["aria-valuenow", "aria-valuemin", "aria-valuemax"]
        .map((a) => parseFloat(attr(el, a)));
      if (hi > lo && (n < lo || n > hi) && n >= 0 && n <= 100) {
        value = String(Number((lo + (n * (hi - lo)) / 100).toFixed(6)));
      }
    }
    const text = isField ? "" : deepText(el, tag === "LABEL");
    let name = ownName(el);
    // A real label names a field; text that only sits near it comes after the
    // field's own title and placeholder, as in the accessible-name rules.
    const realLabel = isField && ((el.labels && el.labels.length) || hasAttr(el, "aria-labelledby"));
    if (!name && isField && realLabel) name = label;
    if (!name && isField && !valueButton) name = title || placeholder || label;
    if (!name && tag === "INPUT" && ["submit", "button", "reset"].includes(t)) {
      name = el.value || (t === "submit" ? "Submit" : t === "reset" ? "Reset" : "");
    }
    if (!name && tag === "INPUT" && t === "image") name = norm(el.alt);
    if (!name && (NAME_FROM_CONTENT.has(role) || tag === "A" || tag === "BUTTON")) name = text;
    if (!name && drawnValue) name = title || label;
    if (!name) {
      // An icon's words name it; a control inside it (a chip's remove button in a
      // combobox) has words of its own, not the container's.
      const img = query(el, "img[alt], svg title, [aria-label]:not(button, a[href], input, " +
        "select, textarea, [role=button], [role=link])");
      if (img) name = norm(attr(img, "alt") || attr(img, "aria-label") || img.textContent);
    }
    if (!name) name = title || placeholder;
    if (!name && !isField && !text && g.iconWords) name = g.iconWords(el);
    let checked = null;
    const stated = attr(el, "aria-checked");
    // a box whose framework keeps its state (a switch that cancels the native toggle)
    // says so in aria-checked; the hidden native box may lag behind it
    if ((t === "checkbox" || t === "radio") && stated !== "true" && stated !== "false") {
      checked = el.checked;
    } else if (hasAttr(el, "aria-checked")) checked = attr(el, "aria-checked") !== "false";
    else if (hasAttr(el, "aria-pressed")) checked = attr(el, "aria-pressed") !== "false";
    else if (role === "button") checked = shownPressed(el);
    let selected = null;
    if (hasAttr(el, "aria-selected")) selected = tri(attr(el, "aria-selected"));
    else if (tag === "OPTION") selected = el.selected;
    let expanded = hasAttr(el, "aria-expanded") ? tri(attr(el, "aria-expanded")) : null;
    if (expanded === null && tag === "SUMMARY" && upElement(el)) {
      expanded = upElement(el).open;
    }
    const fsDisabled = (() => {
      const fs = EP.closest.call(el, "fieldset[disabled]");
      if (!fs) return false;
      const lg = query(fs, ":scope > legend");
      return !(lg && Node.prototype.contains.call(lg, el));
    })();
    const disabled = !!prop(el, "disabled") || attr(el, "aria-disabled") === "true" ||
      (isField || tag === "BUTTON" ? fsDisabled : false);
    const editable = !disabled && (
      (tag === "INPUT" && TEXT_TYPES.has(t) && !el.readOnly) ||
      (tag === "TEXTAREA" && !el.readOnly) || editableText);
    let invalid = attr(el, "aria-invalid") === "true" || attr(el, "aria-invalid") === "grammar" ||
      attr(el, "aria-invalid") === "spelling";
    if (!invalid && isField) {
      const cls = el.classList;
      invalid = cls.contains("is-invalid") || cls.contains("error") || cls.contains("invalid") ||
        (!!EP.closest.call(el, ".was-validated") && matches(el, ":invalid"));
      if (!invalid) { try { invalid = matches(el, ":user-invalid"); } catch (e) { invalid = false; } }
    }
    let r = rectOf(el);
    let visible = !c.invisible && r.width > 0 && r.height > 0 &&
      style(el).visibility === "visible";
    let target = el;
    if (!visible && !c.held && el.labels && el.labels.length) {
      // A see-through input styled through its label: the label is what a person clicks.
      const shown = Array.from(el.labels).find((l) => l.checkVisibility &&
        l.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
        rectOf(l).width > 0 && rectOf(l).height > 0);
      if (shown) { visible = true; target = shown; r = rectOf(shown); }
    }
    if (!visible && !c.held && ["range", "checkbox", "radio"].includes(t)) {
      // ... or drawn by the small element around it (a slider's thumb, a switch's
      // track), past a wrapper that only hides the input (clipped to a pixel)
      for (let n = upElement(el), i = 0; n && i < 3; n = upElement(n), i++) {
        if (queryAll(n, "input,select,textarea,button").length !== 1) break;
        const a = rectOf(n);
        if (a.width > 240 || a.height > 80) break;
        if (a.width >= 8 && a.height >= 8 && style(n).visibility === "visible") {
          visible = true; target = n; r = a; break;
        }
      }
    }
    const listing = tag === "SELECT" || role === "combobox" ||
      attr(el, "aria-haspopup") === "listbox";
    const seeThrough = (n) => !!n && style(n).opacity === "0" && style(n).clip === "auto" &&
      style(n).clipPath === "none" && rectOf(n).width >= 4 && rectOf(n).height >= 4;
    if (!visible && !c.held && listing && (seeThrough(el) || seeThrough(upElement(el))) &&
        r.width >= 4 && r.height >= 4) {
      // ... or a list's input made see-through (itself or its wrapper) under the box its
      // library draws (a multiple select's chips over it): that box is what a person
      // sees and clicks
      for (let n = upElement(el), i = 0; n && i < 4; n = upElement(n), i++) {
        const a = rectOf(n);
        if (a.height > 120 || matches(n, "form, fieldset, label, body")) break;
        const seen = n.checkVisibility &&
          n.checkVisibility({ opacityProperty: true, visibilityProperty: true });
        if (seen && a.width >= 16 && a.height >= 12) {
          visible = true; target = n; r = a; break;
        }
      }
    }
    if (!visible && !c.invisible && role === "slider" && (r.width === 0 || r.height === 0)) {
      // ... or a slider whose box has no area of its own around the thumb it draws
      const thumb = Array.from(queryAll(el, "*")).find((n) => rectOf(n).width >= 4 &&
        rectOf(n).height >= 4 && n.checkVisibility &&
        n.checkVisibility({ opacityProperty: true, visibilityProperty: true }));
      if (thumb) { visible = true; target = thumb; r = rectOf(thumb); }
    }
    // A ref stays with its element across snapshots, so a ref read before an
    // action never names a different element after the page changes.
    let ref = g.refOf.get(el);
    if (!ref) { ref = prefix + "e" + (++g.refCount); g.refOf.set(el, ref); }
    g.refs.set(ref, new WeakRef(el));
    return {
      ref, role, name: cut(norm(name)), tag: tag.toLowerCase(), label: cut(label), placeholder,
      value: value || "", text, input_type: t, title, checked, selected, expanded, disabled,
      editable, visible, on_top: visible ? onTop(target, r) : false, focused: el === active,
      box: box(r), section: sectionOf(el), group: groupOf(el, role) || (isField ? "" : widgetGroup(el)), record: null,
      options: tag === "SELECT" ? Array.from(el.options).map((o) => norm(o.text)) : [],
      describedby: norm(byIds(el, "aria-describedby") + " " + byIds(el, "aria-errormessage")),
      invalid,
      href: hrefOf(el, tag),
      autocomplete: isField ? norm(attr(el, "autocomplete") || "").toLowerCase() : "",
      el,
    };
  };
  if (!g.refOf) { g.refOf = new WeakMap(); g.refCount = 0; }
  for (const [key, weak] of g.refs) {
    const gone = weak.deref();
    if (!gone || !CONNECTED.call(gone)) g.refs.delete(key);
  }
  const elements = candidates.map((c, i) => describe(c, i + 1));

  // ---- records ---------------------------------------------------------------------------
  const lineCount = new Map();
  const actionCount = new Map();
  const fieldCount = new Map();
  const bump = (map, start) => {
    for (let n = start; n; n = parentOf(n)) map.set(n, (map.get(n) || 0) + 1);
  };
  for (const l of lines) bump(lineCount, l.el);
  for (const e of elements) {
    const isFieldRole = ["textbox", "searchbox", "combobox", "listbox", "spinbutton", "slider",
      "checkbox", "radio", "switch"].includes(e.role);
    bump(isFieldRole ? fieldCount : actionCount, e.el);
  }
  const visibleBox = (el) => { const r = rectOf(el); return r.width > 0 && r.height > 0; };
  const groups = [];
  const claimed = new Set();
  for (const table of tables) {
    const rows = Array.from(table.rows).filter((row) => visibleBox(row));
    let headers = [];
    const isHeader = (c) => tagOf(c) === "TH" || ariaRole(c) === "columnheader";
    const head = rows.find((row) => row.cells.length && Array.from(row.cells).every(isHeader));
    if (head) headers = Array.from(head.cells).map((c) => deepText(c, false));
    const data = rows.filter((row) => row !== head &&
      Array.from(row.cells).some((c) => tagOf(c) === "TD" && !isHeader(c)));
    // One data row under a header row is still a table of records (a filtered list).
    if (data.length < (head ? 1 : 2)) continue;
    groups.push({ el: table, headers, items: data, name: norm(table.caption ? table.caption.textContent : "") });
    claimed.add(table);
  }
  const NAV = "nav,[role=navigation],[role=menu],[role=menubar],[role=tablist],[role=listbox]";
  for (const list of lists) {
    if (closestComposed(list, NAV)) continue;
    const items = Array.from(kids(list)).filter((li) =>
      (tagOf(li) === "LI" || ariaRole(li) === "listitem") && visibleBox(li) && lineCount.get(li));
    if (items.length < 2) continue;
    groups.push({ el: list, headers: [], items, name: "" });
    claimed.add(list);
  }
  const SKIP_PARENTS = new Set(["UL", "OL", "TABLE", "TBODY", "THEAD", "TR", "SELECT", "DL", "P"]);
  for (const parent of lineCount.keys()) {
    if (nodeType(parent) !== 1 || claimed.has(parent)) continue;
    const children = kids(parent);
    if (children.length < 2) continue;
    if (SKIP_PARENTS.has(tagOf(parent)) || (lineCount.get(parent) || 0) < 2) continue;
    const bySig = new Map();
    for (const child of children) {
      if (!visibleBox(child) || !lineCount.get(child)) continue;
      const sig = signature(child);
      if (!bySig.has(sig)) bySig.set(sig, []);
      bySig.get(sig).push(child);
    }
    for (const [sig, kids] of bySig) {
      if (kids.length < 2 || /^(SPAN|A|B|I|EM|STRONG|BR|LABEL|BUTTON|INPUT|OPTION|H\d)\./.test(sig)) {
        continue;
      }
      const qualifies = kids.filter((k) => (actionCount.get(k) || 0) > 0 ||
        ((lineCount.get(k) || 0) >= 2 && !(fieldCount.get(k) || 0)));
      if (qualifies.length >= 2 && qualifies.length * 2 >= kids.length) {
        groups.push({ el: parent, headers: [], items: qualifies, name: "" });
      }
    }
  }
  groups.sort((a, b) => (order.get(a.el) ?? 0) - (order.get(b.el) ?? 0));
  const recordOf = new Map();
  groups.forEach((grp, gi) => grp.items.forEach((item, ri) => {
    if (!recordOf.has(item)) recordOf.set(item, [gi, ri]);
  }));
  const recLines = new Map();
  for (const l of lines) {
    for (let n = l.el; n; n = parentOf(n)) {
      if (recordOf.has(n)) {
        if (!recLines.has(n)) recLines.set(n, []);
        recLines.get(n).push(l.t);
      }
    }
  }
  const fieldsOf = (item, headers) => {
    const f = {};
    if (tagOf(item) === "TR") {
      Array.from(item.cells).forEach((cell, i) => {
        if (headers[i]) f[headers[i]] = deepText(cell, false);
      });
    }
    for (const dt of queryAll(item, "dt")) {
      const dd = dt.nextElementSibling;
      if (dd && dd.tagName === "DD") f[deepText(dt, false)] = deepText(dd, false);
    }
    for (const part of queryAll(item, "[aria-label]")) {
      if (!elements.some((e) => e.el === part)) f[norm(attr(part, "aria-label"))] = deepText(part, false);
    }
    for (const t of recLines.get(item) || []) {
      const m = /^([^:]{1,30}):\s+(.+)$/.exec(t);
      if (m && !(m[1] in f)) f[m[1].trim()] = m[2].trim();
    }
    return f;
  };
  const records = groups.map((grp) => ({
    box: box(rectOf(grp.el)),
    headers: grp.headers,
    name: ownName(grp.el) || grp.name || sectionOf(grp.el),
    records: grp.items.map((item) => ({
      box: box(rectOf(item)),
      lines: recLines.get(item) || [],
      fields: fieldsOf(item, grp.headers),
    })),
  }));
  for (const e of elements) {
    for (let n = e.el; n; n = parentOf(n)) {
      if (recordOf.has(n)) { e.record = recordOf.get(n); break; }
    }
    delete e.el;
  }

  return JSON.stringify({
    url: location.href,
    title: document.title,
    lang: (document.documentElement && document.documentElement.lang) || "",
    viewport: [0, 0, VW, VH],
    lines: lines.map((l) => ({ t: l.t, b: l.b, h: l.h })),
    elements,
    records,
    dialog: !!modalEl,
    mut: g.mutations ? g.mutations() : null,
  });
}
