// Vaadin (web components, Lumo theme, labels inside their shadow roots): every widget kind
// of the trip request as Vaadin's docs show them, or (?captions=bare) captions as text
// above controls that carry none. Vaadin has no switch (the newsletter is a checkbox, as
// its docs advise) and no toggle group (the seat is a row of buttons, the chosen one
// drawn primary and pressed).
import "@vaadin/vaadin-lumo-styles/lumo.css";
import "@vaadin/button";
import "@vaadin/checkbox";
import "@vaadin/checkbox-group";
import "@vaadin/combo-box";
import "@vaadin/date-picker";
import "@vaadin/multi-select-combo-box";
import "@vaadin/number-field";
import "@vaadin/radio-group";
import "@vaadin/select";
import "@vaadin/slider";
import "@vaadin/text-field";
import "@vaadin/time-picker";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, list, post, yesNo,
} from "./_fields.js";

const esc = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
const cap = (text) => (BARE ? `<div class="cap">${esc(text)}</div>` : "");
const lab = (text) => (BARE ? "" : ` label="${esc(text)}"`);

document.getElementById("app").innerHTML = `
<main class="trip">
  <h2>Trip request</h2>
  <div>${cap(C.name)}<vaadin-text-field id="name"${lab(C.name)}></vaadin-text-field></div>
  <div>${cap(C.travellers)}<vaadin-number-field id="travellers" min="1" max="9" value="1" step-buttons-visible${lab(C.travellers)}></vaadin-number-field></div>
  <div>${cap(C.budget)}<vaadin-slider id="budget" min="50" max="500" step="10" value="100"${lab(C.budget)}></vaadin-slider></div>
  <div>${cap(C.depart)}<vaadin-date-picker id="depart" placeholder="Pick a date"${lab(C.depart)}></vaadin-date-picker></div>
  <div>${cap(C.time)}<vaadin-time-picker id="time"${lab(C.time)}></vaadin-time-picker></div>
  <div>${cap(C.cabin)}<vaadin-select id="cabin" placeholder="Pick one"${lab(C.cabin)}></vaadin-select></div>
  <div>${cap(C.city)}<vaadin-combo-box id="city" placeholder="Search a city"${lab(C.city)}></vaadin-combo-box></div>
  <div>${cap(C.interests)}<vaadin-multi-select-combo-box id="interests" placeholder="Pick any"${lab(C.interests)}></vaadin-multi-select-combo-box></div>
  <div>${cap(C.meal)}<vaadin-radio-group id="meal"${lab(C.meal)}>${MEALS.map((m) => `<vaadin-radio-button value="${m}" label="${m}"></vaadin-radio-button>`).join("")}</vaadin-radio-group></div>
  <div><vaadin-checkbox id="insurance" label="${esc(C.insurance)}"></vaadin-checkbox></div>
  <div><vaadin-checkbox id="newsletter" label="${esc(C.newsletter)}"></vaadin-checkbox></div>
  <div><div class="cap">${C.seat}</div><div id="seat" class="row">${SEATS.map((s) => `<vaadin-button data-seat="${s}">${s}</vaadin-button>`).join("")}</div></div>
  <div>${cap(C.extras)}<vaadin-checkbox-group id="extras"${lab(C.extras)}>${EXTRAS.map((x) => `<vaadin-checkbox value="${esc(x)}" label="${esc(x)}"></vaadin-checkbox>`).join("")}</vaadin-checkbox-group></div>
  <vaadin-button id="send" theme="primary">Send request</vaadin-button>
  <style>.trip { max-width: 620px; margin: 24px auto; font-family: var(--lumo-font-family) }
  .trip > div { margin: 10px 0 } .trip vaadin-text-field, .trip vaadin-select, .trip vaadin-combo-box,
  .trip vaadin-multi-select-combo-box, .trip vaadin-slider { width: 100% }
  .cap { font-weight: 600; font-size: var(--lumo-font-size-s) } .row { display: flex; gap: 6px }</style>
</main>`;

const $ = (id) => document.getElementById(id);
$("cabin").items = CABINS.map((c) => ({ label: c, value: c }));
$("city").items = CITIES;
$("interests").items = INTERESTS;

let seat = "Window";
const drawSeats = () => {
  for (const button of $("seat").children) {
    const on = button.dataset.seat === seat;
    button.setAttribute("theme", on ? "primary" : "secondary");
    button.setAttribute("aria-pressed", String(on));
  }
};
$("seat").addEventListener("click", (event) => {
  const button = event.target.closest("vaadin-button");
  if (button) {
    seat = button.dataset.seat;
    drawSeats();
  }
});
drawSeats();

$("send").addEventListener("click", () =>
  post({
    name: $("name").value, travellers: $("travellers").value, budget: $("budget").value,
    depart: $("depart").value, time: ($("time").value || "").slice(0, 5), cabin: $("cabin").value,
    city: $("city").value, interests: list($("interests").selectedItems), meal: $("meal").value,
    insurance: yesNo($("insurance").checked), newsletter: yesNo($("newsletter").checked), seat,
    extras: list(EXTRAS.filter((x) => $("extras").value.includes(x))),
  }),
);
