// gofer's page helper, installed in every frame before the page's own scripts.
// It counts DOM mutations and focus moves, tags elements that get click-like
// listeners, identifies the focused element, and offers promises the surface awaits to settle a page.
//
// Busy pages (polling, clocks, animation loops) change all the time on their own. The
// helper tells that background from what an action causes, so that a settle ends when
// the action's effects are in rather than when every timer has gone quiet:
//  - the page is "acting" from the surface's `counters(target, true)` before an action
//    until the settle after it ends (and while a new document loads); otherwise idle;
//  - a timer is background when its handler was ever scheduled while idle, from
//    inside a background callback (setInterval's, or a background timer's), or by
//    itself (a loop: a clock, a poll);
//    settles do not wait for background timers;
//  - a mutation made inside a background callback, or a text or attribute change of
//    a node that keeps changing on its own (twice while idle, or four times within a
//    second), is not significant: it neither counts as the action's effect nor breaks
//    the quiet a settle waits for. Elements added or removed always count.
(() => {
  if (window.__gofer) return;
  const CLICKY = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup",
    "touchstart", "touchend"]);
  // Events a page gets while a frame renders (scrolling, resizing, CSS animations and
  // transitions); a page that listens to one, or observes sizes or visibility, may
  // change in the frame after an action.
  const FRAMED = new Set(["scroll", "scrollend", "resize", "animationstart", "animationend",
    "animationiteration", "animationcancel", "transitionrun", "transitionstart",
    "transitionend", "transitioncancel"]);
  const state = {
    mut: 0,
    ids: new WeakMap(),
    nextId: 0,
    lastMut: 0,
    sig: 0,
    lastSig: 0,
    lastWork: 0,
    sigWaiters: new Set(),
    acting: true,
    begunAt: 0,
    background: 0,
    clicky: new WeakSet(),
    waiters: new Set(),
    refs: new Map(),
    opens: 0,
    click: null,
    workAt: -1,
    framed: false,
  };
  // A <form>'s fields hide its DOM properties of the same name (a field named
  // "parentNode" is form.parentNode), so nodes are read through the prototypes.
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const PARENT_NODE = getter(Node.prototype, "parentNode");
  const CONNECTED = getter(Node.prototype, "isConnected");
  const TAG_NAME = getter(Element.prototype, "tagName");
  const hasAttr = Element.prototype.hasAttribute;
  // Nodes that keep changing on their own: node -> {key: [idle changes, recent times]}.
  const churn = new WeakMap();
  const NOISY_BURST = 4, BURST_MS = 1000, NOISY_IDLE = 2, TWEEN_GAP_MS = 100;
  const noisy = (node, key, now) => {
    let keys = churn.get(node);
    if (!keys) { keys = new Map(); churn.set(node, keys); }
    let seen = keys.get(key);
    if (!seen) { seen = { idle: 0, times: [], since: now }; keys.set(key, seen); }
    const last = seen.times.length ? seen.times[seen.times.length - 1] : -Infinity;
    if (now - last > TWEEN_GAP_MS) seen.since = now;
    // A script's tween (a panel sliding open frame by frame) that an action started on a
    // node quiet until then is the action's effect until it has run as long as an
    // animation a settle waits for.
    const tween = state.acting && seen.idle === 0 && now - seen.since < ANIMATION_MS;
    const was = seen.idle >= NOISY_IDLE || (seen.times.length >= NOISY_BURST && !tween);
    if (!state.acting) seen.idle += 1;
    seen.times.push(now);
    while (seen.times.length && seen.times[0] < now - BURST_MS) seen.times.shift();
    return was;
  };
  const isText = (n) => n.nodeType === Node.TEXT_NODE;
  // Work the action left for later that can change the page without a DOM change of its
  // own first: a timer, a frame callback, a message, a request, an element that loads.
  // A settle after an action that left none ends once a frame has rendered with the DOM
  // still; otherwise it waits the whole quiet window.
  const noteWork = () => {
    if (state.acting && !state.background) state.workAt = performance.now();
  };
  const noWorkLeft = () => state.workAt < state.begunAt;
  // what the document holds before its load event has loaded by the time a settle starts
  const loaded = () => document.readyState === "complete";
  const LOADS = "script, iframe, frame, object, embed, link";
  const loads = (node) => node.nodeType === Node.ELEMENT_NODE &&
    (Element.prototype.matches.call(node, LOADS) ||
    !!Element.prototype.querySelector.call(node, LOADS));
  const significant = (records, background) => {
    if (background) return false;
    const now = performance.now();
    let any = false;
    for (const r of records) {
      let quietChange = false;
      if (r.type === "attributes") {
        quietChange = noisy(r.target, "@" + r.attributeName, now);
      } else if (r.type === "characterData") {
        quietChange = !!r.target.parentNode && noisy(r.target.parentNode, "#text", now);
      } else if (loaded() && Array.prototype.some.call(r.addedNodes, loads)) {
        noteWork();
      } else if (Array.prototype.every.call(r.addedNodes, isText) &&
                 Array.prototype.every.call(r.removedNodes, isText)) {
        quietChange = noisy(r.target, "#text", now);
      }
      if (!quietChange) any = true;
    }
    return any;
  };
  const notify = (records, background) => {
    const now = performance.now();
    state.mut += 1;
    state.lastMut = now;
    if (significant(records, background)) {
      state.sig += 1;
      state.lastSig = now;
      for (const w of Array.from(state.sigWaiters)) w();
    }
    for (const w of Array.from(state.waiters)) w();
  };
  const observer = new MutationObserver((records) => {
    if (records.length) notify(records, false);
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
    if (FRAMED.has(type)) state.framed = true;
    return origAdd.call(this, type, listener, options);
  };

  // Counting what opens a new window: window.open, and clicks on links or submit
  // buttons aimed at a new window (a click's fate is known once it was dispatched).
  const origOpen = window.open;
  window.open = function (...args) {
    state.opens += 1;
    return origOpen.apply(this, args);
  };
  // the path is read while the click is dispatched: afterwards it is empty
  origAdd.call(window, "click", (ev) => { state.click = { ev, path: ev.composedPath() }; }, true);
  const SAME = new Set(["", "_self", "_top", "_parent"]);
  const countClick = () => {
    if (!state.click) return;
    const { ev, path } = state.click;
    state.click = null;
    if (ev.defaultPrevented) return;
    const link = path.find((n) => n instanceof Element && /^(A|AREA)$/.test(TAG_NAME.call(n)) &&
      hasAttr.call(n, "href"));
    const submit = link ? null : path.find((n) => n instanceof Element &&
      /^(BUTTON|INPUT)$/.test(TAG_NAME.call(n)) && n.form &&
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

  // Timers the page sets are counted so that a settle can wait for the short ones an
  // action started (a busy label swapped back after a delay, a drawer opened later).
  const origSetTimeout = window.setTimeout;
  const origClearTimeout = window.clearTimeout;
  const later = (fn, ms) => origSetTimeout.call(window, fn, ms);
  const cancel = (id) => origClearTimeout.call(window, id);
  const timers = new Map();
  const timerWaiters = new Set();
  const timerGone = (id) => {
    if (timers.delete(id)) for (const w of Array.from(timerWaiters)) w();
  };
  // Handlers known to run on the page's own schedule, and the timer handler running now.
  const backgroundHandlers = new WeakSet();
  let running = null;
  // Runs a timer's handler; in a background one, what it changes is taken as it happens.
  const runTimer = (handler, args, background) => {
    const outer = running;
    running = handler;
    if (background) state.background += 1;
    try { handler.apply(window, args); } finally {
      running = outer;
      if (background) {
        const records = observer.takeRecords();
        state.background -= 1;
        if (records.length) notify(records, true);
      } else {
        // the action's work goes on: what the handler planned for a later task (a
        // form's submission, a fetch) is given the quiet window to show itself
        state.lastWork = performance.now();
        for (const w of Array.from(state.sigWaiters)) w();
      }
    }
  };
  // `caller` (of a sloppy-mode caller only) tells a function that schedules itself
  // when first called directly, as a clock's first tick is.
  const schedulingItself = (wrapper, handler) => {
    try { return wrapper.caller === handler; } catch (e) { return false; }
  };
  window.setTimeout = function setTimeout(handler, delay, ...args) {
    if (typeof handler !== "function") return origSetTimeout.call(window, handler, delay, ...args);
    const ms = Math.max(0, Number(delay) || 0);
    if (!state.acting || state.background || running === handler ||
        schedulingItself(setTimeout, handler)) {
      backgroundHandlers.add(handler);
    }
    const background = backgroundHandlers.has(handler);
    if (!background) noteWork();
    const id = origSetTimeout.call(window, () => {
      try { runTimer(handler, args, background || backgroundHandlers.has(handler)); }
      finally { timerGone(id); }
    }, ms);
    if (!background) timers.set(id, { made: performance.now(), due: performance.now() + ms });
    return id;
  };
  const origSetInterval = window.setInterval;
  const origClearInterval = window.clearInterval;
  window.setInterval = function (handler, delay, ...args) {
    if (typeof handler !== "function") {
      return origSetInterval.call(window, handler, delay, ...args);
    }
    // an interval an action starts is waited for up to its first tick, as a timeout is:
    // a scheduler's delay (a debounced input sent 300 ms after the last key) is one
    const first = state.acting && !state.background && running !== handler;
    backgroundHandlers.add(handler);
    noteWork();
    const ms = Math.max(0, Number(delay) || 0);
    const id = origSetInterval.call(window, () => {
      try { runTimer(handler, args, true); } finally { timerGone(id); }
    }, delay);
    if (first) timers.set(id, { made: performance.now(), due: performance.now() + ms });
    return id;
  };
  window.clearInterval = function (id) {
    timerGone(id);
    return origClearInterval.call(window, id);
  };
  window.clearTimeout = function (id) {
    timerGone(id);
    return origClearTimeout.call(window, id);
  };
  // The page's ways of scheduling work, noted while an action is under way.
  const noting = (owner, name) => {
    const orig = owner && owner[name];
    if (typeof orig !== "function") return orig;
    owner[name] = function (...args) {
      noteWork();
      return orig.apply(this, args);
    };
    return orig;
  };
  // Frame callbacks: a chain of them an action started (a script's tween, as jQuery's
  // slideDown: each frame asks for the next) is the action's work until it has run as
  // long as an animation a settle waits for. Under a busy CPU frames come further apart
  // than the quiet window, so a settle waits for the chain's next frame, not only for
  // quiet. Frames a page asks for on its own (a loop running before the action, or one
  // that outlived its first second) are not waited for.
  const origFrame = window.requestAnimationFrame;
  const origCancelFrame = window.cancelAnimationFrame;
  const frame = origFrame.bind(window);
  const cancelFrame = origCancelFrame.bind(window);
  const OWN = { start: -Infinity };
  const pendingFrames = new Map();
  let inFrame = null;
  window.requestAnimationFrame = function requestAnimationFrame(callback) {
    noteWork();
    if (typeof callback !== "function") return origFrame.call(window, callback);
    const now = performance.now();
    let chain = inFrame || (state.acting && !state.background ? { start: now } : OWN);
    if (now - chain.start > ANIMATION_MS) chain = OWN;
    const id = origFrame.call(window, (t) => {
      pendingFrames.delete(id);
      const outer = inFrame;
      inFrame = chain;
      try { callback(t); } finally {
        inFrame = outer;
        if (chain !== OWN) {
          state.lastWork = performance.now();
          for (const w of Array.from(state.sigWaiters)) w();
        }
      }
    });
    if (chain !== OWN) pendingFrames.set(id, chain);
    return id;
  };
  window.cancelAnimationFrame = function cancelAnimationFrame(id) {
    pendingFrames.delete(id);
    return origCancelFrame.call(window, id);
  };
  // Whether a frame an action's chain asked for is yet to run.
  const framePending = () => {
    const now = performance.now();
    for (const chain of pendingFrames.values()) {
      if (now - chain.start <= ANIMATION_MS) return true;
    }
    return false;
  };
  noting(window, "requestIdleCallback");
  noting(window, "postMessage");
  noting(window, "fetch");
  for (const kind of ["MessagePort", "Worker", "BroadcastChannel"]) {
    const proto = window[kind] && window[kind].prototype;
    noting(proto, "postMessage");
  }
  // A socket's traffic since the page last sent on one: an app that answers over a
  // socket (its server runs the click) has answered once the socket has gone quiet.
  const socketSend = window.WebSocket && WebSocket.prototype.send;
  const heard = new WeakSet();
  if (typeof socketSend === "function") {
    WebSocket.prototype.send = function (...args) {
      noteWork();
      state.socketAt = performance.now();
      if (!heard.has(this)) {
        heard.add(this);
        this.addEventListener("message", () => { state.socketAt = performance.now(); });
      }
      return socketSend.apply(this, args);
    };
  }
  noting(window.XMLHttpRequest && XMLHttpRequest.prototype, "send");
  noting(History.prototype, "pushState");
  noting(History.prototype, "replaceState");
  for (const kind of ["ResizeObserver", "IntersectionObserver"]) {
    const proto = window[kind] && window[kind].prototype;
    const observe = proto && proto.observe;
    if (typeof observe !== "function") continue;
    proto.observe = function (...args) {
      state.framed = true;
      return observe.apply(this, args);
    };
  }
  const framed = () => state.framed || !!(window.onscroll || window.onresize || document.onscroll);

  // Timers set since the latest action began and due by `until`; one overdue by more
  // than a moment is taken as gone.
  const dueBy = (until) => {
    const now = performance.now();
    let last = -1;
    for (const [id, { made, due }] of timers) {
      if (due < now - 100) timers.delete(id);
      else if (due <= until && made >= state.begunAt) last = Math.max(last, due);
    }
    return last;
  };
  // Resolves once no timer due by `until` is left, or after `timeoutMs`.
  const timersDone = (until, timeoutMs) => new Promise((resolve) => {
    let recheck = 0;
    const limit = later(() => finish(), timeoutMs);
    const finish = () => {
      timerWaiters.delete(check);
      cancel(recheck);
      cancel(limit);
      resolve();
    };
    const check = () => {
      const last = dueBy(until);
      if (last < 0) { finish(); return; }
      cancel(recheck);
      recheck = later(check, Math.max(0, last - performance.now()) + 110);
    };
    timerWaiters.add(check);
    check();
  });

  // A navigation away from this document that began (a link, a form's submit(), a
  // location change; from an action or from a timer it set) is known here before the
  // surface sees its request: a settle that ends meanwhile says the page is leaving.
  // One the page cancels or turns into a same-document change (intercept) is not.
  let leaving = null;
  const intercepted = new WeakSet();
  const nav = window.navigation;
  if (nav && window.NavigateEvent) {
    const origIntercept = NavigateEvent.prototype.intercept;
    if (origIntercept) {
      NavigateEvent.prototype.intercept = function (...args) {
        intercepted.add(this);
        return origIntercept.apply(this, args);
      };
    }
    origAdd.call(nav, "navigate", (ev) => {
      if (ev.destination.sameDocument || ev.hashChange || ev.downloadRequest !== null) return;
      leaving = { ev, at: performance.now() };
    });
  }
  // Whether a navigation away began since the latest action did; asking forgets it.
  const leftForAnother = () => {
    const away = leaving !== null && leaving.at >= state.begunAt &&
      !leaving.ev.defaultPrevented && !intercepted.has(leaving.ev);
    leaving = null;
    return away;
  };

  // What an action can change in an element without touching the DOM (checked, the
  // options chosen, the value), with its ARIA states; values only as a hash.
  const hash = (text) => {
    let h = 0;
    for (let i = 0; i < text.length; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
    return h;
  };
  // What the document's fields hold, as one number: a script that sets another field's
  // value (a "Today" shortcut, a spinner's arrow, "same as billing") changes no node.
  const QUERY_ALL = Document.prototype.querySelectorAll;
  const valuesOf = () => {
    let h = 0;
    for (const f of QUERY_ALL.call(document, "input, textarea, select")) {
      let v;
      if (f instanceof HTMLSelectElement) v = String(f.selectedIndex);
      else if (f instanceof HTMLInputElement && (f.type === "checkbox" || f.type === "radio")) {
        v = f.checked ? "1" : "0";
      } else v = f.value || "";
      h = (Math.imul(h, 31) + hash(v)) | 0;
    }
    return h;
  };
  const ARIA_STATES = ["aria-checked", "aria-selected", "aria-expanded", "aria-pressed"];
  const stateOf = (el) => {
    if (!el) return null;
    const parts = ARIA_STATES.map((a) => Element.prototype.getAttribute.call(el, a));
    if (el instanceof HTMLInputElement) parts.push(el.checked, el.indeterminate, hash(el.value));
    else if (el instanceof HTMLTextAreaElement) parts.push(hash(el.value));
    else if (el instanceof HTMLSelectElement) {
      parts.push(Array.from(el.options, (o) => (o.selected ? "1" : "0")).join(""));
    }
    return JSON.stringify(parts);
  };

  const ANIMATION_MS = 1000;
  const api = {
    // `focus` identifies the focused element; `onTarget` tells whether focus sits in `target`;
    // `opens` counts what asked for a new window; `state` is `target`'s own state.
    // `begin`: an action is about to be taken (the page is acting until the settle ends).
    counters(target, begin) {
      if (begin) {
        state.acting = true;
        state.begunAt = performance.now();
      }
      countClick();
      let a = document.activeElement;
      while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      if (a && !state.ids.has(a)) state.ids.set(a, ++state.nextId);
      let onTarget = false;
      for (let n = a; target && n && !onTarget; n = PARENT_NODE.call(n) ||
        (n instanceof ShadowRoot ? n.host : null)) {
        if (n === target) onTarget = true;
      }
      const modal = !!document.querySelector(
        "dialog:modal, [role=dialog][aria-modal=true], [role=alertdialog]");
      return {
        mut: state.sig, focus: a ? state.ids.get(a) : 0, onTarget, modal, opens: state.opens,
        state: stateOf(target), vals: valuesOf(),
      };
    },
    isClicky(el) { return state.clicky.has(el); },
    refs: state.refs,
    resolve(ref) {
      const w = state.refs.get(ref);
      const el = w ? w.deref() : undefined;
      return el && CONNECTED.call(el) ? el : null;
    },
    // Resolves once no significant mutation has happened and no timer of the action has
    // run for `quietMs`, counted from `start` (a time on this document's clock) at the
    // earliest; false when `timeoutMs` runs out. With `early`, it resolves as soon as a
    // frame has rendered after the last such change when the action left no work for
    // later (see noteWork).
    quiet(quietMs, timeoutMs, start, early) {
      return new Promise((resolve) => {
        let timer = 0;
        let rendered = 0;
        let round = 0;
        const done = (ok) => {
          round += 1;
          state.sigWaiters.delete(arm);
          cancel(timer);
          cancel(limit);
          cancelFrame(rendered);
          resolve(ok);
        };
        // The page's tasks queued so far have run (and, on a page that reacts to frames,
        // a frame has rendered: a timeout queued from a frame callback runs after it).
        const frameThenTask = () => {
          const mine = ++round;
          const check = () => {
            if (mine === round && noWorkLeft()) done(true);
          };
          cancelFrame(rendered);
          if (framed()) rendered = frame(() => later(check, 0));
          else later(check, 0);
        };
        // quiet, unless a frame the action's chain asked for is still to come (asked
        // again until it runs or the chain ages: a hidden page renders no frames)
        const still = () => {
          if (framePending()) timer = later(still, quietMs);
          else done(true);
        };
        const arm = () => {
          cancel(timer);
          timer = later(still, quietMs);
          if (early) frameThenTask();
        };
        const limit = later(() => done(false), timeoutMs);
        state.sigWaiters.add(arm);
        const since = Math.max(start, state.lastSig, state.lastWork);
        timer = later(still, Math.max(0, quietMs - (performance.now() - since)));
        if (early) frameThenTask();
      });
    },
    // How many mutations this document has seen.
    mutations() { return state.mut; },
    // Resolves once no socket message has gone out or come in for `quietMs` (at once on a
    // page that never sent on one), or after `timeoutMs`.
    socketsQuiet(quietMs, timeoutMs) {
      // quiet from the call on: a value the page sends a moment later (a debounced
      // input) is waited for too
      const start = performance.now();
      const end = start + timeoutMs;
      return new Promise((resolve) => {
        const check = () => {
          const now = performance.now();
          if (state.socketAt === undefined) return resolve(true);
          const at = Math.max(state.socketAt, start);
          if (now - at >= quietMs || now >= end) return resolve(true);
          later(check, Math.min(at + quietMs, end) - now + 1);
        };
        check();
      });
    },
    // Whether the page scheduled work for later since the latest action began.
    workLeft() { return !noWorkLeft(); },
    // Resolves true on the next mutation (at once when more than `since` mutations
    // have happened already), false after `timeoutMs`.
    changed(timeoutMs, since) {
      if (since !== null && since !== undefined && state.mut > since) return Promise.resolve(true);
      return new Promise((resolve) => {
        const hit = () => { state.waiters.delete(hit); cancel(limit); resolve(true); };
        const limit = later(() => { state.waiters.delete(hit); resolve(false); }, timeoutMs);
        state.waiters.add(hit);
      });
    },
    // Resolves when running animations and transitions that end within `ANIMATION_MS`
    // have finished (endless or long ones are decoration, not the page getting ready).
    animations(timeoutMs) {
      const playing = (document.getAnimations ? document.getAnimations() : []).filter((a) => {
        if (a.playState !== "running") return false;
        const t = a.effect && a.effect.getComputedTiming ? a.effect.getComputedTiming() : null;
        if (!t) return true;
        if (!Number.isFinite(t.endTime)) return false;
        const at = Number(a.currentTime) || 0;
        return t.endTime - at <= ANIMATION_MS;
      });
      if (!playing.length) return Promise.resolve(true);
      const all = Promise.all(playing.map((a) => a.finished.catch(() => null))).then(() => true);
      const limit = new Promise((r) => later(() => r(false), timeoutMs));
      return Promise.race([all, limit]);
    },
    // One round trip for a settle: DOM quiet, then animations done, then the counters;
    // the page is idle from then on. `leaving`: a navigation to another document began
    // since the action (its document is yet to come).
    // `mutBefore` is the mutation count before an action (null when there was none):
    // an action that changed nothing yet gets `graceMs` for a late change to show;
    // otherwise the DOM must stay still for `quietMs` after its last change.
    // Timers the page set that fall due within `timersMs` of the start are waited for.
    // Either window ends after one rendered frame when the action left no work for later.
    async settle(quietMs, graceMs, mutBefore, timeoutMs, target, timersMs) {
      const start = performance.now();
      const left = () => Math.max(1, timeoutMs - (performance.now() - start));
      const until = start + (timersMs || 0);
      // after an action, or while a new document loads; a page idle since its last
      // settle may be changing from work that was never noted
      const early = state.acting;
      let ok;
      if (mutBefore !== null && state.sig === mutBefore) {
        ok = await api.quiet(graceMs, timeoutMs, start, early);
        if (ok && state.sig !== mutBefore) ok = await api.quiet(quietMs, left(), 0, early);
      } else {
        ok = await api.quiet(quietMs, timeoutMs, 0, early);
      }
      while (ok && dueBy(until) >= 0 && performance.now() - start < timeoutMs) {
        await timersDone(until, left());
        ok = await api.quiet(quietMs, left(), 0);
      }
      const away = leftForAnother();
      const still = away || await api.animations(left());
      state.acting = false;
      return {
        ok: ok && still, title: document.title, counters: api.counters(target), leaving: away,
      };
    },
  };
  Object.defineProperty(window, "__gofer", { value: api, enumerable: false });

  // The element behind a ref, handed to Playwright's own (isolated) world, which
  // acts on it: that world asks with an event named "<bridge>?" carrying the ref, and
  // the element answers with "<bridge>!", whose path starts at it. Only events pass
  // (no attribute, no mutation), under a name the page cannot know.
  const BRIDGE = "__GOFER_BRIDGE__";
  const DISPATCH = EventTarget.prototype.dispatchEvent;
  const Custom = CustomEvent;
  // Whether a click on `el` (a hidden or covered radio or checkbox, or a list's input hidden
  // under the box its library draws) goes to what a person clicks instead: its label, or the
  // box drawn over it, left under the ref "proxy".
  // A field whose own label lies over its middle (a floating caption over an empty input):
  // the label takes the click where the field is, and hands it to the field.
  const ownLabelOver = (el) => {
    const labels = Array.from(el.labels || []);
    if (!labels.length) return false;
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || hit === el || el.contains(hit) || hit.closest("a, button")) return false;
    if (!labels.some((l) => l.contains(hit))) return false;
    window.__gofer.refs.set("proxy", new WeakRef(hit));
    return true;
  };
  api.proxy = (el) => {
    const choice = el instanceof HTMLInputElement && ["checkbox", "radio"].includes(el.type);
    const role = (el.getAttribute("role") || "").toLowerCase();
    const listing = el instanceof HTMLSelectElement || role === "combobox" ||
      el.getAttribute("aria-haspopup") === "listbox";
    const shown = (n) => n.checkVisibility({ opacityProperty: true, visibilityProperty: true }) &&
      n.getBoundingClientRect().width > 1 && n.getBoundingClientRect().height > 1;
    if (!choice && !listing && ["switch", "checkbox", "radio"].includes(role) && el.shadowRoot &&
        !el.textContent.trim()) {
      // a switch whose box is wider than what it draws in its shadow root (Bokeh's): the
      // track it draws takes the click, as a person's does, not the empty middle of the box
      const width = el.getBoundingClientRect().width;
      const drawn = Array.from(el.shadowRoot.querySelectorAll("*")).filter((n) =>
        !(n instanceof HTMLStyleElement) && shown(n) && n.getBoundingClientRect().width < width * 0.6);
      const area = (n) => n.getBoundingClientRect().width * n.getBoundingClientRect().height;
      const track = drawn.sort((a, b) => area(b) - area(a))[0];
      if (!track) return false;
      window.__gofer.refs.set("proxy", new WeakRef(track));
      return true;
    }
    if (!choice && !listing) return ownLabelOver(el);
    let r = el.getBoundingClientRect();
    if (r.bottom < 0 || r.top > innerHeight) {
      el.scrollIntoView({ block: "center" });
      r = el.getBoundingClientRect();
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const drawn = shown(el) && r.width >= 4 && r.height >= 4;
    if (drawn && (!hit || hit === el || el.contains(hit))) return false;
    if (!choice) {
      // a list's input hidden under the box its library draws (a placeholder over it,
      // or clipped to a pixel inside it): that box takes the click, as a person's does
      for (let n = el.parentElement, i = 0; n && i < 4; n = n.parentElement, i++) {
        const b = n.getBoundingClientRect();
        if (b.height > 120 || n.matches("form, fieldset, label, body")) break;
        if (!shown(n) || b.width < 16 || b.height < 12) continue;
        const at = hit && n.contains(hit) && !hit.closest("a") ? hit : n;
        window.__gofer.refs.set("proxy", new WeakRef(at));
        return true;
      }
      return false;
    }
    const labels = Array.from(el.labels || []);
    // what its own label draws over it takes the click where the input is (the browser
    // hands a click in a label to its input); never the label's middle, which may be a link
    if (hit && labels.some((l) => l.contains(hit)) && !hit.closest("a, button")) {
      window.__gofer.refs.set("proxy", new WeakRef(hit));
      return true;
    }
    const plain = (l) => shown(l) &&
      Array.from(l.querySelectorAll("a, button, input, select, textarea")).every((n) => n === el);
    const proxy = labels.find(plain) ||
      (hit && el.parentElement && el.parentElement.contains(hit) ? hit : null);
    if (!proxy) return false;
    window.__gofer.refs.set("proxy", new WeakRef(proxy));
    return true;
  };
  // Asked as "^<n>:<how>:<ref>", the element is the target of the surface's n-th action:
  // the first asking begins the action (the counters before it are kept for the settle
  // after it, see `begun`) and fixes the element answered from then on; with `click`
  // how, what a person clicks for a hidden or covered choice (see `proxy`).
  let begun = null;
  const answer = (detail) => {
    const m = /^\^(\d+):(\w*):(.*)$/.exec(detail);
    if (!m) return api.resolve(detail);
    if (!begun || begun.n !== m[1]) {
      const el = api.resolve(m[3]);
      begun = { n: m[1], before: api.counters(el, true), at: null };
      const at = el && m[2] === "click" && api.proxy(el) ? api.resolve("proxy") : el;
      if (at) begun.at = new WeakRef(at);
    }
    const at = begun.at && begun.at.deref();
    return at && CONNECTED.call(at) ? at : null;
  };
  // The counters taken as the n-th action began (null when it never began here).
  api.begun = (n) => (begun && begun.n === String(n) ? begun.before : null);
  origAdd.call(window, BRIDGE + "?", (e) => {
    const el = answer(String(e.detail));
    if (el) DISPATCH.call(el, new Custom(BRIDGE + "!", { bubbles: true, composed: true }));
  }, true);
})();
