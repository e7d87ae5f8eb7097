// The trip request every kit's form asks for: one field of each widget kind a form
// uses, with the same captions and options in every kit. A page opened with
// ?captions=bare draws each caption as text beside its control, tied to it by nothing
// (no label element, no for, no aria-labelledby), as many real forms do.
export { post } from "../../bundles/post.js";

export const BARE = new URLSearchParams(location.search).get("captions") === "bare";

export const CAPTIONS = {
  name: "Full name",
  travellers: "Travellers",
  budget: "Hotel budget per night (EUR)",
  depart: "Departure date",
  time: "Departure time",
  cabin: "Cabin class",
  city: "Destination",
  interests: "Interests",
  meal: "Meal",
  insurance: "Add travel insurance",
  newsletter: "Email me offers",
  seat: "Seat",
  extras: "Extras",
};

export const CABINS = ["Economy", "Premium economy", "Business", "First"];
export const CITIES = [
  "Amsterdam", "Athens", "Barcelona", "Berlin", "Bern", "Bratislava", "Brussels",
  "Bucharest", "Budapest", "Copenhagen", "Dublin", "Helsinki", "Lisbon", "Ljubljana",
  "London", "Luxembourg", "Madrid", "Oslo", "Paris", "Prague", "Riga", "Rome",
  "Sofia", "Stockholm", "Tallinn", "Vienna", "Vilnius", "Warsaw", "Zagreb",
];
export const INTERESTS = ["Museums", "Food", "Hiking", "Nightlife", "Beaches"];
export const MEALS = ["Standard", "Vegetarian", "Vegan"];
export const SEATS = ["Window", "Aisle", "Middle"];
export const EXTRAS = ["Extra legroom", "Priority boarding", "Lounge access"];

const two = (n) => String(n).padStart(2, "0");
export const isoDate = (d) =>
  d instanceof Date && !isNaN(d) ? `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}` : "";
export const hhmm = (d) => (d instanceof Date && !isNaN(d) ? `${two(d.getHours())}:${two(d.getMinutes())}` : "");
export const yesNo = (on) => (on ? "yes" : "no");
export const list = (values) => (values || []).join(",");
