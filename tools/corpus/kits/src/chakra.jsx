// Chakra UI 3 (React, its widgets from Ark UI's state machines): every widget kind of the
// trip request, captions by Chakra's own Field/Fieldset labels, or (?captions=bare) as text
// above each control tied to nothing.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import {
  Box, Button, Checkbox, CheckboxGroup, ChakraProvider, Combobox, Container, DatePicker, Field,
  Fieldset, Heading, HStack, Input, NumberInput, Portal, RadioGroup, SegmentGroup, Select, Slider,
  Stack, Switch, Text, createListCollection, defaultSystem, useFilter, useListCollection,
} from "@chakra-ui/react";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, list, post, yesNo,
} from "./_fields.js";

const Caption = ({ text }) => (BARE ? <Text fontWeight="semibold" fontSize="sm">{text}</Text> : null);
const Label = ({ part: Part, text }) => (BARE ? null : <Part>{text}</Part>);
const cabins = createListCollection({ items: CABINS });
const interests = createListCollection({ items: INTERESTS });

function Choice({ caption, collection, value, onChange, multiple }) {
  return (
    <Select.Root collection={collection} multiple={multiple} value={value} onValueChange={(e) => onChange(e.value)}>
      <Select.HiddenSelect />
      <Label part={Select.Label} text={caption} />
      <Select.Control>
        <Select.Trigger><Select.ValueText placeholder="Pick one" /></Select.Trigger>
        <Select.IndicatorGroup><Select.Indicator /></Select.IndicatorGroup>
      </Select.Control>
      <Portal><Select.Positioner><Select.Content>
        {collection.items.map((item) => (
          <Select.Item item={item} key={item}>{item}<Select.ItemIndicator /></Select.Item>
        ))}
      </Select.Content></Select.Positioner></Portal>
    </Select.Root>
  );
}

function City({ value, onChange }) {
  const { contains } = useFilter({ sensitivity: "base" });
  const { collection, filter } = useListCollection({ initialItems: CITIES, filter: contains });
  return (
    <Combobox.Root collection={collection} value={value} onValueChange={(e) => onChange(e.value)}
      onInputValueChange={(e) => filter(e.inputValue)}>
      <Label part={Combobox.Label} text={C.city} />
      <Combobox.Control>
        <Combobox.Input placeholder="Type to search" />
        <Combobox.IndicatorGroup><Combobox.ClearTrigger /><Combobox.Trigger /></Combobox.IndicatorGroup>
      </Combobox.Control>
      <Portal><Combobox.Positioner><Combobox.Content>
        <Combobox.Empty>No city found</Combobox.Empty>
        {collection.items.map((item) => (
          <Combobox.Item item={item} key={item}>{item}<Combobox.ItemIndicator /></Combobox.Item>
        ))}
      </Combobox.Content></Combobox.Positioner></Portal>
    </Combobox.Root>
  );
}

function Depart({ onChange }) {
  return (
    <DatePicker.Root onValueChange={(e) => onChange(e.value[0] ? e.value[0].toString() : "")}>
      <Label part={DatePicker.Label} text={C.depart} />
      <DatePicker.Control>
        <DatePicker.Input />
        <DatePicker.IndicatorGroup><DatePicker.Trigger>📅</DatePicker.Trigger></DatePicker.IndicatorGroup>
      </DatePicker.Control>
      <Portal><DatePicker.Positioner><DatePicker.Content>
        <DatePicker.View view="day"><DatePicker.Header /><DatePicker.DayTable /></DatePicker.View>
        <DatePicker.View view="month"><DatePicker.Header /><DatePicker.MonthTable /></DatePicker.View>
        <DatePicker.View view="year"><DatePicker.Header /><DatePicker.YearTable /></DatePicker.View>
      </DatePicker.Content></DatePicker.Positioner></Portal>
    </DatePicker.Root>
  );
}

function Trip() {
  const [v, setV] = useState({
    name: "", travellers: "1", budget: [100], depart: "", time: "", cabin: [], city: [],
    interests: [], meal: "", insurance: false, newsletter: false, seat: "Window", extras: [],
  });
  const set = (key) => (value) => setV((old) => ({ ...old, [key]: value }));
  const submit = (event) => {
    event.preventDefault();
    post({
      name: v.name, travellers: v.travellers, budget: v.budget[0], depart: v.depart, time: v.time,
      cabin: v.cabin[0] || "", city: v.city[0] || "", interests: list(v.interests), meal: v.meal,
      insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter), seat: v.seat,
      extras: list(v.extras),
    });
  };
  return (
    <Container maxW="lg" py="6">
      <Heading size="2xl" mb="4">Trip request</Heading>
      <form onSubmit={submit}>
        <Stack gap="5">
          <Box><Caption text={C.name} /><Field.Root><Label part={Field.Label} text={C.name} />
            <Input value={v.name} onChange={(e) => set("name")(e.target.value)} /></Field.Root></Box>
          <Box><Caption text={C.travellers} /><Field.Root><Label part={Field.Label} text={C.travellers} />
            <NumberInput.Root min={1} max={9} value={v.travellers} onValueChange={(e) => set("travellers")(e.value)}>
              <NumberInput.Control /><NumberInput.Input />
            </NumberInput.Root></Field.Root></Box>
          <Slider.Root min={50} max={500} step={10} value={v.budget} onValueChange={(e) => set("budget")(e.value)}>
            <HStack justify="space-between"><Slider.Label>{C.budget}</Slider.Label><Slider.ValueText /></HStack>
            <Slider.Control><Slider.Track><Slider.Range /></Slider.Track><Slider.Thumbs /></Slider.Control>
          </Slider.Root>
          <Box><Caption text={C.depart} /><Depart onChange={set("depart")} /></Box>
          <Box><Caption text={C.time} /><Field.Root><Label part={Field.Label} text={C.time} />
            <Input type="time" value={v.time} onChange={(e) => set("time")(e.target.value)} /></Field.Root></Box>
          <Box><Caption text={C.cabin} /><Choice caption={C.cabin} collection={cabins} value={v.cabin} onChange={set("cabin")} /></Box>
          <Box><Caption text={C.city} /><City value={v.city} onChange={set("city")} /></Box>
          <Box><Caption text={C.interests} /><Choice caption={C.interests} collection={interests} multiple value={v.interests} onChange={set("interests")} /></Box>
          <Box><Caption text={C.meal} />
            <RadioGroup.Root value={v.meal} onValueChange={(e) => set("meal")(e.value)}>
              <Label part={RadioGroup.Label} text={C.meal} />
              <HStack gap="6" mt="2">{MEALS.map((m) => (
                <RadioGroup.Item key={m} value={m}>
                  <RadioGroup.ItemHiddenInput /><RadioGroup.ItemIndicator /><RadioGroup.ItemText>{m}</RadioGroup.ItemText>
                </RadioGroup.Item>
              ))}</HStack>
            </RadioGroup.Root></Box>
          <Checkbox.Root checked={v.insurance} onCheckedChange={(e) => set("insurance")(!!e.checked)}>
            <Checkbox.HiddenInput /><Checkbox.Control /><Checkbox.Label>{C.insurance}</Checkbox.Label>
          </Checkbox.Root>
          <Switch.Root checked={v.newsletter} onCheckedChange={(e) => set("newsletter")(e.checked)}>
            <Switch.HiddenInput /><Switch.Control /><Switch.Label>{C.newsletter}</Switch.Label>
          </Switch.Root>
          <Box><Text fontWeight="semibold" fontSize="sm" mb="1">{C.seat}</Text>
            <SegmentGroup.Root value={v.seat} onValueChange={(e) => set("seat")(e.value)}>
              <SegmentGroup.Indicator /><SegmentGroup.Items items={SEATS} />
            </SegmentGroup.Root></Box>
          <Fieldset.Root>
            <Caption text={C.extras} /><Label part={Fieldset.Legend} text={C.extras} />
            <CheckboxGroup value={v.extras} onValueChange={set("extras")}>
              <Fieldset.Content>{EXTRAS.map((x) => (
                <Checkbox.Root key={x} value={x}>
                  <Checkbox.HiddenInput /><Checkbox.Control /><Checkbox.Label>{x}</Checkbox.Label>
                </Checkbox.Root>
              ))}</Fieldset.Content>
            </CheckboxGroup>
          </Fieldset.Root>
          <HStack><Button type="submit">Send request</Button></HStack>
        </Stack>
      </form>
    </Container>
  );
}

createRoot(document.getElementById("app")).render(<ChakraProvider value={defaultSystem}><Trip /></ChakraProvider>);
