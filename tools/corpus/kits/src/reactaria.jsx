// React Aria Components (Adobe, React): every widget kind of the trip request from its
// unstyled accessible parts, styled by this page as sites style them (the date and the time
// as fields of typed segments, the date's calendar in a popover), captioned by each part's
// own Label, or (?captions=bare) by text above the control tied to nothing.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import {
  Button, Calendar, CalendarCell, CalendarGrid, Checkbox, CheckboxGroup, ComboBox, DateInput,
  DatePicker, DateSegment, Dialog, Group, Heading, Input, Label, ListBox, ListBoxItem, NumberField,
  Popover, Radio, RadioGroup, Select, SelectValue, Slider, SliderOutput, SliderThumb, SliderTrack,
  Switch, TextField, TimeField, ToggleButton, ToggleButtonGroup,
} from "react-aria-components";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, list, post, yesNo,
} from "./_fields.js";

const Caption = ({ text }) => (BARE ? <div className="cap">{text}</div> : <Label className="cap">{text}</Label>);
const Box = () => <span className="box" aria-hidden="true" />;
const Items = ({ values }) => (
  <Popover><ListBox className="list">{values.map((x) => <ListBoxItem key={x} id={x} className="item">{x}</ListBoxItem>)}</ListBox></Popover>
);

function Trip() {
  const [v, setV] = useState({
    name: "", travellers: 1, budget: 100, depart: null, time: null, cabin: null, city: null,
    interests: [], meal: "", insurance: false, newsletter: false, seat: new Set(["Window"]), extras: [],
  });
  const set = (key) => (value) => setV((old) => ({ ...old, [key]: value }));
  const submit = (event) => {
    event.preventDefault();
    post({
      name: v.name, travellers: Number.isNaN(v.travellers) ? "" : v.travellers, budget: v.budget,
      depart: v.depart ? v.depart.toString() : "", time: v.time ? v.time.toString().slice(0, 5) : "",
      cabin: v.cabin || "", city: v.city || "", interests: list(v.interests), meal: v.meal,
      insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter), seat: [...v.seat][0] || "",
      extras: list(v.extras),
    });
  };
  return (
    <main className="trip">
      <h2>Trip request</h2>
      <form onSubmit={submit}>
        <TextField className="row" value={v.name} onChange={set("name")}><Caption text={C.name} /><Input /></TextField>
        <NumberField className="row" minValue={1} maxValue={9} value={v.travellers} onChange={set("travellers")}>
          <Caption text={C.travellers} />
          <Group className="inline"><Button slot="decrement">−</Button><Input /><Button slot="increment">+</Button></Group>
        </NumberField>
        <Slider className="row" minValue={50} maxValue={500} step={10} value={v.budget} onChange={set("budget")}>
          <Label className="cap">{C.budget}</Label><SliderOutput />
          <SliderTrack className="track"><SliderThumb className="thumb" /></SliderTrack>
        </Slider>
        <DatePicker className="row" value={v.depart} onChange={set("depart")}>
          <Caption text={C.depart} />
          <Group className="inline">
            <DateInput className="segments">{(s) => <DateSegment segment={s} />}</DateInput>
            <Button>▾</Button>
          </Group>
          <Popover><Dialog className="calendar">
            <Calendar>
              <header className="inline"><Button slot="previous">◀</Button><Heading /><Button slot="next">▶</Button></header>
              <CalendarGrid>{(date) => <CalendarCell date={date} className="cell" />}</CalendarGrid>
            </Calendar>
          </Dialog></Popover>
        </DatePicker>
        <TimeField className="row" value={v.time} onChange={set("time")} hourCycle={24}>
          <Caption text={C.time} />
          <DateInput className="segments inline">{(s) => <DateSegment segment={s} />}</DateInput>
        </TimeField>
        <Select className="row" value={v.cabin} onChange={set("cabin")} placeholder="Pick one">
          <Caption text={C.cabin} /><Button className="pick"><SelectValue /><span aria-hidden="true"> ▾</span></Button>
          <Items values={CABINS} />
        </Select>
        <ComboBox className="row" selectedKey={v.city} onSelectionChange={set("city")}>
          <Caption text={C.city} />
          <div className="inline"><Input /><Button>▾</Button></div>
          <Items values={CITIES} />
        </ComboBox>
        <Select className="row" selectionMode="multiple" value={v.interests} onChange={set("interests")} placeholder="Pick any">
          <Caption text={C.interests} /><Button className="pick"><SelectValue /><span aria-hidden="true"> ▾</span></Button>
          <Items values={INTERESTS} />
        </Select>
        <RadioGroup className="row" value={v.meal} onChange={set("meal")} orientation="horizontal">
          <Caption text={C.meal} />
          {MEALS.map((m) => <Radio key={m} value={m} className="opt"><Box />{m}</Radio>)}
        </RadioGroup>
        <div className="row"><Checkbox isSelected={v.insurance} onChange={set("insurance")} className="opt"><Box />{C.insurance}</Checkbox></div>
        <div className="row"><Switch isSelected={v.newsletter} onChange={set("newsletter")} className="opt"><span className="track-sw" aria-hidden="true" />{C.newsletter}</Switch></div>
        <div className="row"><div className="cap">{C.seat}</div>
          <ToggleButtonGroup selectedKeys={v.seat} onSelectionChange={set("seat")} disallowEmptySelection className="inline">
            {SEATS.map((s) => <ToggleButton key={s} id={s} className="seg">{s}</ToggleButton>)}
          </ToggleButtonGroup></div>
        <CheckboxGroup className="row" value={v.extras} onChange={set("extras")}>
          <Caption text={C.extras} />
          {EXTRAS.map((x) => <Checkbox key={x} value={x} className="opt"><Box />{x}</Checkbox>)}
        </CheckboxGroup>
        <Button type="submit" className="send">Send request</Button>
      </form>
    </main>
  );
}

const css = `
.trip{max-width:620px;margin:24px auto;font-family:sans-serif}.trip .row{display:flex;flex-direction:column;gap:6px;margin:16px 0}
.trip .cap{font-weight:600}.trip input{padding:6px;font-size:15px;border:1px solid #999;border-radius:4px}
.trip .inline{display:flex;gap:6px;align-items:center}.segments{display:flex;padding:6px;border:1px solid #999;border-radius:4px;min-width:10rem}
.track{height:24px;width:100%;position:relative}.track:before{content:"";position:absolute;top:10px;height:4px;width:100%;background:#bbb}
.thumb{top:4px;width:16px;height:16px;border-radius:50%;background:#2563eb}
.pick{min-width:14rem;text-align:left;padding:6px}.list{background:#fff;border:1px solid #999;padding:4px;max-height:260px;overflow:auto;outline:none}
.item{padding:4px 8px;cursor:default}.item[data-focused]{background:#dbeafe}.item[data-selected]{font-weight:700}
.opt{display:inline-flex;align-items:center;gap:6px;margin-right:16px}
.box{width:14px;height:14px;border:2px solid #555;border-radius:3px;display:inline-block}
[data-selected]>.box{background:#2563eb;border-color:#2563eb}
.track-sw{width:30px;height:16px;border-radius:8px;background:#bbb;display:inline-block}[data-selected]>.track-sw{background:#2563eb}
.seg{padding:6px 12px;border:1px solid #999;background:#fff}.seg[data-selected]{background:#2563eb;color:#fff}
.calendar{background:#fff;border:1px solid #999;padding:8px}.cell{padding:4px;text-align:center;cursor:default}
.cell[data-outside-month]{display:none}.cell[data-selected]{background:#2563eb;color:#fff}
.send{margin-top:12px;padding:8px 16px;background:#2563eb;color:#fff;border:0;border-radius:4px}`;

createRoot(document.getElementById("app")).render(<><style>{css}</style><Trip /></>);
