// react-datepicker in American English: a date typed or picked as MM/dd/yyyy within a
// year from a fixed day, a time picked from its list, a second date field, an inline
// calendar labelled on its container, and a host field whose suggestions are plain
// elements that come late (a debounced lookup) with one click handler on their list.
import { useRef, useState } from "react";
import { createRoot } from "react-dom/client";
import DatePicker from "react-datepicker";
import "react-datepicker/dist/react-datepicker.css";
import { post, CATEGORIES } from "./_post.js";

const HOSTS = ["Ada Lovelace", "Alan Turing", "Barbara Liskov", "Edsger Dijkstra", "Grace Hopper", "Margaret Hamilton"];
const pad = (n) => String(n).padStart(2, "0");
const iso = (d) => (d ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` : "");
const hm = (d) => (d ? `${pad(d.getHours())}:${pad(d.getMinutes())}` : "");
// the earliest and latest event dates the page allows (set by the test through the URL)
const params = new URLSearchParams(location.search);
const MIN = params.get("min") ? new Date(params.get("min") + "T00:00") : null;
const MAX = params.get("max") ? new Date(params.get("max") + "T00:00") : null;

function HostLookup({ value, onChange }) {
  const [text, setText] = useState("");
  const [found, setFound] = useState([]);
  const timer = useRef(null);
  const type = (e) => {
    const typed = e.target.value;
    setText(typed);
    onChange("");
    clearTimeout(timer.current);
    setFound([]);
    if (!typed) return;
    timer.current = setTimeout(() => {
      setFound(HOSTS.filter((h) => h.toLowerCase().includes(typed.toLowerCase())));
    }, 600);
  };
  const pick = (e) => {
    const name = e.target.closest("[data-host]")?.dataset.host;
    if (!name) return;
    setText(name);
    onChange(name);
    setFound([]);
  };
  return (
    <div className="lookup">
      <input id="host" value={text} onChange={type} autoComplete="off" />
      {found.length > 0 && (
        <div className="suggestions" onClick={pick}>
          {found.map((h) => (
            <div key={h} data-host={h} className="suggestion">
              {h}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

function EventForm() {
  const [name, setName] = useState("");
  const [date, setDate] = useState(null);
  const [end, setEnd] = useState(null);
  const [time, setTime] = useState(null);
  const [tickets, setTickets] = useState("10");
  const [category, setCategory] = useState("");
  const [host, setHost] = useState("");
  const [preferred, setPreferred] = useState(null);
  const submit = (e) => {
    e.preventDefault();
    post({ name, date: iso(date), end: iso(end), time: hm(time), tickets, category, host, preferred: iso(preferred) });
  };
  return (
    <main>
      <h1>New event</h1>
      <form onSubmit={submit}>
        <div className="row">
          <label htmlFor="name">Event name</label>
          <input id="name" value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="row">
          <label htmlFor="date">Event date</label>
          <DatePicker id="date" selected={date} onChange={setDate} dateFormat="MM/dd/yyyy" placeholderText="mm/dd/yyyy" minDate={MIN} maxDate={MAX} />
        </div>
        <div className="row">
          <label htmlFor="end">End date</label>
          <DatePicker id="end" selected={end} onChange={setEnd} dateFormat="MM/dd/yyyy" placeholderText="mm/dd/yyyy" />
        </div>
        <div className="row">
          <label htmlFor="time">Start time</label>
          <DatePicker id="time" selected={time} onChange={setTime} showTimeSelect showTimeSelectOnly timeIntervals={15} timeCaption="Time" dateFormat="h:mm aa" placeholderText="Select a time" />
        </div>
        <div className="row">
          <label htmlFor="tickets">Tickets</label>
          <input id="tickets" type="number" min="0" max="500" value={tickets} onChange={(e) => setTickets(e.target.value)} />
        </div>
        <div className="row">
          <label htmlFor="category">Category</label>
          <select id="category" value={category} onChange={(e) => setCategory(e.target.value)}>
            <option value="">Choose…</option>
            {CATEGORIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
        <div className="row">
          <label htmlFor="host">Host</label>
          <HostLookup value={host} onChange={setHost} />
        </div>
        <div className="row" role="group" aria-labelledby="preferred-label">
          <span id="preferred-label" className="caption">Preferred day</span>
          <DatePicker inline selected={preferred} onChange={setPreferred} />
        </div>
        <button type="submit">Create event</button>
      </form>
    </main>
  );
}

const style = document.createElement("style");
style.textContent = `
  body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 40rem; }
  .row { display: flex; gap: 1rem; align-items: flex-start; margin: .8rem 0; }
  .row > label, .row > .caption { width: 9rem; padding-top: .3rem; }
  input { padding: .3rem; font: inherit; }
  .lookup { position: relative; }
  .suggestions { position: absolute; z-index: 5; background: white; border: 1px solid #ccc; min-width: 14rem; }
  .suggestion { padding: .3rem .6rem; }
  .suggestion:hover { background: #eef; cursor: pointer; }
`;
document.head.appendChild(style);
createRoot(document.getElementById("app")).render(<EventForm />);
