// PrimeReact (React) with its Lara theme: every widget kind of the trip request, each
// caption a <label for> its input, or (?captions=bare) text above the control.
import "primereact/resources/themes/lara-light-blue/theme.css";
import "primereact/resources/primereact.min.css";
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { PrimeReactProvider } from "primereact/api";
import { Button } from "primereact/button";
import { Calendar } from "primereact/calendar";
import { Checkbox } from "primereact/checkbox";
import { Dropdown } from "primereact/dropdown";
import { InputNumber } from "primereact/inputnumber";
import { InputSwitch } from "primereact/inputswitch";
import { InputText } from "primereact/inputtext";
import { MultiSelect } from "primereact/multiselect";
import { RadioButton } from "primereact/radiobutton";
import { SelectButton } from "primereact/selectbutton";
import { Slider } from "primereact/slider";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, hhmm, isoDate, list, post, yesNo,
} from "./_fields.js";

const Caption = ({ id, text }) =>
  BARE ? <div className="caption">{text}</div> : <label htmlFor={id} className="caption">{text}</label>;

function Trip() {
  const [v, setV] = useState({
    name: "", travellers: 1, budget: 100, depart: null, time: null, cabin: null, city: null,
    interests: [], meal: "", insurance: false, newsletter: false, seat: "Window", extras: [],
  });
  const set = (key, value) => setV((old) => ({ ...old, [key]: value }));
  const toggle = (key, value, on) =>
    setV((old) => ({ ...old, [key]: on ? [...old[key], value] : old[key].filter((x) => x !== value) }));
  const submit = (event) => {
    event.preventDefault();
    post({
      name: v.name, travellers: v.travellers ?? "", budget: v.budget, depart: isoDate(v.depart),
      time: hhmm(v.time), cabin: v.cabin || "", city: v.city || "", interests: list(v.interests),
      meal: v.meal, insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter), seat: v.seat || "",
      extras: list(v.extras),
    });
  };
  return (
    <main style={{ maxWidth: 620, margin: "24px auto", fontFamily: "sans-serif" }}>
      <h2>Trip request</h2>
      <form onSubmit={submit} className="trip">
        <div className="row"><Caption id="name" text={C.name} /><InputText id="name" value={v.name} onChange={(e) => set("name", e.target.value)} /></div>
        <div className="row"><Caption id="travellers" text={C.travellers} /><InputNumber inputId="travellers" min={1} max={9} value={v.travellers} onValueChange={(e) => set("travellers", e.value)} showButtons /></div>
        <div className="row"><div className="caption">{C.budget}</div><Slider value={v.budget} min={50} max={500} step={10} onChange={(e) => set("budget", e.value)} /><span>{v.budget} EUR</span></div>
        <div className="row"><Caption id="depart" text={C.depart} /><Calendar inputId="depart" value={v.depart} onChange={(e) => set("depart", e.value)} dateFormat="dd/mm/yy" showIcon /></div>
        <div className="row"><Caption id="time" text={C.time} /><Calendar inputId="time" value={v.time} onChange={(e) => set("time", e.value)} timeOnly hourFormat="24" /></div>
        <div className="row"><Caption id="cabin" text={C.cabin} /><Dropdown inputId="cabin" value={v.cabin} options={CABINS} onChange={(e) => set("cabin", e.value)} placeholder="Pick one" /></div>
        <div className="row"><Caption id="city" text={C.city} /><Dropdown inputId="city" value={v.city} options={CITIES} onChange={(e) => set("city", e.value)} filter placeholder="Search a city" /></div>
        <div className="row"><Caption id="interests" text={C.interests} /><MultiSelect inputId="interests" value={v.interests} options={INTERESTS} onChange={(e) => set("interests", e.value)} placeholder="Pick any" display="chip" /></div>
        <div className="row"><div className="caption">{C.meal}</div>
          {MEALS.map((m) => (
            <span key={m} style={{ marginRight: 16 }}>
              <RadioButton inputId={`meal-${m}`} name="meal" value={m} onChange={(e) => set("meal", e.value)} checked={v.meal === m} />
              <label htmlFor={`meal-${m}`} style={{ marginLeft: 6 }}>{m}</label>
            </span>
          ))}
        </div>
        <div className="row"><Checkbox inputId="insurance" checked={v.insurance} onChange={(e) => set("insurance", e.checked)} /><label htmlFor="insurance" style={{ marginLeft: 6 }}>{C.insurance}</label></div>
        <div className="row"><InputSwitch inputId="newsletter" checked={v.newsletter} onChange={(e) => set("newsletter", e.value)} /><label htmlFor="newsletter" style={{ marginLeft: 6 }}>{C.newsletter}</label></div>
        <div className="row"><div className="caption">{C.seat}</div><SelectButton value={v.seat} options={SEATS} onChange={(e) => set("seat", e.value)} /></div>
        <div className="row"><div className="caption">{C.extras}</div>
          {EXTRAS.map((x) => (
            <span key={x} style={{ marginRight: 16 }}>
              <Checkbox inputId={`extra-${x}`} value={x} checked={v.extras.includes(x)} onChange={(e) => toggle("extras", x, e.checked)} />
              <label htmlFor={`extra-${x}`} style={{ marginLeft: 6 }}>{x}</label>
            </span>
          ))}
        </div>
        <Button type="submit" label="Send request" />
      </form>
      <style>{".trip .row{margin:14px 0}.trip .caption{display:block;font-weight:600;margin-bottom:6px}"}</style>
    </main>
  );
}

createRoot(document.getElementById("app")).render(<PrimeReactProvider><Trip /></PrimeReactProvider>);
