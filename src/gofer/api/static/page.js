// gofer's task page: follow the task's event stream and swap in the part of the page
// that changed, with no reload. The forms work without this script.
(function () {
  "use strict";
  var main = document.getElementById("main");
  if (!main || !main.dataset.stream || !window.EventSource) { return; }
  var statusLine = document.getElementById("status-line");
  var body = function () { return document.getElementById("task-body"); };
  var last = body() ? body().dataset.signature : "";
  var fetching = null;
  var again = false;
  var failures = 0;

  function signature(view) {
    var step = view.step ? view.step.path : "";
    return [view.status.state, step, String(Math.round(view.progress * 1000)),
            view.summary].join("|");
  }

  function refresh() {
    if (fetching) { again = true; return; }
    fetching = fetch(main.dataset.part, {credentials: "same-origin",
                                         headers: {"Accept": "text/html"}})
      .then(function (response) {
        if (!response.ok) { throw new Error("the page part answered " + response.status); }
        return response.text();
      })
      .then(function (html) {
        var old = body();
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var fresh = holder.querySelector("#task-body");
        if (!old || !fresh) { return; }
        var hadFocus = old.contains(document.activeElement);
        old.replaceWith(fresh);
        last = fresh.dataset.signature;
        if (statusLine && statusLine.textContent !== fresh.dataset.words) {
          statusLine.textContent = fresh.dataset.words;
        }
        if (hadFocus) {
          var target = fresh.querySelector("#needs-h") || fresh.querySelector("h2");
          if (target) { target.setAttribute("tabindex", "-1"); target.focus(); }
        }
        document.dispatchEvent(new CustomEvent("gofer:updated", {detail: {task: main.dataset.task}}));
        failures = 0;
        if (!fresh.dataset.live) { stream.close(); }
      })
      .catch(function () {
        // The view that asked may be the task's last for a while (a stop): ask again,
        // later each time, rather than leave the page showing what is no longer so.
        failures += 1;
        if (failures <= 6) { setTimeout(refresh, 500 * failures); }
      })
      .then(function () {
        fetching = null;
        if (again) { again = false; refresh(); }
      });
  }

  var stream = null;
  var reopens = 0;

  function follow() {
    stream = new EventSource(main.dataset.stream);
    var dropped = false;
    stream.addEventListener("view", function (event) {
      var view;
      try { view = JSON.parse(event.data); } catch (e) { return; }
      var sig = signature(view);
      if (sig !== last) { last = sig; refresh(); }
    });
    stream.addEventListener("open", function () {
      reopens = 0;
      // Back after a dropped connection: what changed meanwhile was never sent.
      if (dropped) { dropped = false; refresh(); }
    });
    stream.addEventListener("error", function () {
      dropped = true;
      // The stream ends once the task can change no more; the browser retries otherwise.
      if (body() && !body().dataset.live) { stream.close(); return; }
      // A stream the server refused (an error answer, not a dropped connection) is one
      // the browser never retries: open a new one, later each time.
      if (stream.readyState === EventSource.CLOSED) {
        reopens += 1;
        setTimeout(function () { refresh(); follow(); }, Math.min(1000 * reopens, 10000));
      }
    });
  }
  follow();
})();
