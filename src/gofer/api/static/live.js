// gofer's live view: a person takes over a paused task's browser page.
// Include once per page with <script src="/static/gofer/live.js" defer>; it starts
// every element marked data-gofer-live (the HTML of gofer.api.live.live_fragment).
// Frames arrive as JPEG messages on the socket; clicks, keys and text go back as
// JSON. Nothing typed is kept here or written anywhere but the socket.
(function () {
  "use strict";

  var IGNORED_KEYS = { Dead: 1, Unidentified: 1, Process: 1, Compose: 1 };
  var MOVE_EVERY_MS = 50;

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
    var socket = null;
    var shown = null;
    var lastMove = 0;
    var held = "none";

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

    function showing(open) {
      screen.hidden = !open;
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
        say("You have the task's browser. Click on the picture and type; " +
            "hand the task back when you are done.");
        screen.focus();
      };
      socket.onmessage = function (event) {
        if (typeof event.data !== "string") { frame(event.data); return; }
        var message = JSON.parse(event.data);
        if (message.type === "dialog") { answer(message); return; }
        if (message.type === "ended" || message.type === "error") { say(message.message); }
      };
      socket.onclose = function (event) {
        var hadIt = !screen.hidden;
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

    // A finger taps to click and drags to scroll; a mouse or pen presses as it is.
    var touch = null;

    image.addEventListener("pointerdown", function (event) {
      event.preventDefault();
      screen.focus();
      try { image.setPointerCapture(event.pointerId); } catch (gone) { /* lifted already */ }
      if (event.pointerType === "touch") {
        touch = { x: event.clientX, y: event.clientY, dragged: false };
        return;
      }
      held = buttonName(event.button);
      pointer("down", event, { button: held, clicks: Math.max(1, Math.min(3, event.detail || 1)) });
    });
    image.addEventListener("pointerup", function (event) {
      event.preventDefault();
      if (event.pointerType === "touch") {
        if (touch && !touch.dragged) {
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
    image.addEventListener("pointercancel", function () { touch = null; held = "none"; });
    image.addEventListener("pointermove", function (event) {
      if (event.pointerType === "touch") {
        if (!touch) { return; }
        var dx = touch.x - event.clientX;
        var dy = touch.y - event.clientY;
        if (!touch.dragged && Math.abs(dx) + Math.abs(dy) < 10) { return; }
        touch.dragged = true;
        touch.x = event.clientX;
        touch.y = event.clientY;
        var box = image.getBoundingClientRect();
        var scale = image.naturalWidth && box.width ? image.naturalWidth / box.width : 1;
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

  function all() {
    var roots = document.querySelectorAll("[data-gofer-live]");
    for (var i = 0; i < roots.length; i++) { start(roots[i]); }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", all);
  } else {
    all();
  }
})();
