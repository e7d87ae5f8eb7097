// Fluent UI React v9 (Microsoft): every widget kind of the trip request as Fluent's docs show
// them, each control in a Field whose label names it, or (?captions=bare) a caption line
// above each control tied to nothing. The date is the compat DatePicker (a read-only input
// opening a calendar), the time the compat TimePicker (a combobox of times every 15
// minutes), the destination a Combobox filtered by useComboboxFilter. Fluent has no
// toggle group (the seat is a Toolbar's radio group) and no checkbox group (the extras are
// checkboxes in a group named by a Label).
import { useId, useState } from "react";
import { createRoot } from "react-dom/client";
import {
  Button, Checkbox, Combobox, Dropdown, Field, FluentProvider, Label, Option, Radio, RadioGroup,
  Slider, SpinButton, Switch, Text, Title2, Toolbar, ToolbarRadioButton, ToolbarRadioGroup,
  Input, useComboboxFilter, webLightTheme,
} from "@fluentui/react-components";
import { DatePicker } from "@fluentui/react-datepicker-compat";
import { TimePicker } from "@fluentui/react-timepicker-compat";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, hhmm, isoDate, list, post,
  yesNo,
} from "./_fields.js";

const Caption = ({ text }) => (BARE ? <Text weight="semibold" block>{text}</Text> : null);
const Row = ({ caption, children }) => (
  <div className="row"><Caption text={caption} />{BARE ? children : <Field label={caption}>{children}</Field>}</div>
);

function City({ value, onChange }) {
  const [query, setQuery] = useState(value || "");
  const children = useComboboxFilter(query, CITIES, { noOptionsMessage: "No city matches" });
  return (
    <Combobox
      placeholder="Search a city"
      value={query}
      selectedOptions={value ? [value] : []}
      onChange={(event) => setQuery(event.target.value)}
      onOptionSelect={(_, data) => {
        setQuery(data.optionText ?? "");
        onChange(data.optionValue ?? null);
      }}
    >
      {children}
    </Combobox>
  );
}

function Trip() {
  const [v, setV] = useState({
    name: "", travellers: 1, budget: 100, depart: null, time: null, cabin: null, city: null,
    interests: [], meal: "", insurance: false, newsletter: false, seat: "Window", extras: [],
  });
  const set = (key) => (value) => setV((old) => ({ ...old, [key]: value }));
  const extrasId = useId();
  const submit = (event) => {
    event.preventDefault();
    post({
      name: v.name, travellers: v.travellers ?? "", budget: v.budget, depart: isoDate(v.depart),
      time: hhmm(v.time), cabin: v.cabin || "", city: v.city || "", interests: list(v.interests),
      meal: v.meal, insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter), seat: v.seat,
      extras: list(EXTRAS.filter((x) => v.extras.includes(x))),
    });
  };
  return (
    <main className="trip">
      <Title2 as="h2">Trip request</Title2>
      <form onSubmit={submit}>
        <Row caption={C.name}><Input value={v.name} onChange={(_, d) => set("name")(d.value)} /></Row>
        <Row caption={C.travellers}>
          <SpinButton min={1} max={9} value={v.travellers}
            onChange={(_, d) => set("travellers")(d.value ?? (d.displayValue ? Number(d.displayValue) : null))} />
        </Row>
        <Row caption={C.budget}>
          <Slider min={50} max={500} step={10} value={v.budget} onChange={(_, d) => set("budget")(d.value)} />
        </Row>
        <Row caption={C.depart}>
          <DatePicker placeholder="Pick a date" value={v.depart} onSelectDate={set("depart")} />
        </Row>
        <Row caption={C.time}>
          <TimePicker hourCycle="h23" increment={15} placeholder="Pick a time" selectedTime={v.time}
            onTimeChange={(_, d) => set("time")(d.selectedTime)} />
        </Row>
        <Row caption={C.cabin}>
          <Dropdown placeholder="Pick one" value={v.cabin || ""} selectedOptions={v.cabin ? [v.cabin] : []}
            onOptionSelect={(_, d) => set("cabin")(d.optionValue)}>
            {CABINS.map((c) => <Option key={c}>{c}</Option>)}
          </Dropdown>
        </Row>
        <Row caption={C.city}><City value={v.city} onChange={set("city")} /></Row>
        <Row caption={C.interests}>
          <Dropdown multiselect placeholder="Pick any" value={v.interests.join(", ")} selectedOptions={v.interests}
            onOptionSelect={(_, d) => set("interests")(d.selectedOptions)}>
            {INTERESTS.map((x) => <Option key={x}>{x}</Option>)}
          </Dropdown>
        </Row>
        <Row caption={C.meal}>
          <RadioGroup layout="horizontal" value={v.meal} onChange={(_, d) => set("meal")(d.value)}>
            {MEALS.map((m) => <Radio key={m} value={m} label={m} />)}
          </RadioGroup>
        </Row>
        <div className="row"><Checkbox label={C.insurance} checked={v.insurance} onChange={(_, d) => set("insurance")(!!d.checked)} /></div>
        <div className="row"><Switch label={C.newsletter} checked={v.newsletter} onChange={(_, d) => set("newsletter")(d.checked)} /></div>
        <div className="row">
          <Text weight="semibold" block>{C.seat}</Text>
          <Toolbar checkedValues={{ seat: [v.seat] }} onCheckedValueChange={(_, d) => set("seat")(d.checkedItems[0])}>
            <ToolbarRadioGroup>
              {SEATS.map((s) => <ToolbarRadioButton key={s} name="seat" value={s} appearance="subtle">{s}</ToolbarRadioButton>)}
            </ToolbarRadioGroup>
          </Toolbar>
        </div>
        <div className="row" role="group" aria-labelledby={BARE ? undefined : extrasId}>
          {BARE ? <Caption text={C.extras} /> : <Label id={extrasId}>{C.extras}</Label>}
          {EXTRAS.map((x) => (
            <Checkbox key={x} label={x} checked={v.extras.includes(x)}
              onChange={(_, d) => set("extras")(d.checked ? [...v.extras, x] : v.extras.filter((e) => e !== x))} />
          ))}
        </div>
        <Button type="submit" appearance="primary">Send request</Button>
      </form>
      <style>{".trip{max-width:620px;margin:24px auto}.trip .row{margin:14px 0;display:flex;flex-direction:column;gap:4px;align-items:flex-start}.trip .row>.fui-Field{width:100%}"}</style>
    </main>
  );
}

createRoot(document.getElementById("app")).render(<FluentProvider theme={webLightTheme}><Trip /></FluentProvider>);
