// Ionic (web components, @ionic/core's custom-elements build, Material Design mode): every
// widget kind of the trip request as Ionic's docs show them in a list of items, the date
// and the time as datetime buttons opening their ion-datetime in a modal, captions by the
// controls' own label props, or (?captions=bare) as text above controls that carry none.
// Ionic has no searchable select: the destination is its docs' typeahead, an item opening a
// modal with a searchbar over a radio list. The seat is an ion-segment.
import "@ionic/core/css/ionic.bundle.css";
import { initialize } from "@ionic/core/components";
import { defineCustomElement as app } from "@ionic/core/components/ion-app.js";
import { defineCustomElement as button } from "@ionic/core/components/ion-button.js";
import { defineCustomElement as buttons } from "@ionic/core/components/ion-buttons.js";
import { defineCustomElement as checkbox } from "@ionic/core/components/ion-checkbox.js";
import { defineCustomElement as content } from "@ionic/core/components/ion-content.js";
import { defineCustomElement as datetime } from "@ionic/core/components/ion-datetime.js";
import { defineCustomElement as datetimeButton } from "@ionic/core/components/ion-datetime-button.js";
import { defineCustomElement as header } from "@ionic/core/components/ion-header.js";
import { defineCustomElement as input } from "@ionic/core/components/ion-input.js";
import { defineCustomElement as item } from "@ionic/core/components/ion-item.js";
import { defineCustomElement as label } from "@ionic/core/components/ion-label.js";
import { defineCustomElement as ionList } from "@ionic/core/components/ion-list.js";
import { defineCustomElement as listHeader } from "@ionic/core/components/ion-list-header.js";
import { defineCustomElement as modal } from "@ionic/core/components/ion-modal.js";
import { defineCustomElement as note } from "@ionic/core/components/ion-note.js";
import { defineCustomElement as radio } from "@ionic/core/components/ion-radio.js";
import { defineCustomElement as radioGroup } from "@ionic/core/components/ion-radio-group.js";
import { defineCustomElement as range } from "@ionic/core/components/ion-range.js";
import { defineCustomElement as searchbar } from "@ionic/core/components/ion-searchbar.js";
import { defineCustomElement as segment } from "@ionic/core/components/ion-segment.js";
import { defineCustomElement as segmentButton } from "@ionic/core/components/ion-segment-button.js";
import { defineCustomElement as select } from "@ionic/core/components/ion-select.js";
import { defineCustomElement as selectOption } from "@ionic/core/components/ion-select-option.js";
import { defineCustomElement as title } from "@ionic/core/components/ion-title.js";
import { defineCustomElement as toggle } from "@ionic/core/components/ion-toggle.js";
import { defineCustomElement as toolbar } from "@ionic/core/components/ion-toolbar.js";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, list, post, yesNo,
} from "./_fields.js";

initialize({ mode: "md" });
for (const define of [
  app, button, buttons, checkbox, content, datetime, datetimeButton, header, input, item, label,
  ionList, listHeader, modal, note, radio, radioGroup, range, searchbar, segment, segmentButton,
  select, selectOption, title, toggle, toolbar,
]) define();

const esc = (s) => s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
const cap = (text) => (BARE ? `<div class="cap">${esc(text)}</div>` : "");
const lab = (text) => (BARE ? "" : ` label="${esc(text)}" label-placement="stacked"`);
const head = (text) => (BARE ? "" : `<ion-list-header><ion-label>${esc(text)}</ion-label></ion-list-header>`);
const opts = (items) => items.map((x) => `<ion-select-option value="${esc(x)}">${esc(x)}</ion-select-option>`).join("");
const picker = (id, text, presentation) => `
  ${cap(text)}<ion-item>${BARE ? "" : `<ion-label>${esc(text)}</ion-label>`}
    <ion-datetime-button datetime="${id}" slot="${BARE ? "start" : "end"}"></ion-datetime-button></ion-item>
  <ion-modal keep-contents-mounted="true">
    <ion-datetime id="${id}" presentation="${presentation}"${presentation === "time" ? ' hour-cycle="h23"' : ""}></ion-datetime>
  </ion-modal>`;

document.getElementById("app").innerHTML = `
<ion-app><ion-content class="ion-padding">
<main class="trip">
  <h2>Trip request</h2>
  <form id="trip">
  <ion-list>
    ${cap(C.name)}<ion-item><ion-input id="name"${lab(C.name)}></ion-input></ion-item>
    ${cap(C.travellers)}<ion-item><ion-input id="travellers" type="number" min="1" max="9" value="1"${lab(C.travellers)}></ion-input></ion-item>
    ${cap(C.budget)}<ion-item><ion-range id="budget" min="50" max="500" step="10" value="100" pin="true"${BARE ? "" : ` label="${esc(C.budget)}" label-placement="stacked"`}></ion-range></ion-item>
    ${picker("depart", C.depart, "date")}
    ${picker("time", C.time, "time")}
    ${cap(C.cabin)}<ion-item><ion-select id="cabin" interface="popover" placeholder="Pick one"${lab(C.cabin)}>${opts(CABINS)}</ion-select></ion-item>
    ${cap(C.city)}<ion-item button="true" detail="false" id="city-open">${BARE ? "" : `<ion-label>${esc(C.city)}</ion-label>`}<ion-note slot="end" id="city-note">Search a city</ion-note></ion-item>
    ${cap(C.interests)}<ion-item><ion-select id="interests" multiple="true" placeholder="Pick any"${lab(C.interests)}>${opts(INTERESTS)}</ion-select></ion-item>
  </ion-list>
  <ion-list>
    ${cap(C.meal)}<ion-radio-group id="meal">${head(C.meal)}${MEALS.map((m) => `<ion-item><ion-radio value="${m}">${m}</ion-radio></ion-item>`).join("")}</ion-radio-group>
  </ion-list>
  <ion-list>
    <ion-item><ion-checkbox id="insurance">${C.insurance}</ion-checkbox></ion-item>
    <ion-item><ion-toggle id="newsletter">${C.newsletter}</ion-toggle></ion-item>
  </ion-list>
  <div class="cap">${C.seat}</div>
  <ion-segment id="seat" value="Window">${SEATS.map((s) => `<ion-segment-button value="${s}"><ion-label>${s}</ion-label></ion-segment-button>`).join("")}</ion-segment>
  <ion-list>
    ${cap(C.extras)}${head(C.extras)}${EXTRAS.map((x) => `<ion-item><ion-checkbox class="extra" value="${esc(x)}">${esc(x)}</ion-checkbox></ion-item>`).join("")}
  </ion-list>
  <ion-button type="submit" expand="block">Send request</ion-button>
  </form>
</main>
<ion-modal id="city-modal" trigger="city-open">
  <ion-header><ion-toolbar>
    <ion-buttons slot="start"><ion-button id="city-cancel">Cancel</ion-button></ion-buttons>
    <ion-title>${C.city}</ion-title>
  </ion-toolbar>
  <ion-toolbar><ion-searchbar id="city-search"></ion-searchbar></ion-toolbar></ion-header>
  <ion-content><ion-list><ion-radio-group id="city" allow-empty-selection="true"></ion-radio-group></ion-list></ion-content>
</ion-modal>
</ion-content></ion-app>
<style>.trip { max-width: 620px; margin: 0 auto } .cap { font-weight: 600; margin: 14px 16px 0 }
ion-segment { margin: 6px 0 14px }</style>`;

const $ = (id) => document.getElementById(id);
const cities = (typed) => {
  const q = (typed || "").toLowerCase();
  $("city").innerHTML = CITIES.filter((c) => c.toLowerCase().includes(q))
    .map((c) => `<ion-item><ion-radio value="${c}">${c}</ion-radio></ion-item>`).join("");
};
cities("");
$("city-search").addEventListener("ionInput", (event) => cities(event.target.value));
$("city-cancel").addEventListener("click", () => $("city-modal").dismiss());
$("city").addEventListener("ionChange", (event) => {
  $("city-note").textContent = event.detail.value || "Search a city";
  $("city-modal").dismiss();
});

const day = (value) => (value ? String(value).slice(0, 10) : "");
const clock = (value) => (value ? (String(value).match(/(\d\d:\d\d)/) || [""])[0] : "");
$("trip").addEventListener("submit", (event) => {
  event.preventDefault();
  post({
    name: $("name").value, travellers: $("travellers").value, budget: $("budget").value,
    depart: day($("depart").value), time: clock($("time").value), cabin: $("cabin").value || "",
    city: $("city").value || "", interests: list($("interests").value), meal: $("meal").value || "",
    insurance: yesNo($("insurance").checked), newsletter: yesNo($("newsletter").checked),
    seat: $("seat").value || "",
    extras: list([...document.querySelectorAll("ion-checkbox.extra")].filter((c) => c.checked).map((c) => c.value)),
  });
});
