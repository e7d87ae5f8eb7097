// gofer's live view: a person takes over a paused task's browser page.
// Include once per page with <script src="/static/gofer/live.js" defer>; it starts
// every element marked data-gofer-live (the HTML of gofer.api.live_view.live_fragment).
// Frames arrive as JPEG messages on the socket; clicks, keys and text go back as
// JSON. Nothing typed is kept here or written anywhere but the socket.
(function () {
  "use strict";

  var IGNORED_KEYS = { Dead: 1, Unidentified: 1, Process: 1, Compose: 1 };
  var MOVE_EVERY_MS = 50;
  var MAX_ZOOM = 4;
  var ZOOM_STEP = 2;

  function buttonName(number) {
    return number === 1 ? "middle" : number === 2 ? "right" : "left";
  }

  function modifiers(event) {
    return { alt: event.altKey, ctrl: event.ctrlKey, meta: event.metaKey,
             shift: event.shiftKey };
  }

  function assign(target, source) {
    for (var key in source) { target[key] = source[key]; }
    return target;
  }

  function start(root) {
    var image = root.querySelector("[data-live-image]");
    var screen = root.querySelector("[data-live-screen]");
    var status = root.querySelector("[data-live-status]");
    var startButton = root.querySelector("[data-live-start]");
    var stopButton = root.querySelector("[data-live-stop]");
    var typeForm = root.querySelector("[data-live-type]");
    var typeField = typeForm ? typeForm.querySelector("input") : null;
    var typeLabel = root.querySelector("[data-live-type-label]");
    var view = root.querySelector("[data-live-view]");
    var originText = root.querySelector("[data-live-origin]");
    var zoomLevel = root.querySelector("[data-live-zoom-level]");
    var zoom = 1;
    var socket = null;
    var shown = null;
    var lastMove = 0;
    var held = "none";
    // The page's width in pixels, from the last frame shown: while the next frame loads
    // the picture reports no size of its own.
    var pageWidth = 0;
    image.addEventListener("load", function () { pageWidth = image.naturalWidth; });

    function say(text) { status.textContent = text; }

    function send(message) {
      if (socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify(message));
      }
    }

    function address() {
      var url = new URL(root.getAttribute("data-live-socket"), window.location.href);
      url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
      return url.href;
    }

    // Zoom: the picture is drawn wider than its box, which scrolls; a point is read off
    // the picture's own box, so a tap lands where it is aimed at any zoom.
    function zoomTo(level, cx, cy) {
      var box = screen.getBoundingClientRect();
      var ox = cx === undefined ? box.width / 2 : cx - box.left;
      var oy = cy === undefined ? box.height / 2 : cy - box.top;
      var fx = (screen.scrollLeft + ox) / (image.offsetWidth || 1);
      var fy = (screen.scrollTop + oy) / (image.offsetHeight || 1);
      zoom = Math.min(MAX_ZOOM, Math.max(1, level));
      image.style.width = (zoom * 100) + "%";
      screen.scrollLeft = fx * image.offsetWidth - ox;
      screen.scrollTop = fy * image.offsetHeight - oy;
      zoomLevel.textContent = Math.round(zoom * 100) + "%";
    }
    var zoomButtons = root.querySelectorAll("[data-live-zoom]");
    for (var z = 0; z < zoomButtons.length; z++) {
      zoomButtons[z].addEventListener("click", function (event) {
        var how = event.currentTarget.getAttribute("data-live-zoom");
        zoomTo(how === "in" ? zoom * ZOOM_STEP : zoom / ZOOM_STEP);
      });
    }

    // Typing shows what is typed, except into the page's password fields.
    function focusOn(message) {
      if (!typeField) { return; }
      typeField.type = !message.field || message.hidden ? "password" : "text";
      typeLabel.textContent = message.field
        ? "Type into “" + message.field + "”" + (message.hidden ? " (hidden as you type)" : "")
        : "Type into the page's focused field (hidden as you type)";
    }

    function showing(open) {
      view.hidden = !open;
      if (typeForm) { typeForm.hidden = !open; }
      startButton.hidden = open;
      stopButton.hidden = !open;
    }

    function point(event) {
      var box = image.getBoundingClientRect();
      var x = (event.clientX - box.left) / (box.width || 1);
      var y = (event.clientY - box.top) / (box.height || 1);
      return { x: Math.min(1, Math.max(0, x)), y: Math.min(1, Math.max(0, y)) };
    }

    function frame(blob) {
      var url = URL.createObjectURL(blob);
      var previous = shown;
      shown = url;
      image.src = url;
      if (previous) { URL.revokeObjectURL(previous); }
    }

    // The task's page opened a dialog: the person answers it in one of their own.
    function answer(dialog) {
      var words = "The task's page says: " + dialog.message;
      var reply = { type: "dialog", accept: true, text: "" };
      say(words);
      if (dialog.kind === "alert") {
        window.alert(words);
      } else if (dialog.kind === "prompt") {
        var given = window.prompt(words, dialog["default"] || "");
        reply.accept = given !== null;
        reply.text = given || "";
      } else if (dialog.kind === "beforeunload") {
        reply.accept = window.confirm("The task's page asks whether to leave it. Leave it?");
      } else {
        reply.accept = window.confirm(words);
      }
      send(reply);
      screen.focus();
    }

    function open() {
      if (socket) { return; }
      say("Opening the task's browser…");
      socket = new WebSocket(address());
      socket.binaryType = "blob";
      socket.onopen = function () {
        showing(true);
        say("You have the task's browser. Hand the task back when you are done.");
        screen.focus();
      };
      socket.onmessage = function (event) {
        if (typeof event.data !== "string") { frame(event.data); return; }
        var message = JSON.parse(event.data);
        if (message.type === "dialog") { answer(message); return; }
        if (message.type === "ready" || message.type === "page") { originText.textContent = message.origin || "no page"; return; }
        if (message.type === "focus") { focusOn(message); return; }
        if (message.type === "ended" || message.type === "error") { say(message.message); }
      };
      socket.onclose = function (event) {
        var hadIt = !view.hidden;
        socket = null;
        showing(false);
        if (!hadIt) {
          say("The task's browser cannot be taken over now (it may be running, or its " +
              "browser was let go).");
        } else if (!status.textContent || event.code !== 1000) {
          say("The live view closed.");
        }
      };
    }

    function pointer(action, event, extra) {
      send(assign(assign(assign({ type: "pointer", action: action }, point(event)),
                         modifiers(event)), extra || {}));
    }

    // A finger taps to click; one drags the zoomed picture about (or, unzoomed, scrolls
    // the page); two pinch to zoom. A mouse or pen presses as it is.
    var touch = null;
    var fingers = {};
    var pinch = null;

    function fingerCount() { return Object.keys(fingers).length; }

    function spread() {
      var ids = Object.keys(fingers);
      var a = fingers[ids[0]];
      var b = fingers[ids[1]];
      return { d: Math.hypot(a.x - b.x, a.y - b.y) || 1, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
    }

    image.addEventListener("pointerdown", function (event) {
      event.preventDefault();
      screen.focus({ preventScroll: true });
      try { image.setPointerCapture(event.pointerId); } catch (gone) { /* lifted already */ }
      if (event.pointerType === "touch") {
        fingers[event.pointerId] = { x: event.clientX, y: event.clientY };
        if (fingerCount() === 2) {
          var s = spread();
          pinch = { d: s.d, zoom: zoom };
          touch = null;
        } else if (fingerCount() === 1) {
          touch = { x: event.clientX, y: event.clientY, dragged: false };
        }
        return;
      }
      held = buttonName(event.button);
      pointer("down", event, { button: held, clicks: Math.max(1, Math.min(3, event.detail || 1)) });
    });
    function lifted(event) {
      delete fingers[event.pointerId];
      if (fingerCount() < 2) { pinch = null; }
    }
    image.addEventListener("pointerup", function (event) {
      event.preventDefault();
      if (event.pointerType === "touch") {
        var was = touch;
        lifted(event);
        if (was && !was.dragged && fingerCount() === 0) {
          pointer("down", event, { button: "left", clicks: 1 });
          pointer("up", event, { button: "left", clicks: 1 });
        }
        touch = null;
        return;
      }
      pointer("up", event, { button: buttonName(event.button),
                             clicks: Math.max(1, Math.min(3, event.detail || 1)) });
      held = "none";
    });
    image.addEventListener("pointercancel", function (event) {
      lifted(event);
      touch = null;
      held = "none";
    });
    image.addEventListener("pointermove", function (event) {
      if (event.pointerType === "touch") {
        if (!fingers[event.pointerId]) { return; }
        fingers[event.pointerId] = { x: event.clientX, y: event.clientY };
        if (pinch && fingerCount() === 2) {
          var s = spread();
          zoomTo(pinch.zoom * s.d / pinch.d, s.x, s.y);
          return;
        }
        if (!touch) { return; }
        var dx = touch.x - event.clientX;
        var dy = touch.y - event.clientY;
        if (!touch.dragged && Math.abs(dx) + Math.abs(dy) < 10) { return; }
        touch.dragged = true;
        touch.x = event.clientX;
        touch.y = event.clientY;
        if (zoom > 1) {
          screen.scrollLeft += dx;
          screen.scrollTop += dy;
          return;
        }
        var box = image.getBoundingClientRect();
        var width = image.naturalWidth || pageWidth;
        var scale = width && box.width ? width / box.width : 1;
        pointer("wheel", event, { button: "none", dx: dx * scale, dy: dy * scale });
        return;
      }
      var now = Date.now();
      if (now - lastMove < MOVE_EVERY_MS) { return; }
      lastMove = now;
      pointer("move", event, { button: held });
    });
    image.addEventListener("wheel", function (event) {
      event.preventDefault();
      var scale = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? 800 : 1;
      pointer("wheel", event, { button: "none", dx: event.deltaX * scale,
                                dy: event.deltaY * scale });
    }, { passive: false });
    image.addEventListener("contextmenu", function (event) { event.preventDefault(); });
    image.addEventListener("dragstart", function (event) { event.preventDefault(); });

    function key(action, event) {
      if (event.isComposing || IGNORED_KEYS[event.key]) { return false; }
      if (action === "down" && event.key === "Escape" && event.shiftKey) {
        event.preventDefault();
        stopButton.focus();  // the way out for a keyboard
        return false;
      }
      event.preventDefault();
      send(assign({ type: "key", action: action, key: event.key, code: event.code },
                  modifiers(event)));
      return true;
    }
    // Keys down on the page are let up when the picture loses focus, so none sticks.
    var down = {};
    screen.addEventListener("keydown", function (event) {
      if (key("down", event)) { down[event.key] = event.code; }
    });
    screen.addEventListener("keyup", function (event) {
      key("up", event);
      delete down[event.key];
    });
    screen.addEventListener("blur", function () {
      for (var name in down) {
        send({ type: "key", action: "up", key: name, code: down[name] });
      }
      down = {};
    });
    screen.addEventListener("paste", function (event) {
      event.preventDefault();
      var text = (event.clipboardData || window.clipboardData).getData("text");
      if (text) { send({ type: "text", text: text }); }
    });

    if (typeForm) {
      typeForm.addEventListener("submit", function (event) {
        event.preventDefault();
        if (typeField.value) { send({ type: "text", text: typeField.value }); }
        typeField.value = "";
        say("Typed into the page.");
      });
    }

    startButton.addEventListener("click", open);
    stopButton.addEventListener("click", function () {
      if (socket) { socket.close(1000); }
      say("You stopped taking over; the task's browser waits for you.");
    });
  }

  // "I've done it" and the other hand-back buttons answer in place: the live view stays
  // open when the task says it is still blocked.
  function handBack(section) {
    var said = section.querySelector("[data-hand-back-said]");
    var forms = section.querySelectorAll("form");
    for (var i = 0; i < forms.length; i++) {
      forms[i].addEventListener("submit", function (event) {
        var form = event.currentTarget;
        if (!window.fetch || !window.FormData) { return; }
        event.preventDefault();
        var button = form.querySelector("button");
        button.disabled = true;
        said.textContent = "Handing the task back…";
        fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin",
                             headers: { "X-Gofer-Answer": "json" } })
          .then(function (response) { return response.json(); })
          .then(function (answer) {
            if (answer.ok) { window.location.assign(answer.next); return; }
            said.textContent = answer.message;
            button.disabled = false;
          })
          .catch(function () {
            said.textContent = "That did not reach the server; try again.";
            button.disabled = false;
          });
      });
    }
  }

  function all() {
    var roots = document.querySelectorAll("[data-gofer-live]");
    for (var i = 0; i < roots.length; i++) { start(roots[i]); }
    var backs = document.querySelectorAll("[data-hand-back]");
    for (var j = 0; j < backs.length; j++) { handBack(backs[j]); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", all);
  } else {
    all();
  }
})();
