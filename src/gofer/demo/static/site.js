/* SkyLark: the site's scripts (no frameworks, no network). */
(function () {
  "use strict";

  var MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
    "September", "October", "November", "December"];
  var DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $all(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function iso(d) { return d.getFullYear() + "-" + pad(d.getMonth() + 1) + "-" + pad(d.getDate()); }
  function parseIso(text) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text || "");
    return m ? new Date(+m[1], +m[2] - 1, +m[3]) : null;
  }
  function shortDate(d) {
    return DAYS[d.getDay()].slice(0, 3) + ", " + d.getDate() + " " +
      MONTHS[d.getMonth()].slice(0, 3) + " " + d.getFullYear();
  }
  function longDate(d) {
    return DAYS[d.getDay()] + ", " + d.getDate() + " " + MONTHS[d.getMonth()] + " " + d.getFullYear();
  }

  /* ---- cookie banner */
  $all("[data-consent]").forEach(function (button) {
    button.addEventListener("click", function () {
      document.cookie = "skylark_consent=" + button.getAttribute("data-consent") +
        "; path=/; max-age=31536000; samesite=lax";
      var banner = $("#cookie-banner");
      if (banner) { banner.remove(); }
    });
  });

  /* ---- city comboboxes */
  function setupCombobox(box) {
    var input = $("[role=combobox]", box);
    var list = $("[role=listbox]", box);
    var code = $("input[type=hidden]", box);
    var options = $all("[role=option]", list);
    var active = -1;

    function visible() { return options.filter(function (o) { return !o.hidden; }); }
    function open() {
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }
    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      input.removeAttribute("aria-activedescendant");
      setActive(-1);
    }
    function setActive(index) {
      var shown = visible();
      options.forEach(function (o) { o.setAttribute("aria-selected", "false"); o.classList.remove("active"); });
      active = index;
      if (index >= 0 && index < shown.length) {
        shown[index].setAttribute("aria-selected", "true");
        shown[index].classList.add("active");
        input.setAttribute("aria-activedescendant", shown[index].id);
        shown[index].scrollIntoView({ block: "nearest" });
      }
    }
    function filter() {
      var words = input.value.trim().toLowerCase();
      options.forEach(function (o) {
        var text = o.textContent.toLowerCase();
        o.hidden = words !== "" && text.indexOf(words) === -1 &&
          o.getAttribute("data-code").toLowerCase() !== words;
      });
      setActive(-1);
    }
    function pick(option) {
      input.value = option.getAttribute("data-short");
      code.value = option.getAttribute("data-code");
      input.removeAttribute("aria-invalid");
      var error = $(".field-error", box);
      if (error) { error.remove(); }
      close();
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }

    input.addEventListener("focus", function () {
      if (!code.value) { filter(); }
      else { options.forEach(function (o) { o.hidden = false; }); }
      open();
    });
    input.addEventListener("click", open);
    input.addEventListener("input", function () {
      code.value = "";
      filter();
      open();
    });
    input.addEventListener("keydown", function (ev) {
      var shown = visible();
      if (ev.key === "ArrowDown") {
        ev.preventDefault(); open(); setActive(Math.min(active + 1, shown.length - 1));
      } else if (ev.key === "ArrowUp") {
        ev.preventDefault(); setActive(Math.max(active - 1, 0));
      } else if (ev.key === "Enter") {
        if (!list.hidden && (active >= 0 || shown.length === 1)) {
          ev.preventDefault(); pick(shown[active >= 0 ? active : 0]);
        }
      } else if (ev.key === "Escape") {
        close();
      } else if (ev.key === "Tab") {
        if (!code.value && shown.length === 1 && input.value.trim()) { pick(shown[0]); }
        close();
      }
    });
    options.forEach(function (option) {
      option.addEventListener("mousedown", function (ev) { ev.preventDefault(); });
      option.addEventListener("click", function () { pick(option); });
    });
    document.addEventListener("click", function (ev) {
      if (ev.composedPath().indexOf(box) === -1) { close(); }
    });
    box.resolve = function () {
      if (code.value) { return true; }
      var typed = input.value.trim().toLowerCase();
      var match = options.filter(function (o) {
        var short = o.getAttribute("data-short").toLowerCase();
        return typed && (short === typed || short.indexOf(typed + " (") === 0 ||
          o.getAttribute("data-code").toLowerCase() === typed);
      });
      if (match.length === 1) { pick(match[0]); return true; }
      return false;
    };
  }

  /* ---- date pickers */
  var form = $("#search-form");
  var today = form ? parseIso(form.getAttribute("data-today")) : new Date();
  var lastDay = new Date(today.getFullYear() + 1, today.getMonth(), today.getDate());

  function setupDatePicker(field) {
    var input = $(".date-input", field);
    var hidden = $("input[type=hidden]", field);
    var popup = $(".calendar", field);
    var label = $("label", field).textContent;
    var shown = null;

    function minDay() {
      if (field.getAttribute("data-datepicker") === "return") {
        var dep = parseIso($("input[name=date]").value);
        if (dep) { return dep; }
      }
      return today;
    }
    function render() {
      var first = new Date(shown.getFullYear(), shown.getMonth(), 1);
      var min = minDay();
      var selected = hidden.value;
      var atStart = shown <= new Date(min.getFullYear(), min.getMonth(), 1);
      var atEnd = shown >= new Date(lastDay.getFullYear(), lastDay.getMonth(), 1);
      var html = '<div class="cal-head">' +
        '<button type="button" class="cal-nav" data-step="-1" aria-label="Previous month"' +
        (atStart ? " disabled" : "") + '>‹</button>' +
        '<h2 class="cal-title" aria-live="polite">' + MONTHS[shown.getMonth()] + " " + shown.getFullYear() + "</h2>" +
        '<button type="button" class="cal-nav" data-step="1" aria-label="Next month"' +
        (atEnd ? " disabled" : "") + '>›</button></div>' +
        '<table class="cal-grid" role="grid"><thead><tr>';
      ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"].forEach(function (d, i) {
        html += '<th scope="col" abbr="' + DAYS[(i + 1) % 7] + '">' + d + "</th>";
      });
      html += "</tr></thead><tbody><tr>";
      var lead = (first.getDay() + 6) % 7;
      for (var i = 0; i < lead; i++) { html += "<td></td>"; }
      var cell = lead;
      var day = new Date(first);
      while (day.getMonth() === first.getMonth()) {
        var off = day < min || day > lastDay;
        var isSel = iso(day) === selected;
        html += '<td role="gridcell"' + (isSel ? ' aria-selected="true"' : "") + '>' +
          '<button type="button" class="cal-day' + (isSel ? " selected" : "") +
          (iso(day) === iso(today) ? " today" : "") + '" data-date="' + iso(day) +
          '" aria-label="' + longDate(day) + '"' + (off ? " disabled" : "") + ">" +
          day.getDate() + "</button></td>";
        cell++;
        if (cell % 7 === 0) { html += "</tr><tr>"; }
        day.setDate(day.getDate() + 1);
      }
      html += '</tr></tbody></table><div class="cal-foot"><span class="muted small">Fares shown per adult</span>' +
        '<button type="button" class="btn-link cal-close">Close</button></div>';
      popup.innerHTML = html;
    }
    function open() {
      if (!popup.hidden) { return; }
      $all(".calendar").forEach(function (other) { if (other !== popup) { other.hidden = true; } });
      var base = parseIso(hidden.value) || minDay();
      shown = new Date(base.getFullYear(), base.getMonth(), 1);
      render();
      popup.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }
    function close() {
      popup.hidden = true;
      input.setAttribute("aria-expanded", "false");
    }
    input.addEventListener("click", open);
    input.addEventListener("focus", open);
    input.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" || ev.key === " " || ev.key === "ArrowDown") { ev.preventDefault(); open(); }
      if (ev.key === "Escape") { close(); }
    });
    popup.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape") { close(); input.focus(); }
    });
    popup.addEventListener("click", function (ev) {
      var target = ev.target.closest("button");
      if (!target || target.disabled) { return; }
      if (target.classList.contains("cal-nav")) {
        shown = new Date(shown.getFullYear(), shown.getMonth() + Number(target.getAttribute("data-step")), 1);
        render();
      } else if (target.classList.contains("cal-close")) {
        close();
      } else if (target.hasAttribute("data-date")) {
        var picked = parseIso(target.getAttribute("data-date"));
        hidden.value = iso(picked);
        input.value = shortDate(picked);
        input.removeAttribute("aria-invalid");
        var error = $(".field-error", field);
        if (error) { error.remove(); }
        close();
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
    document.addEventListener("click", function (ev) {
      if (ev.composedPath().indexOf(field) === -1) { close(); }
    });
    field.labelText = label;
  }

  if (form) {
    var boxes = $all("[data-combobox]", form);
    boxes.forEach(setupCombobox);
    $all("[data-datepicker]", form).forEach(setupDatePicker);

    var returnField = $("[data-datepicker=return]", form);
    $all("input[name=trip]", form).forEach(function (radio) {
      radio.addEventListener("change", function () {
        var round = $("#trip-return").checked;
        returnField.hidden = !round;
        $("input[name=return]", returnField).disabled = !round;
      });
    });

    $(".swap", form).addEventListener("click", function () {
      var a = boxes[0], b = boxes[1];
      ["[role=combobox]", "input[type=hidden]"].forEach(function (sel) {
        var x = $(sel, a), y = $(sel, b), t = x.value;
        x.value = y.value; y.value = t;
      });
    });

    form.addEventListener("submit", function (ev) {
      $all(".field-error.client", form).forEach(function (el) { el.remove(); });
      var problems = [];
      boxes.forEach(function (box) {
        if (!box.resolve()) {
          problems.push([box, "Choose a city from the list."]);
        }
      });
      var dateField = $("[data-datepicker=date]", form);
      if (!$("input[name=date]", form).value) { problems.push([dateField, "Choose a departure date."]); }
      if (!returnField.hidden && !$("input[name=return]", form).value) {
        problems.push([returnField, "Choose a return date."]);
      }
      if (problems.length) {
        ev.preventDefault();
        problems.forEach(function (p) {
          var msg = document.createElement("p");
          msg.className = "field-error client";
          msg.setAttribute("role", "alert");
          msg.textContent = p[1];
          p[0].appendChild(msg);
        });
      }
    });
  }

  /* ---- results: sort, filter, fares */
  var results = $("#flight-list");
  if (results) {
    var sortBy = $("#sort-by");
    var keys = {
      recommended: function (li) { return [+li.dataset.rank]; },
      price: function (li) { return [+li.dataset.price]; },
      departure: function (li) { return [+li.dataset.depart, +li.dataset.price]; },
      duration: function (li) { return [+li.dataset.duration, +li.dataset.price]; }
    };
    sortBy.addEventListener("change", function () {
      var key = keys[sortBy.value] || keys.recommended;
      var cards = $all(".flight-card", results);
      cards.sort(function (a, b) {
        var ka = key(a), kb = key(b);
        for (var i = 0; i < ka.length; i++) { if (ka[i] !== kb[i]) { return ka[i] - kb[i]; } }
        return 0;
      });
      cards.forEach(function (card) { results.appendChild(card); });
    });

    var filters = $all(".filters input[type=checkbox]");
    filters.forEach(function (box) {
      box.addEventListener("change", function () {
        var stops = filters.filter(function (f) { return f.name === "stops" && f.checked; }).map(function (f) { return f.value; });
        var airlines = filters.filter(function (f) { return f.name === "airline" && f.checked; }).map(function (f) { return f.value; });
        var count = 0;
        $all(".flight-card", results).forEach(function (card) {
          var show = stops.indexOf(card.dataset.stops) >= 0 && airlines.indexOf(card.dataset.airline) >= 0;
          card.hidden = !show;
          if (show) { count++; }
        });
        $("#result-count").textContent = count;
      });
    });

    $all(".select-flight", results).forEach(function (button) {
      button.addEventListener("click", function () {
        var panel = document.getElementById(button.getAttribute("aria-controls"));
        var opening = panel.hidden;
        $all(".select-flight", results).forEach(function (other) {
          other.setAttribute("aria-expanded", "false");
          other.textContent = "Select";
          document.getElementById(other.getAttribute("aria-controls")).hidden = true;
          other.closest(".flight-card").classList.remove("open");
        });
        if (opening) {
          panel.hidden = false;
          button.setAttribute("aria-expanded", "true");
          button.textContent = "Hide fares";
          button.closest(".flight-card").classList.add("open");
        }
      });
    });
  }

  /* ---- payment tabs and card formatting */
  var tabs = $all("[role=tab]");
  tabs.forEach(function (tab) {
    tab.addEventListener("click", function () {
      tabs.forEach(function (other) {
        var on = other === tab;
        other.setAttribute("aria-selected", on ? "true" : "false");
        other.tabIndex = on ? 0 : -1;
        document.getElementById(other.getAttribute("aria-controls")).hidden = !on;
      });
    });
  });
  var cardNumber = $("#card-number");
  if (cardNumber) {
    cardNumber.addEventListener("input", function () {
      var digits = cardNumber.value.replace(/\D/g, "").slice(0, 19);
      cardNumber.value = digits.replace(/(\d{4})(?=\d)/g, "$1 ");
    });
  }
  var otp = $("#otp");
  if (otp) {
    otp.addEventListener("input", function () { otp.value = otp.value.replace(/\D/g, "").slice(0, 6); });
  }
})();

/* Fare cards call this from their onclick attribute. */
function chooseFare(el) {
  el.classList.add("loading");
  window.location.href = el.getAttribute("data-href");
}
