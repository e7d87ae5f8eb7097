// Blueprint (Palantir, React): every widget kind of the trip request as Blueprint's docs show
// them, each control in a FormGroup whose label names it, or (?captions=bare) a caption line
// above each control tied to nothing. The date is @blueprintjs/datetime's DateInput (its
// calendar in a popover, dates up to two years ahead where Blueprint's default stops at six
// months), the time its TimePicker (hour and minute boxes), the selects @blueprintjs/select's
// Select, Suggest and MultiSelect with menu items, the seat a SegmentedControl.
import "@blueprintjs/core/lib/css/blueprint.css";
import "@blueprintjs/datetime/lib/css/blueprint-datetime.css";
import "@blueprintjs/select/lib/css/blueprint-select.css";
import { useState } from "react";
import { createRoot } from "react-dom/client";
import {
  Button, Checkbox, FormGroup, H2, InputGroup, MenuItem, NumericInput, Radio, RadioGroup,
  SegmentedControl, Slider, Switch,
} from "@blueprintjs/core";
import { DateInput, TimePicker } from "@blueprintjs/datetime";
import { MultiSelect, Select, Suggest } from "@blueprintjs/select";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, hhmm, list, post, yesNo,
} from "./_fields.js";

const Row = ({ caption, id, children }) => (
  <FormGroup label={BARE ? undefined : caption} labelFor={BARE ? undefined : id}>
    {BARE ? <div className="cap">{caption}</div> : null}
    {children}
  </FormGroup>
);
const itemsOf = (isSelected) => (item, { handleClick, handleFocus, modifiers }) =>
  modifiers.matchesPredicate ? (
    <MenuItem key={item} text={item} roleStructure="listoption" active={modifiers.active}
      selected={isSelected(item)} disabled={modifiers.disabled} onClick={handleClick} onFocus={handleFocus} />
  ) : null;
const filterItem = (query, item) => item.toLowerCase().includes(query.toLowerCase());
const inTwoYears = new Date(new Date().getFullYear() + 2, 11, 31);

function Trip() {
  const [v, setV] = useState({
    name: "", travellers: 1, budget: 100, depart: null, time: null, cabin: null, city: null,
    interests: [], meal: "", insurance: false, newsletter: false, seat: "Window", extras: [],
  });
  const set = (key) => (value) => setV((old) => ({ ...old, [key]: value }));
  const toggle = (item) => (old) => (old.includes(item) ? old.filter((x) => x !== item) : [...old, item]);
  const submit = (event) => {
    event.preventDefault();
    post({
      name: v.name, travellers: v.travellers ?? "", budget: v.budget, depart: v.depart ? v.depart.slice(0, 10) : "",
      time: hhmm(v.time), cabin: v.cabin || "", city: v.city || "", interests: list(v.interests),
      meal: v.meal, insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter), seat: v.seat,
      extras: list(EXTRAS.filter((x) => v.extras.includes(x))),
    });
  };
  return (
    <main className="trip">
      <H2>Trip request</H2>
      <form onSubmit={submit}>
        <Row caption={C.name} id="name"><InputGroup id="name" value={v.name} onValueChange={set("name")} /></Row>
        <Row caption={C.travellers} id="travellers">
          <NumericInput id="travellers" min={1} max={9} value={v.travellers ?? ""}
            onValueChange={(n, s) => set("travellers")(s === "" ? null : n)} />
        </Row>
        <FormGroup label={C.budget}>
          <Slider min={50} max={500} stepSize={10} labelStepSize={150} value={v.budget} onChange={set("budget")} />
        </FormGroup>
        <Row caption={C.depart} id="depart">
          <DateInput inputProps={{ id: "depart" }} placeholder="Pick a date" dateFnsFormat="d MMM yyyy"
            minDate={new Date()} maxDate={inTwoYears} value={v.depart} onChange={set("depart")} />
        </Row>
        <Row caption={C.time}>
          <TimePicker value={v.time} onChange={set("time")} />
        </Row>
        <Row caption={C.cabin} id="cabin">
          <Select items={CABINS} itemRenderer={itemsOf((x) => x === v.cabin)} filterable={false} onItemSelect={set("cabin")} popoverProps={{ minimal: true }}>
            <Button id="cabin" text={v.cabin || "Pick one"} endIcon="double-caret-vertical" />
          </Select>
        </Row>
        <Row caption={C.city} id="city">
          <Suggest items={CITIES} itemRenderer={itemsOf((x) => x === v.city)} itemPredicate={filterItem} selectedItem={v.city}
            inputValueRenderer={(item) => item} onItemSelect={set("city")} inputProps={{ id: "city", placeholder: "Search a city" }}
            noResults={<MenuItem disabled text="No city matches" roleStructure="listoption" />} popoverProps={{ minimal: true }} />
        </Row>
        <Row caption={C.interests} id="interests">
          <MultiSelect items={INTERESTS} itemRenderer={itemsOf((x) => v.interests.includes(x))}
            itemPredicate={filterItem} selectedItems={v.interests} tagRenderer={(item) => item} placeholder="Pick any"
            onItemSelect={(item) => setV((old) => ({ ...old, interests: toggle(item)(old.interests) }))}
            onRemove={(item) => setV((old) => ({ ...old, interests: old.interests.filter((x) => x !== item) }))}
            tagInputProps={{ inputProps: { id: "interests" } }} popoverProps={{ minimal: true }} />
        </Row>
        {BARE ? <div className="cap">{C.meal}</div> : null}
        <RadioGroup label={BARE ? undefined : C.meal} inline selectedValue={v.meal} onChange={(e) => set("meal")(e.currentTarget.value)}>
          {MEALS.map((m) => <Radio key={m} value={m} label={m} />)}
        </RadioGroup>
        <Checkbox label={C.insurance} checked={v.insurance} onChange={(e) => set("insurance")(e.currentTarget.checked)} />
        <Switch label={C.newsletter} checked={v.newsletter} onChange={(e) => set("newsletter")(e.currentTarget.checked)} />
        <FormGroup label={C.seat}>
          <SegmentedControl options={SEATS.map((s) => ({ label: s, value: s }))} value={v.seat} onValueChange={set("seat")} />
        </FormGroup>
        <FormGroup label={BARE ? undefined : C.extras}>
          {BARE ? <div className="cap">{C.extras}</div> : null}
          {EXTRAS.map((x) => (
            <Checkbox key={x} label={x} checked={v.extras.includes(x)}
              onChange={() => setV((old) => ({ ...old, extras: toggle(x)(old.extras) }))} />
          ))}
        </FormGroup>
        <Button type="submit" intent="primary" text="Send request" />
      </form>
      <style>{".trip{max-width:620px;margin:24px auto;padding:0 12px}.trip .cap{font-weight:600;margin-bottom:6px}"}</style>
    </main>
  );
}

createRoot(document.getElementById("app")).render(<Trip />);
