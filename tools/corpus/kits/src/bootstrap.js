// Bootstrap 5 with tom-select (searchable and multiple selects) and flatpickr (a date
// and a time picker), as server-rendered sites combine them: every widget kind of the
// trip request with <label for> captions, or (?captions=bare) captions tied to nothing.
// The seat is a btn-check toggle group: radios hidden behind the buttons drawn over them.
import "bootstrap/dist/css/bootstrap.min.css";
import "tom-select/dist/css/tom-select.bootstrap5.css";
import "flatpickr/dist/flatpickr.min.css";
import TomSelect from "tom-select";
import flatpickr from "flatpickr";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, post,
} from "./_fields.js";

const cap = (id, text) =>
  BARE ? `<div class="fw-semibold mb-1">${text}</div>` : `<label class="form-label" for="${id}">${text}</label>`;
const options = (items) => items.map((x) => `<option value="${x}">${x}</option>`).join("");
const slug = (x) => x.toLowerCase().replace(/ /g, "-");

document.getElementById("app").innerHTML = `
<main class="container py-4" style="max-width: 640px">
  <h2 class="mb-3">Trip request</h2>
  <form id="trip">
    <div class="mb-3">${cap("name", C.name)}<input class="form-control" id="name" name="name"></div>
    <div class="mb-3">${cap("travellers", C.travellers)}<input class="form-control" type="number" id="travellers" name="travellers" min="1" max="9" value="1"></div>
    <div class="mb-3">${cap("budget", C.budget)}<input type="range" class="form-range" id="budget" name="budget" min="50" max="500" step="10" value="100"><output id="budget-shown">100</output> EUR</div>
    <div class="mb-3">${cap("depart", C.depart)}<input class="form-control" id="depart" name="depart" placeholder="Pick a date"></div>
    <div class="mb-3">${cap("time", C.time)}<input class="form-control" id="time" name="time" placeholder="Pick a time"></div>
    <div class="mb-3">${cap("cabin", C.cabin)}<select class="form-select" id="cabin" name="cabin"><option value="">Pick one</option>${options(CABINS)}</select></div>
    <div class="mb-3">${cap("city", C.city)}<select id="city" name="city" placeholder="Search a city"><option value=""></option>${options(CITIES)}</select></div>
    <div class="mb-3">${cap("interests", C.interests)}<select id="interests" name="interests" multiple placeholder="Pick any">${options(INTERESTS)}</select></div>
    <div class="mb-3"><div class="fw-semibold mb-1">${C.meal}</div>${MEALS.map((m) => `
      <div class="form-check form-check-inline"><input class="form-check-input" type="radio" name="meal" id="meal-${slug(m)}" value="${m}"><label class="form-check-label" for="meal-${slug(m)}">${m}</label></div>`).join("")}</div>
    <div class="mb-3 form-check"><input class="form-check-input" type="checkbox" id="insurance" name="insurance"><label class="form-check-label" for="insurance">${C.insurance}</label></div>
    <div class="mb-3 form-check form-switch"><input class="form-check-input" type="checkbox" role="switch" id="newsletter" name="newsletter"><label class="form-check-label" for="newsletter">${C.newsletter}</label></div>
    <div class="mb-3"><div class="fw-semibold mb-1">${C.seat}</div><div class="btn-group" role="group">${SEATS.map((s, i) => `
      <input type="radio" class="btn-check" name="seat" id="seat-${slug(s)}" value="${s}" autocomplete="off"${i === 0 ? " checked" : ""}><label class="btn btn-outline-primary" for="seat-${slug(s)}">${s}</label>`).join("")}</div></div>
    <div class="mb-3"><div class="fw-semibold mb-1">${C.extras}</div>${EXTRAS.map((x) => `
      <div class="form-check"><input class="form-check-input" type="checkbox" name="extras" id="extra-${slug(x)}" value="${x}"><label class="form-check-label" for="extra-${slug(x)}">${x}</label></div>`).join("")}</div>
    <button type="submit" class="btn btn-primary">Send request</button>
  </form>
</main>`;

const budget = document.getElementById("budget");
budget.addEventListener("input", () => { document.getElementById("budget-shown").textContent = budget.value; });
new TomSelect("#city", { create: false, maxItems: 1 });
new TomSelect("#interests", { create: false, plugins: ["remove_button"] });
flatpickr("#depart", { dateFormat: "Y-m-d", altInput: true, altFormat: "j F Y" });
flatpickr("#time", { enableTime: true, noCalendar: true, dateFormat: "H:i", time_24hr: true });

document.getElementById("trip").addEventListener("submit", (event) => {
  event.preventDefault();
  const data = new FormData(event.target);
  post({
    name: data.get("name"), travellers: data.get("travellers"), budget: data.get("budget"),
    depart: data.get("depart"), time: data.get("time"), cabin: data.get("cabin"), city: data.get("city") || "",
    interests: data.getAll("interests").join(","), meal: data.get("meal") || "",
    insurance: data.get("insurance") ? "yes" : "no", newsletter: data.get("newsletter") ? "yes" : "no",
    seat: data.get("seat") || "", extras: data.getAll("extras").join(","),
  });
});
