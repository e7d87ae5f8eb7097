export { post } from "../../bundles/post.js";

export const CATEGORIES = ["Conference", "Workshop", "Meetup", "Webinar"];
export const CITIES = [
  "Amsterdam", "Athens", "Barcelona", "Berlin", "Bern", "Bratislava", "Brussels",
  "Bucharest", "Budapest", "Copenhagen", "Dublin", "Helsinki", "Lisbon", "Ljubljana",
  "London", "Luxembourg", "Madrid", "Oslo", "Paris", "Prague", "Riga", "Rome",
  "Sofia", "Stockholm", "Tallinn", "Vienna", "Vilnius", "Warsaw", "Zagreb",
];
