"""The widget corpus pages, by name.

Library pages load the vendored distribution files from ``/vendor``; the others
are written in the styles of widgets found on real sites. Every page keeps its
state readable: the fields hold their values, and forms post to ``/record``.
Calendars open on a fixed month (October 2016 unless said) so flows are stable.
"""

from __future__ import annotations

__all__ = ["PAGES"]


def _page(title: str, body: str, *, css: tuple[str, ...] = (), js: tuple[str, ...] = ()) -> str:
    links = "".join(f'<link rel="stylesheet" href="/vendor/{c}">' for c in css)
    scripts = "".join(f'<script src="/vendor/{j}"></script>' for j in js)
    return (
        f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{title}</title>"
        f"{links}{scripts}</head><body><main><h1>{title}</h1>{body}</main></body></html>"
    )


_JQ = ("jquery/jquery.min.js", "jquery-ui/jquery-ui.min.js")
_JQ_CSS = ("jquery-ui/jquery-ui.min.css",)
_FP = ("flatpickr/flatpickr.min.js",)
_FP_CSS = ("flatpickr/flatpickr.min.css",)
_BS = ("bootstrap/bootstrap.bundle.min.js",)
_BS_CSS = ("bootstrap/bootstrap.min.css",)

PAGES: dict[str, str] = {}

# ---------------------------------------------------------------- jQuery UI

PAGES["jqui-datepicker"] = _page(
    "Book a flight",
    """
<form method="post" action="/record">
<p><label for="dep">Departure date</label> <input id="dep" name="dep"></p>
<p><label for="ret">Return date</label> <input id="ret" name="ret"></p>
<button>Search flights</button></form>
<script>
$("#dep").datepicker({defaultDate: new Date(2016, 9, 1)});
$("#ret").datepicker({defaultDate: new Date(2016, 9, 1), changeMonth: true, changeYear: true,
  yearRange: "2010:2030"});
</script>""",
    css=_JQ_CSS,
    js=_JQ,
)

PAGES["jqui-spinner"] = _page(
    "Order",
    """
<p><label for="qty">Quantity</label> <input id="qty" name="qty" value="1"></p>
<script>$("#qty").spinner({min: 0, max: 20});</script>""",
    css=_JQ_CSS,
    js=_JQ,
)

PAGES["jqui-autocomplete"] = _page(
    "Find a city",
    """
<p><label for="city">City</label> <input id="city" name="city"></p>
<script>$("#city").autocomplete({source: ["Lisbon", "Lima", "Lille", "London", "Lyon"],
  delay: 0});</script>""",
    css=_JQ_CSS,
    js=_JQ,
)

PAGES["jqui-dialog"] = _page(
    "Account",
    """
<p id="state">Terms not accepted</p>
<button id="open" type="button">Review terms</button>
<div id="terms" title="Terms of use"><p>Be kind to other users.</p></div>
<script>
$("#terms").dialog({autoOpen: false, modal: true, buttons: {
  "Accept": function() { $("#state").text("Terms accepted"); $(this).dialog("close"); },
  "Cancel": function() { $(this).dialog("close"); } }});
$("#open").on("click", () => $("#terms").dialog("open"));
</script>""",
    css=_JQ_CSS,
    js=_JQ,
)

# ---------------------------------------------------------------- flatpickr

PAGES["flatpickr"] = _page(
    "Hotel booking",
    """
<form method="post" action="/record">
<p><label for="in">Check-in</label> <input id="in" name="checkin" placeholder="Select date"></p>
<p><label for="stay">Stay</label>
 <input id="stay" name="stay" placeholder="Arrival to departure"></p>
<p><label for="at">Arrival time</label> <input id="at" name="at" placeholder="Time"></p>
<button>Book</button></form>
<script>
flatpickr("#in", {dateFormat: "Y-m-d", defaultDate: null, now: new Date(2016, 9, 1)});
flatpickr("#stay", {mode: "range", dateFormat: "Y-m-d", now: new Date(2016, 9, 1)});
flatpickr("#at", {enableTime: true, noCalendar: true, dateFormat: "H:i"});
</script>""",
    css=_FP_CSS,
    js=_FP,
)

# ---------------------------------------------------------------- Pikaday

PAGES["pikaday"] = _page(
    "Event",
    """
<p><label for="when">Event date</label> <input id="when" name="when"></p>
<script src="/vendor/pikaday/pikaday.js"></script>
<script>new Pikaday({field: document.getElementById("when"),
  defaultDate: new Date(2016, 9, 1), yearRange: [2010, 2030]});</script>""",
    css=("pikaday/pikaday.css",),
)

# ---------------------------------------------------------------- Select2, Choices.js

PAGES["select2"] = _page(
    "Shipping",
    """
<p><label for="country">Country</label>
<select id="country" name="country" style="width: 240px">
<option value="">Pick one</option><option>France</option><option>Portugal</option>
<option>Spain</option><option>Sweden</option></select></p>
<script>$("#country").select2();</script>""",
    css=("select2/select2.min.css",),
    js=("jquery/jquery.min.js", "select2/select2.min.js"),
)

PAGES["choices"] = _page(
    "Preferences",
    """
<p><label for="lang">Language</label>
<select id="lang" name="lang"><option value="">Choose a language</option>
<option>English</option><option>German</option><option>Italian</option></select></p>
<script src="/vendor/choices/choices.min.js"></script>
<script>new Choices("#lang", {searchEnabled: true, itemSelectText: ""});</script>""",
    css=("choices/choices.min.css",),
)

# Chips of what is selected, each with its × (a multiple Select2 and a Choices.js with
# remove buttons): taking one out only unselects it.
PAGES["chips"] = _page(
    "Ship to",
    """
<p><label for="countries">Countries</label>
<select id="countries" name="countries" multiple style="width: 320px">
<option selected>France</option><option selected>Portugal</option><option>Spain</option>
</select></p>
<p><label for="langs">Languages</label>
<select id="langs" name="langs" multiple><option selected>English</option>
<option selected>German</option><option>Italian</option></select></p>
<script src="/vendor/choices/choices.min.js"></script>
<script>$("#countries").select2(); new Choices("#langs", {removeItemButton: true});</script>""",
    css=("select2/select2.min.css", "choices/choices.min.css"),
    js=("jquery/jquery.min.js", "select2/select2.min.js"),
)

# ---------------------------------------------------------------- Bootstrap 5

PAGES["bootstrap"] = _page(
    "Team settings",
    """
<div class="container">
<p id="state">No changes</p>
<button type="button" class="btn btn-primary" data-bs-toggle="modal"
  data-bs-target="#rename">Rename team</button>
<div class="modal fade" id="rename" tabindex="-1" aria-labelledby="renameTitle">
 <div class="modal-dialog"><div class="modal-content">
  <div class="modal-header"><h5 class="modal-title" id="renameTitle">Rename team</h5>
   <button type="button" class="btn-close" data-bs-dismiss="modal" aria-label="Close">
   </button></div>
  <div class="modal-body"><label for="tname" class="form-label">Team name</label>
   <input id="tname" class="form-control"></div>
  <div class="modal-footer"><button type="button" class="btn btn-primary" id="save"
   data-bs-dismiss="modal">Save name</button></div>
 </div></div></div>
<div class="dropdown">
 <button class="btn btn-secondary dropdown-toggle" type="button" data-bs-toggle="dropdown"
  aria-expanded="false">More actions</button>
 <ul class="dropdown-menu"><li><a class="dropdown-item" href="#" id="archive">Archive team</a>
 </li><li><a class="dropdown-item" href="#">Export members</a></li></ul></div>
<p><button class="btn btn-link" type="button" data-bs-toggle="collapse" data-bs-target="#adv"
  aria-expanded="false" aria-controls="adv">Advanced options</button></p>
<div class="collapse" id="adv"><label for="quota" class="form-label">Storage quota</label>
 <input id="quota" class="form-control"></div>
<ul class="nav nav-tabs" role="tablist">
 <li class="nav-item" role="presentation"><button class="nav-link active" data-bs-toggle="tab"
  data-bs-target="#general" type="button" role="tab">General</button></li>
 <li class="nav-item" role="presentation"><button class="nav-link" data-bs-toggle="tab"
  data-bs-target="#billing" type="button" role="tab">Billing</button></li></ul>
<div class="tab-content"><div class="tab-pane fade show active" id="general" role="tabpanel">
 <p>General settings</p></div><div class="tab-pane fade" id="billing" role="tabpanel">
 <label for="vat" class="form-label">VAT number</label><input id="vat" class="form-control">
 </div></div>
</div>
<script>
document.getElementById("save").addEventListener("click", () => {
  document.getElementById("state").textContent =
    "Team renamed to " + document.getElementById("tname").value; });
document.getElementById("archive").addEventListener("click", (e) => {
  e.preventDefault(); document.getElementById("state").textContent = "Team archived"; });
</script>""",
    css=_BS_CSS,
    js=_BS,
)

PAGES["bootstrap-validation"] = _page(
    "Sign up",
    """
<div class="container">
<form class="needs-validation" novalidate method="post" action="/record" id="f">
 <div class="mb-3"><label for="email" class="form-label">Email</label>
  <input type="email" class="form-control" id="email" name="email" required>
  <div class="invalid-feedback">Please enter a valid email address.</div></div>
 <div class="mb-3"><label for="user" class="form-label">Username</label>
  <input class="form-control" id="user" name="user" required>
  <div class="invalid-feedback">Please choose a username.</div></div>
 <button class="btn btn-primary" type="submit">Create account</button>
</form></div>
<script>
document.getElementById("f").addEventListener("submit", (e) => {
  const f = e.target;
  if (!f.checkValidity()) { e.preventDefault(); e.stopPropagation(); }
  f.classList.add("was-validated"); });
</script>""",
    css=_BS_CSS,
    js=_BS,
)

# ---------------------------------------------------------------- native inputs

PAGES["native"] = _page(
    "Appointment",
    """
<form method="post" action="/record">
<p><label for="d">Date</label> <input type="date" id="d" name="d"></p>
<p><label for="t">Time</label> <input type="time" id="t" name="t"></p>
<p><label for="dt">Starts at</label> <input type="datetime-local" id="dt" name="dt"></p>
<p><label for="m">Card expiry month</label> <input type="month" id="m" name="m"></p>
<button>Save appointment</button></form>""",
)

# ---------------------------------------------------------------- format hints

PAGES["hinted"] = _page(
    "Passenger details",
    """
<form method="post" action="/record">
<p><label for="dob">Date of birth</label> <input id="dob" name="dob" placeholder="mm/dd/yyyy"></p>
<p><label for="issued">Passport issued</label> <input id="issued" name="issued">
 <small>Format: DD/MM/YYYY</small></p>
<p><label for="exp">Passport expiry</label> <input id="exp" name="exp"
 placeholder="YYYY-MM-DD"></p>
<button>Continue</button></form>""",
)

# ---------------------------------------------------------------- read-only with a picker

_CALENDAR = """
class Cal {
  constructor(input, pop, start) { this.input = input; this.pop = pop;
    this.y = start[0]; this.m = start[1]; }
  names() { return ["January","February","March","April","May","June","July","August",
    "September","October","November","December"]; }
  draw() {
    const p = this.pop; p.innerHTML = "";
    const head = document.createElement("div");
    const prev = document.createElement("button"); prev.type = "button";
    prev.setAttribute("aria-label", "Previous month"); prev.textContent = "<";
    const next = document.createElement("button"); next.type = "button";
    next.setAttribute("aria-label", "Next month"); next.textContent = ">";
    const title = document.createElement("span");
    title.textContent = this.names()[this.m] + " " + this.y;
    prev.onclick = () => { this.m--; if (this.m < 0) { this.m = 11; this.y--; } this.draw(); };
    next.onclick = () => { this.m++; if (this.m > 11) { this.m = 0; this.y++; } this.draw(); };
    head.append(prev, title, next); p.append(head);
    const grid = document.createElement("table"); grid.setAttribute("role", "grid");
    const days = new Date(this.y, this.m + 1, 0).getDate();
    let row = document.createElement("tr");
    for (let d = 1; d <= days; d++) {
      const td = document.createElement("td"); const b = document.createElement("button");
      b.type = "button"; b.textContent = d;
      b.onclick = () => this.pick(d); td.append(b); row.append(td);
      if (d % 7 === 0) { grid.append(row); row = document.createElement("tr"); }
    }
    grid.append(row); p.append(grid); p.hidden = false;
  }
  pick(d) {
    const mm = String(this.m + 1).padStart(2, "0"), dd = String(d).padStart(2, "0");
    this.input.value = dd + "." + mm + "." + this.y;
    this.input.dispatchEvent(new Event("change", {bubbles: true}));
    this.pop.hidden = true;
  }
}"""

PAGES["readonly-picker"] = _page(
    "Delivery",
    f"""
<p><label for="del">Delivery date</label> <input id="del" name="del" readonly
 placeholder="Pick a date"> <button type="button" id="open">Open calendar</button></p>
<div id="pop" hidden></div>
<script>{_CALENDAR}
const cal = new Cal(document.getElementById("del"), document.getElementById("pop"), [2016, 9]);
document.getElementById("open").onclick = () => cal.draw();
</script>""",
)

# ---------------------------------------------------------------- separate selects

_MONTH_OPTIONS = "".join(
    f"<option value='{i}'>{m}</option>"
    for i, m in enumerate(
        [
            "January",
            "February",
            "March",
            "April",
            "May",
            "June",
            "July",
            "August",
            "September",
            "October",
            "November",
            "December",
        ],
        1,
    )
)
PAGES["split-date"] = _page(
    "Your birthday",
    f"""
<form method="post" action="/record"><fieldset><legend>Birthday</legend>
<label for="bd">Day</label> <select id="bd" name="day"><option value="">Day</option>
{"".join(f"<option>{d}</option>" for d in range(1, 32))}</select>
<label for="bm">Month</label> <select id="bm" name="month"><option value="">Month</option>
{_MONTH_OPTIONS}</select>
<label for="by">Year</label> <select id="by" name="year"><option value="">Year</option>
{"".join(f"<option>{y}</option>" for y in range(2024, 1920, -1))}</select>
</fieldset><button>Save birthday</button></form>""",
)

PAGES["split-time"] = _page(
    "Pick-up",
    f"""
<form method="post" action="/record"><fieldset><legend>Pick-up time</legend>
<select name="hour" aria-label="Hour">{"".join(f"<option>{h}</option>" for h in range(1, 13))}
</select> : <select name="minute" aria-label="Minute">
{"".join(f"<option>{m:02d}</option>" for m in range(60))}</select>
<select name="ampm" aria-label="AM/PM"><option>AM</option><option>PM</option></select>
</fieldset><button>Save pick-up</button></form>""",
)

# ---------------------------------------------------------------- shadow root

PAGES["shadow-picker"] = _page(
    "Rental",
    f"""
<p><label for="pick">Pick-up date</label></p>
<date-field id="pick"></date-field>
<script>{_CALENDAR}
customElements.define("date-field", class extends HTMLElement {{
  connectedCallback() {{
    const root = this.attachShadow({{mode: "open"}});
    root.innerHTML = '<input aria-label="Pick-up date" readonly placeholder="dd.mm.yyyy">'
      + '<button type="button">Show calendar</button><div hidden></div>';
    const [input, button, pop] = root.children;
    const cal = new Cal(input, pop, [2016, 9]);
    button.onclick = () => cal.draw(); input.onclick = () => cal.draw();
  }}
  get value() {{ return this.shadowRoot.querySelector("input").value; }}
}});
</script>""",
)

# ---------------------------------------------------------------- Today / Now, same as billing

PAGES["shortcuts"] = _page(
    "Log an hour",
    """
<p><label for="day">Day</label> <input type="date" id="day">
 <button type="button" onclick="document.getElementById('day').valueAsDate = new Date()">Today
 </button></p>
<p><label for="clock">Started</label> <input id="clock" placeholder="HH:MM">
 <button type="button" onclick="const n = new Date(); document.getElementById('clock').value =
  String(n.getHours()).padStart(2, '0') + ':' + String(n.getMinutes()).padStart(2, '0')">Now
 </button></p>
<p><label for="guests">Guests</label> <input id="guests" value="2" inputmode="numeric">
 <button type="button" aria-label="Fewer guests"
  onclick="document.getElementById('guests').value = Math.max(1, +guests.value - 1)">-</button>
 <button type="button" aria-label="More guests"
  onclick="document.getElementById('guests').value = +guests.value + 1">+</button></p>""",
)

PAGES["same-as-billing"] = _page(
    "Checkout details",
    """
<form method="post" action="/record">
<fieldset><legend>Billing address</legend>
<label for="b1">Street</label> <input id="b1" name="bill_street">
<label for="b2">City</label> <input id="b2" name="bill_city"></fieldset>
<p><label><input type="checkbox" id="same"> Shipping address same as billing</label></p>
<fieldset><legend>Shipping address</legend>
<label for="s1">Shipping street</label> <input id="s1" name="ship_street">
<label for="s2">Shipping city</label> <input id="s2" name="ship_city"></fieldset>
<button>Continue to review</button></form>
<script>
document.getElementById("same").addEventListener("change", (e) => {
  if (!e.target.checked) return;
  document.getElementById("s1").value = document.getElementById("b1").value;
  document.getElementById("s2").value = document.getElementById("b2").value; });
</script>""",
)

# ---------------------------------------------------------------- masked, contenteditable

PAGES["masked"] = _page(
    "Contact",
    """
<p><label for="phone">Phone number</label> <input id="phone" name="phone"
 placeholder="(___) ___-____"></p>
<script>
const phone = document.getElementById("phone");
phone.addEventListener("input", () => {
  const d = phone.value.replace(/\\D/g, "").slice(0, 10);
  let out = "";
  if (d.length > 0) out = "(" + d.slice(0, 3);
  if (d.length >= 3) out += ") " + d.slice(3, 6);
  if (d.length >= 6) out += "-" + d.slice(6);
  phone.value = out; });
</script>""",
)

PAGES["contenteditable"] = _page(
    "Write a note",
    """
<p id="lbl">Note</p>
<div id="note" contenteditable="true" role="textbox" aria-labelledby="lbl"
 style="border: 1px solid #888; min-height: 3em"></div>""",
)

# ---------------------------------------------------------------- a secret inside a label

PAGES["signup-region"] = _page(
    "Create your account",
    """
<form method="post" action="/record">
<p><label for="user">Username</label> <input id="user" name="user"></p>
<p><label for="mail">Email</label> <input id="mail" name="email" type="email"></p>
<p><label for="reg">Region code</label> <input id="reg" name="region"></p>
<button>Continue to sign-up</button>
<button type="button" onclick="location.href='/w/native'">Continue shopping</button>
</form>""",
)

# ---------------------------------------------------------------- two fields, one calendar

PAGES["litepicker-range"] = _page(
    "Find a room",
    """
<form method="post" action="/record">
<p><label for="in">Check-in</label> <input id="in" name="checkin" placeholder="Arrival"
 autocomplete="off"></p>
<p><label for="out">Check-out</label> <input id="out" name="checkout" placeholder="Departure"
 autocomplete="off"></p>
<button>Search rooms</button></form>
<script src="/vendor/litepicker/litepicker.js"></script>
<script>new Litepicker({element: document.getElementById("in"),
  elementEnd: document.getElementById("out"), singleMode: false, format: "YYYY-MM-DD",
  minDate: new Date(), numberOfMonths: 2, numberOfColumns: 2});</script>""",
)

# ---------------------------------------------------------------- a calendar in shadow roots

PAGES["cally"] = _page(
    "Return trip",
    """
<form method="post" action="/record">
<p><label for="ret">Return date</label> <input id="ret" name="ret" readonly
 placeholder="YYYY-MM-DD"> <button type="button" popovertarget="ret-pop">Choose date</button></p>
<div id="ret-pop" popover>
 <calendar-date id="ret-cal" focused-date="2016-10-01">
  <span slot="previous" aria-label="Previous">&lsaquo;</span>
  <span slot="next" aria-label="Next">&rsaquo;</span>
  <calendar-month></calendar-month></calendar-date></div>
<button>Save trip</button></form>
<script type="module" src="/vendor/cally/cally.js"></script>
<script>
const cal = document.getElementById("ret-cal");
cal.addEventListener("change", () => {
  document.getElementById("ret").value = cal.value;
  document.getElementById("ret-pop").hidePopover(); });
</script>""",
)

# ---------------------------------------------------------------- segmented date fields

# In the style of React Aria's DateField (and MUI X's fields): one spin button a part,
# each taking digits from the keyboard (moving on once a part is whole) and arrow keys;
# the field's value lives in a hidden input the form posts.
_SEGMENTS = """
class DateSegments {
  constructor(group, hidden, order) {
    this.hidden = hidden; this.parts = {};
    const spec = {month: [1, 12, 2, "mm"], day: [1, 31, 2, "dd"], year: [1, 9999, 4, "yyyy"],
      hour: [1, 12, 2, "––"], minute: [0, 59, 2, "––"], dayPeriod: [0, 1, 2, "AM"]};
    order.forEach((kind, i) => {
      const [min, max, width, empty] = spec[kind];
      const el = document.createElement("span");
      el.setAttribute("role", "spinbutton"); el.tabIndex = 0; el.contentEditable = "true";
      el.setAttribute("inputmode", kind === "dayPeriod" ? "text" : "numeric");
      el.setAttribute("aria-label", kind === "dayPeriod" ? "AM/PM" : kind);
      el.setAttribute("aria-labelledby", el.id = group.id + "-" + kind);
      el.setAttribute("aria-labelledby", el.id + " " + group.getAttribute("aria-labelledby"));
      el.setAttribute("aria-valuemin", min); el.setAttribute("aria-valuemax", max);
      el.className = "segment";
      const part = {el, kind, min, max, width, empty, value: null, typed: ""};
      this.parts[kind] = part; this.show(part);
      el.addEventListener("focus", () => { part.typed = ""; });
      el.addEventListener("beforeinput", (e) => e.preventDefault());
      el.addEventListener("keydown", (e) => this.key(e, part, order, i));
      if (i) group.append(document.createTextNode(
        kind === "minute" ? ":" : kind === "dayPeriod" ? " " : " / "));
      group.append(el);
    });
  }
  show(part) {
    const v = part.value;
    part.el.textContent = v === null ? part.empty : part.kind === "dayPeriod"
      ? ["AM", "PM"][v] : String(v).padStart(part.width, "0");
    if (v === null) { part.el.removeAttribute("aria-valuenow");
      part.el.setAttribute("aria-valuetext", "Empty"); }
    else { part.el.setAttribute("aria-valuenow", v);
      part.el.setAttribute("aria-valuetext", part.kind === "month"
        ? v + " – " + new Date(2000, v - 1, 1).toLocaleString("en", {month: "long"})
        : part.kind === "dayPeriod" ? ["AM", "PM"][v] : String(v)); }
    const p = this.parts;
    if (p.day && p.month && p.year && p.day.value && p.month.value && p.year.value) {
      this.hidden.value = String(p.year.value).padStart(4, "0") + "-"
        + String(p.month.value).padStart(2, "0") + "-" + String(p.day.value).padStart(2, "0");
    } else if (p.hour && p.minute && p.hour.value !== null && p.minute.value !== null) {
      const h = p.hour.value % 12 + (p.dayPeriod && p.dayPeriod.value === 1 ? 12 : 0);
      this.hidden.value = String(h).padStart(2, "0") + ":"
        + String(p.minute.value).padStart(2, "0");
    } else { this.hidden.value = ""; }
  }
  key(e, part, order, i) {
    if (e.key === "Tab" || e.key.startsWith("Shift")) return;
    e.preventDefault();
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      const step = e.key === "ArrowUp" ? 1 : -1, span = part.max - part.min + 1;
      const v = part.value === null ? part.min : part.value;
      part.value = ((v - part.min + step + span) % span) + part.min;
    } else if (e.key === "Backspace") { part.value = null; part.typed = "";
    } else if (part.kind === "dayPeriod") {
      const k = e.key.toLowerCase();
      if (k === "a" || k === "p") part.value = k === "a" ? 0 : 1;
    } else if (/^[0-9]$/.test(e.key)) {
      part.typed = (part.typed + e.key).slice(-part.width);
      const n = Number(part.typed);
      if (n >= part.min && n <= part.max) part.value = n;
      const full = part.typed.length >= part.width || n * 10 > part.max;
      if (full && order[i + 1]) this.parts[order[i + 1]].el.focus();
    }
    this.show(part);
  }
}"""

PAGES["segments"] = _page(
    "Passenger",
    f"""
<style>.segment {{ padding: 0 2px; outline-offset: 1px; }}</style>
<form method="post" action="/record">
<p><span id="dob-label">Date of birth</span></p>
<div id="dob" role="group" aria-labelledby="dob-label"
 style="display: inline-block; border: 1px solid #888; padding: 4px"></div>
<input type="hidden" name="dob" id="dob-value">
<p><span id="exp-label">Passport expiry</span></p>
<div id="exp" role="group" aria-labelledby="exp-label"
 style="display: inline-block; border: 1px solid #888; padding: 4px"></div>
<input type="hidden" name="expiry" id="exp-value">
<p><span id="at-label">Arrival time</span></p>
<div id="at" role="group" aria-labelledby="at-label"
 style="display: inline-block; border: 1px solid #888; padding: 4px"></div>
<input type="hidden" name="arrival" id="at-value">
<p><button>Save passenger</button></p></form>
<script>{_SEGMENTS}
new DateSegments(document.getElementById("dob"), document.getElementById("dob-value"),
  ["month", "day", "year"]);
new DateSegments(document.getElementById("exp"), document.getElementById("exp-value"),
  ["day", "month", "year"]);
new DateSegments(document.getElementById("at"), document.getElementById("at-value"),
  ["hour", "minute", "dayPeriod"]);
</script>""",
)

# ---------------------------------------------------------------- a range applied by a button

PAGES["daterangepicker"] = _page(
    "Report period",
    """
<form method="post" action="/record">
<p><label for="period">Period</label> <input id="period" name="period" autocomplete="off"
 style="width: 240px"></p>
<p><label for="due">Due date</label> <input id="due" name="due" autocomplete="off"></p>
<button>Show report</button></form>
<script>
$("#period").daterangepicker({autoUpdateInput: false, autoApply: false,
  startDate: "10/01/2016", endDate: "10/01/2016", locale: {format: "MM/DD/YYYY"}});
$("#period").on("apply.daterangepicker", function (e, picker) {
  $(this).val(picker.startDate.format("MM/DD/YYYY") + " - "
    + picker.endDate.format("MM/DD/YYYY")); });
$("#due").daterangepicker({singleDatePicker: true, autoUpdateInput: false, autoApply: false,
  showDropdowns: true, minYear: 2010, maxYear: 2030, startDate: "10/01/2016"});
$("#due").on("apply.daterangepicker", function (e, picker) {
  $(this).val(picker.startDate.format("MM/DD/YYYY")); });
</script>""",
    css=("daterangepicker/daterangepicker.css",),
    js=("jquery/jquery.min.js", "moment/moment.min.js", "daterangepicker/daterangepicker.js"),
)
