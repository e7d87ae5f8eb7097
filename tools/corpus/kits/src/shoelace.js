// Shoelace (web components, labels inside their shadow roots): every widget kind of the
// trip request, or (?captions=bare) captions as text above controls that carry none.
import "@shoelace-style/shoelace/dist/themes/light.css";
import "@shoelace-style/shoelace/dist/shoelace.js";
import { setBasePath } from "@shoelace-style/shoelace/dist/utilities/base-path.js";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, post,
} from "./_fields.js";

setBasePath("/dist/shoelace");
const esc = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
const cap = (text) => (BARE ? `<div class="cap">${esc(text)}</div>` : "");
const lab = (text) => (BARE ? "" : ` label="${esc(text)}"`);
const opts = (items) => items.map((x) => `<sl-option value="${esc(x.replace(/ /g, "_"))}">${esc(x)}</sl-option>`).join("");

document.getElementById("app").innerHTML = `
<main style="max-width: 620px; margin: 24px auto; font-family: var(--sl-font-sans)">
  <h2>Trip request</h2>
  <form id="trip" class="trip">
    <div>${cap(C.name)}<sl-input name="name"${lab(C.name)}></sl-input></div>
    <div>${cap(C.travellers)}<sl-input name="travellers" type="number" min="1" max="9" value="1"${lab(C.travellers)}></sl-input></div>
    <div>${cap(C.budget)}<sl-range name="budget" min="50" max="500" step="10" value="100"${lab(C.budget)}></sl-range></div>
    <div>${cap(C.depart)}<sl-input name="depart" type="date"${lab(C.depart)}></sl-input></div>
    <div>${cap(C.time)}<sl-input name="time" type="time"${lab(C.time)}></sl-input></div>
    <div>${cap(C.cabin)}<sl-select name="cabin" placeholder="Pick one"${lab(C.cabin)}>${opts(CABINS)}</sl-select></div>
    <div>${cap(C.city)}<sl-select name="city" placeholder="Pick a city"${lab(C.city)}>${opts(CITIES)}</sl-select></div>
    <div>${cap(C.interests)}<sl-select name="interests" multiple clearable placeholder="Pick any"${lab(C.interests)}>${opts(INTERESTS)}</sl-select></div>
    <div>${cap(C.meal)}<sl-radio-group name="meal"${lab(C.meal)}>${MEALS.map((m) => `<sl-radio value="${m}">${m}</sl-radio>`).join("")}</sl-radio-group></div>
    <div><sl-checkbox name="insurance">${C.insurance}</sl-checkbox></div>
    <div><sl-switch name="newsletter">${C.newsletter}</sl-switch></div>
    <div>${cap(C.seat)}<sl-radio-group name="seat" value="Window"${lab(C.seat)}>${SEATS.map((s) => `<sl-radio-button value="${s}">${s}</sl-radio-button>`).join("")}</sl-radio-group></div>
    <fieldset style="border:0;padding:0"><legend class="cap">${C.extras}</legend>${EXTRAS.map((x) => `<sl-checkbox name="extras" value="${esc(x)}">${esc(x)}</sl-checkbox> `).join("")}</fieldset>
    <sl-button type="submit" variant="primary">Send request</sl-button>
  </form>
  <style>.trip > div, .trip fieldset { margin: 14px 0 } .cap { font-weight: 600; margin-bottom: 6px }</style>
</main>`;

const value = (name) => document.querySelector(`[name="${name}"]`);
const under = (v) => (Array.isArray(v) ? v : v ? [v] : []).map((x) => String(x).replace(/_/g, " "));
Promise.all(["sl-input", "sl-select", "sl-button", "sl-checkbox"].map((t) => customElements.whenDefined(t))).then(() => {
  document.getElementById("trip").addEventListener("submit", (event) => {
    event.preventDefault();
    post({
      name: value("name").value, travellers: value("travellers").value, budget: value("budget").value,
      depart: value("depart").value, time: (value("time").value || "").slice(0, 5),
      cabin: under(value("cabin").value).join(","), city: under(value("city").value).join(","),
      interests: under(value("interests").value).join(","), meal: value("meal").value,
      insurance: value("insurance").checked ? "yes" : "no", newsletter: value("newsletter").checked ? "yes" : "no",
      seat: value("seat").value,
      extras: [...document.querySelectorAll('sl-checkbox[name="extras"]')].filter((c) => c.checked).map((c) => c.value).join(","),
    });
  });
});
