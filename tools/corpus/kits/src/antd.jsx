// Ant Design (React): every widget kind of the trip request, captions by its Form.Item
// labels, or (?captions=bare) as text above each control.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import {
  Button, Checkbox, ConfigProvider, DatePicker, Form, Input, InputNumber, Radio, Segmented,
  Select, Slider, Switch, TimePicker, Typography,
} from "antd";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, list, post, yesNo,
} from "./_fields.js";

const options = (values) => values.map((x) => ({ value: x, label: x }));
const Item = ({ caption, children }) => (
  <div style={{ marginBottom: 16 }}>
    {BARE ? <div style={{ fontWeight: 500, marginBottom: 4 }}>{caption}</div> : null}
    <Form.Item label={BARE ? undefined : caption} style={{ marginBottom: 0 }}>{children}</Form.Item>
  </div>
);

function Trip() {
  const [v, setV] = useState({
    name: "", travellers: 1, budget: 100, depart: null, time: null, cabin: undefined,
    city: undefined, interests: [], meal: "", insurance: false, newsletter: false,
    seat: "Window", extras: [],
  });
  const set = (key) => (value) => setV((old) => ({ ...old, [key]: value }));
  const submit = () => {
    post({
      name: v.name, travellers: v.travellers, budget: v.budget,
      depart: v.depart ? v.depart.format("YYYY-MM-DD") : "",
      time: v.time ? v.time.format("HH:mm") : "", cabin: v.cabin || "", city: v.city || "",
      interests: list(v.interests), meal: v.meal, insurance: yesNo(v.insurance),
      newsletter: yesNo(v.newsletter), seat: v.seat, extras: list(v.extras),
    });
  };
  return (
    <div style={{ maxWidth: 640, margin: "24px auto" }}>
      <Typography.Title level={2}>Trip request</Typography.Title>
      <Form layout="vertical" onFinish={submit}>
        <Item caption={C.name}><Input value={v.name} onChange={(e) => set("name")(e.target.value)} /></Item>
        <Item caption={C.travellers}><InputNumber min={1} max={9} value={v.travellers} onChange={set("travellers")} /></Item>
        <div style={{ marginBottom: 16 }}>
          <div style={{ fontWeight: 500 }}>{C.budget}</div>
          <Slider min={50} max={500} step={10} value={v.budget} onChange={set("budget")} />
        </div>
        <Item caption={C.depart}><DatePicker format="DD/MM/YYYY" value={v.depart} onChange={set("depart")} /></Item>
        <Item caption={C.time}><TimePicker format="HH:mm" minuteStep={15} value={v.time} onChange={set("time")} /></Item>
        <Item caption={C.cabin}><Select placeholder="Pick one" options={options(CABINS)} value={v.cabin} onChange={set("cabin")} /></Item>
        <Item caption={C.city}><Select showSearch placeholder="Search a city" options={options(CITIES)} value={v.city} onChange={set("city")} /></Item>
        <Item caption={C.interests}><Select mode="multiple" placeholder="Pick any" options={options(INTERESTS)} value={v.interests} onChange={set("interests")} /></Item>
        <Item caption={C.meal}>
          <Radio.Group value={v.meal} onChange={(e) => set("meal")(e.target.value)}>
            {MEALS.map((m) => <Radio key={m} value={m}>{m}</Radio>)}
          </Radio.Group>
        </Item>
        <div style={{ marginBottom: 16 }}>
          <Checkbox checked={v.insurance} onChange={(e) => set("insurance")(e.target.checked)}>{C.insurance}</Checkbox>
        </div>
        <div style={{ marginBottom: 16 }}>
          <label><Switch checked={v.newsletter} onChange={set("newsletter")} /> {C.newsletter}</label>
        </div>
        <div style={{ marginBottom: 16 }}>
          <div style={{ fontWeight: 500 }}>{C.seat}</div>
          <Segmented options={SEATS} value={v.seat} onChange={set("seat")} />
        </div>
        <Item caption={C.extras}><Checkbox.Group options={EXTRAS} value={v.extras} onChange={set("extras")} /></Item>
        <Button type="primary" htmlType="submit">Send request</Button>
      </Form>
    </div>
  );
}

createRoot(document.getElementById("app")).render(<ConfigProvider><Trip /></ConfigProvider>);
