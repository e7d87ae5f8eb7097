// gofer's page helper, installed in every frame before the page's own scripts.
// It counts DOM mutations and focus moves, tags elements that get click-like
// listeners, identifies the focused element, and offers promises the surface awaits to settle a page.
(() => {
  if (window.__gofer) return;
  const CLICKY = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup",
    "touchstart", "touchend"]);
  const state = {
    mut: 0,
    ids: new WeakMap(),
    nextId: 0,
    lastMut: 0,
    clicky: new WeakSet(),
    waiters: new Set(),
    refs: new Map(),
    opens: 0,
    click: null,
  };
  const notify = () => {
    state.mut += 1;
    state.lastMut = performance.now();
    for (const w of Array.from(state.waiters)) w();
  };
  const observer = new MutationObserver((records) => {
    if (records.length) notify();
  });
  const OPTS = { subtree: true, childList: true, attributes: true, characterData: true };
  const watch = (root) => {
    try { observer.observe(root, OPTS); } catch (e) { /* not observable */ }
  };
  watch(document);

  const origAttach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) {
    const root = origAttach.call(this, init);
    watch(root);
    return root;
  };
  const origAdd = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (type, listener, options) {
    if (CLICKY.has(type) && this instanceof Element) state.clicky.add(this);
    return origAdd.call(this, type, listener, options);
  };

  // Counting what opens a new window: window.open, and clicks on links or submit
  // buttons aimed at a new window (a click's fate is known once it was dispatched).
  const origOpen = window.open;
  window.open = function (...args) {
    state.opens += 1;
    return origOpen.apply(this, args);
  };
  origAdd.call(window, "click", (ev) => { state.click = ev; }, true);
  const SAME = new Set(["", "_self", "_top", "_parent"]);
  const countClick = () => {
    const ev = state.click;
    state.click = null;
    if (!ev || ev.defaultPrevented) return;
    const path = ev.composedPath();
    const link = path.find((n) => n instanceof Element && /^(A|AREA)$/.test(n.tagName) &&
      n.hasAttribute("href"));
    const submit = link ? null : path.find((n) => n instanceof Element && n.form &&
      (n.type === "submit" || n.type === "image"));
    if (!link && !submit) return;
    const base = document.querySelector("base[target]");
    let target = link ? link.target : (submit.formTarget || submit.form.target);
    target = (target || (base ? base.target : "")).toLowerCase();
    const framed = !SAME.has(target) && target !== "_blank" &&
      !!document.querySelector("iframe[name='" + CSS.escape(target) + "']");
    if ((!SAME.has(target) && !framed) || (link && (ev.ctrlKey || ev.metaKey || ev.shiftKey))) {
      state.opens += 1;
    }
  };

  const api = {
    // `focus` identifies the focused element; `onTarget` tells whether focus sits in `target`;
    // `opens` counts what asked for a new window.
    counters(target) {
      countClick();
      let a = document.activeElement;
      while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      if (a && !state.ids.has(a)) state.ids.set(a, ++state.nextId);
      let onTarget = false;
      for (let n = a; target && n; n = n.parentNode || n.host) if (n === target) onTarget = true;
      const modal = !!document.querySelector(
        "dialog:modal, [role=dialog][aria-modal=true], [role=alertdialog]");
      return {
        mut: state.mut, focus: a ? state.ids.get(a) : 0, onTarget, modal, opens: state.opens,
      };
    },
    isClicky(el) { return state.clicky.has(el); },
    refs: state.refs,
    resolve(ref) {
      const w = state.refs.get(ref);
      const el = w ? w.deref() : undefined;
      return el && el.isConnected ? el : null;
    },
    // Resolves once no mutation has happened for `quietMs`, counted from `start` (a
    // time on this document's clock) at the earliest; false when `timeoutMs` runs out.
    quiet(quietMs, timeoutMs, start) {
      return new Promise((resolve) => {
        let timer = 0;
        const done = (ok) => {
          state.waiters.delete(arm);
          clearTimeout(timer);
          clearTimeout(limit);
          resolve(ok);
        };
        const arm = () => {
          clearTimeout(timer);
          timer = setTimeout(() => done(true), quietMs);
        };
        const limit = setTimeout(() => done(false), timeoutMs);
        state.waiters.add(arm);
        const since = Math.max(start, state.lastMut);
        timer = setTimeout(() => done(true), Math.max(0, quietMs - (performance.now() - since)));
      });
    },
    // Resolves true on the next mutation, false after `timeoutMs`.
    changed(timeoutMs) {
      return new Promise((resolve) => {
        const hit = () => { state.waiters.delete(hit); clearTimeout(limit); resolve(true); };
        const limit = setTimeout(() => { state.waiters.delete(hit); resolve(false); }, timeoutMs);
        state.waiters.add(hit);
      });
    },
    // Resolves when running finite animations and transitions have finished.
    animations(timeoutMs) {
      const running = (document.getAnimations ? document.getAnimations() : []).filter((a) => {
        if (a.playState !== "running") return false;
        const t = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
        return !t || Number.isFinite(t.endTime);
      });
      if (!running.length) return Promise.resolve(true);
      const all = Promise.all(running.map((a) => a.finished.catch(() => null))).then(() => true);
      const limit = new Promise((r) => setTimeout(() => r(false), timeoutMs));
      return Promise.race([all, limit]);
    },
    // One round trip for a settle: DOM quiet, then animations done, then the counters.
    // `mutBefore` is the mutation count before an action (null when there was none):
    // an action that changed nothing yet gets `graceMs` for a late change to show;
    // otherwise the DOM must stay still for `quietMs` after its last change.
    async settle(quietMs, graceMs, mutBefore, timeoutMs, target) {
      const start = performance.now();
      const idle = mutBefore !== null && state.mut === mutBefore;
      let ok;
      if (idle) {
        ok = await api.quiet(graceMs, timeoutMs, start);
        if (ok && state.mut !== mutBefore) {
          ok = await api.quiet(quietMs, timeoutMs - (performance.now() - start), 0);
        }
      } else {
        ok = await api.quiet(quietMs, timeoutMs, 0);
      }
      const left = Math.max(1, timeoutMs - (performance.now() - start));
      const still = await api.animations(left);
      return { ok: ok && still, title: document.title, counters: api.counters(target) };
    },
  };
  Object.defineProperty(window, "__gofer", { value: api, enumerable: false });
})();
