// Mantine (React): every widget kind of the trip request, captions by Mantine's own
// label props, or (?captions=bare) as text above each control.
import "@mantine/core/styles.css";
import "@mantine/dates/styles.css";
import { useState } from "react";
import { createRoot } from "react-dom/client";
import {
  Button, Checkbox, Container, Group, MantineProvider, MultiSelect, NumberInput, Radio,
  SegmentedControl, Select, Slider, Stack, Switch, Text, TextInput, Title,
} from "@mantine/core";
import { DateInput, TimeInput } from "@mantine/dates";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, isoDate, list, post, yesNo,
} from "./_fields.js";

const label = (text) => (BARE ? undefined : text);
const Caption = ({ text }) => (BARE ? <Text fw={500} size="sm">{text}</Text> : null);

function Trip() {
  const [v, setV] = useState({
    name: "", travellers: 1, budget: 100, depart: null, time: "", cabin: null, city: null,
    interests: [], meal: "", insurance: false, newsletter: false, seat: "Window", extras: [],
  });
  const set = (key) => (value) => setV((old) => ({ ...old, [key]: value }));
  const submit = (event) => {
    event.preventDefault();
    post({
      name: v.name, travellers: v.travellers, budget: v.budget,
      depart: v.depart ? (typeof v.depart === "string" ? v.depart : isoDate(v.depart)) : "",
      time: v.time, cabin: v.cabin || "", city: v.city || "", interests: list(v.interests),
      meal: v.meal, insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter), seat: v.seat,
      extras: list(v.extras),
    });
  };
  return (
    <Container size="sm" py="lg">
      <Title order={2} mb="md">Trip request</Title>
      <form onSubmit={submit}>
        <Stack gap="md">
          <div><Caption text={C.name} /><TextInput label={label(C.name)} value={v.name} onChange={(e) => set("name")(e.currentTarget.value)} /></div>
          <div><Caption text={C.travellers} /><NumberInput label={label(C.travellers)} min={1} max={9} value={v.travellers} onChange={set("travellers")} /></div>
          <div>
            <Text fw={500} size="sm">{C.budget}</Text>
            <Slider min={50} max={500} step={10} value={v.budget} onChange={set("budget")} label={(x) => `${x} EUR`} mb="lg" />
          </div>
          <div><Caption text={C.depart} /><DateInput label={label(C.depart)} valueFormat="DD MMM YYYY" placeholder="Pick a date" value={v.depart} onChange={set("depart")} /></div>
          <div><Caption text={C.time} /><TimeInput label={label(C.time)} value={v.time} onChange={(e) => set("time")(e.currentTarget.value)} /></div>
          <div><Caption text={C.cabin} /><Select label={label(C.cabin)} placeholder="Pick one" data={CABINS} value={v.cabin} onChange={set("cabin")} /></div>
          <div><Caption text={C.city} /><Select label={label(C.city)} searchable placeholder="Search a city" data={CITIES} value={v.city} onChange={set("city")} /></div>
          <div><Caption text={C.interests} /><MultiSelect label={label(C.interests)} placeholder="Pick any" data={INTERESTS} value={v.interests} onChange={set("interests")} /></div>
          <div><Caption text={C.meal} />
            <Radio.Group label={label(C.meal)} value={v.meal} onChange={set("meal")}>
              <Group mt="xs">{MEALS.map((m) => <Radio key={m} value={m} label={m} />)}</Group>
            </Radio.Group>
          </div>
          <Checkbox label={C.insurance} checked={v.insurance} onChange={(e) => set("insurance")(e.currentTarget.checked)} />
          <Switch label={C.newsletter} checked={v.newsletter} onChange={(e) => set("newsletter")(e.currentTarget.checked)} />
          <div>
            <Text fw={500} size="sm">{C.seat}</Text>
            <SegmentedControl data={SEATS} value={v.seat} onChange={set("seat")} />
          </div>
          <div><Caption text={C.extras} />
            <Checkbox.Group label={label(C.extras)} value={v.extras} onChange={set("extras")}>
              <Group mt="xs">{EXTRAS.map((x) => <Checkbox key={x} value={x} label={x} />)}</Group>
            </Checkbox.Group>
          </div>
          <Group><Button type="submit">Send request</Button></Group>
        </Stack>
      </form>
    </Container>
  );
}

createRoot(document.getElementById("app")).render(<MantineProvider><Trip /></MantineProvider>);
