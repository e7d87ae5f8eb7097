// Material UI (React) with MUI X's date and time pickers: every widget kind of the trip
// request as MUI's own demos build it (TextField labels, FormLabel over groups,
// Typography tied to the slider by aria-labelledby), or (?captions=bare) as text above
// each control tied to nothing.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import {
  Autocomplete, Box, Button, Checkbox, Container, CssBaseline, FormControl,
  FormControlLabel, FormGroup, FormLabel, InputLabel, MenuItem, Radio, RadioGroup, Select,
  Slider, Stack, Switch, TextField, ToggleButton, ToggleButtonGroup, Typography,
} from "@mui/material";
import { AdapterDayjs } from "@mui/x-date-pickers/AdapterDayjs";
import { DatePicker } from "@mui/x-date-pickers/DatePicker";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import { TimePicker } from "@mui/x-date-pickers/TimePicker";
import {
  BARE, CABINS, CAPTIONS as C, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, list, post, yesNo,
} from "./_fields.js";

const label = (text) => (BARE ? undefined : text);
const Caption = ({ text, id }) => (
  <Typography id={id} variant="subtitle2" gutterBottom>{text}</Typography>
);
const Bare = ({ text }) => (BARE ? <Caption text={text} /> : null);

function Trip() {
  const [v, setV] = useState({
    name: "", travellers: "1", budget: 100, depart: null, time: null, cabin: "", city: null,
    interests: [], meal: "", insurance: false, newsletter: false, seat: "Window", extras: [],
  });
  const set = (key) => (value) => setV((old) => ({ ...old, [key]: value }));
  const tick = (key, value) => (e) =>
    set(key)(e.target.checked ? [...v[key], value] : v[key].filter((x) => x !== value));
  const submit = (event) => {
    event.preventDefault();
    post({
      name: v.name, travellers: v.travellers, budget: v.budget,
      depart: v.depart && v.depart.isValid() ? v.depart.format("YYYY-MM-DD") : "",
      time: v.time && v.time.isValid() ? v.time.format("HH:mm") : "",
      cabin: v.cabin, city: v.city || "", interests: list(v.interests), meal: v.meal,
      insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter), seat: v.seat || "",
      extras: list(v.extras),
    });
  };
  return (
    <Container maxWidth="sm" sx={{ py: 3 }}>
      <Typography variant="h4" component="h1" gutterBottom>Trip request</Typography>
      <form onSubmit={submit}>
        <Stack spacing={3}>
          <Box><Bare text={C.name} />
            <TextField fullWidth label={label(C.name)} value={v.name}
              onChange={(e) => set("name")(e.target.value)} />
          </Box>
          <Box><Bare text={C.travellers} />
            <TextField fullWidth type="number" label={label(C.travellers)} value={v.travellers}
              slotProps={{ htmlInput: { min: 1, max: 9 } }}
              onChange={(e) => set("travellers")(e.target.value)} />
          </Box>
          <Box>
            <Caption text={C.budget} id={BARE ? undefined : "budget-caption"} />
            <Slider min={50} max={500} step={10} value={v.budget} valueLabelDisplay="auto"
              aria-labelledby={BARE ? undefined : "budget-caption"}
              onChange={(e, x) => set("budget")(x)} />
          </Box>
          <Box><Bare text={C.depart} />
            <DatePicker label={label(C.depart)} value={v.depart} onChange={set("depart")}
              slotProps={{ textField: { fullWidth: true } }} />
          </Box>
          <Box><Bare text={C.time} />
            <TimePicker label={label(C.time)} value={v.time} onChange={set("time")} ampm={false}
              slotProps={{ textField: { fullWidth: true } }} />
          </Box>
          <Box><Bare text={C.cabin} />
            <FormControl fullWidth>
              {BARE ? null : <InputLabel id="cabin-label">{C.cabin}</InputLabel>}
              <Select labelId={BARE ? undefined : "cabin-label"} label={label(C.cabin)}
                value={v.cabin} onChange={(e) => set("cabin")(e.target.value)}>
                {CABINS.map((c) => <MenuItem key={c} value={c}>{c}</MenuItem>)}
              </Select>
            </FormControl>
          </Box>
          <Box><Bare text={C.city} />
            <Autocomplete options={CITIES} value={v.city} onChange={(e, x) => set("city")(x)}
              renderInput={(params) => <TextField {...params} label={label(C.city)} />} />
          </Box>
          <Box><Bare text={C.interests} />
            <Autocomplete multiple options={INTERESTS} value={v.interests}
              onChange={(e, x) => set("interests")(x)}
              renderInput={(params) => <TextField {...params} label={label(C.interests)} />} />
          </Box>
          <FormControl>
            <FormLabel id="meal-label">{C.meal}</FormLabel>
            <RadioGroup row aria-labelledby={BARE ? undefined : "meal-label"} value={v.meal}
              onChange={(e) => set("meal")(e.target.value)}>
              {MEALS.map((m) => <FormControlLabel key={m} value={m} control={<Radio />} label={m} />)}
            </RadioGroup>
          </FormControl>
          <FormGroup>
            <FormControlLabel label={C.insurance} control={
              <Checkbox checked={v.insurance} onChange={(e) => set("insurance")(e.target.checked)} />} />
            <FormControlLabel label={C.newsletter} control={
              <Switch checked={v.newsletter} onChange={(e) => set("newsletter")(e.target.checked)} />} />
          </FormGroup>
          <Box>
            <Caption text={C.seat} id={BARE ? undefined : "seat-caption"} />
            <ToggleButtonGroup exclusive value={v.seat} aria-labelledby={BARE ? undefined : "seat-caption"}
              onChange={(e, x) => { if (x !== null) set("seat")(x); }}>
              {SEATS.map((s) => <ToggleButton key={s} value={s}>{s}</ToggleButton>)}
            </ToggleButtonGroup>
          </Box>
          <FormControl component="fieldset">
            <FormLabel component="legend">{C.extras}</FormLabel>
            <FormGroup row>
              {EXTRAS.map((x) => (
                <FormControlLabel key={x} label={x} control={
                  <Checkbox checked={v.extras.includes(x)} onChange={tick("extras", x)} />} />
              ))}
            </FormGroup>
          </FormControl>
          <Box><Button type="submit" variant="contained">Send request</Button></Box>
        </Stack>
      </form>
    </Container>
  );
}

createRoot(document.getElementById("app")).render(
  <LocalizationProvider dateAdapter={AdapterDayjs}>
    <CssBaseline />
    <Trip />
  </LocalizationProvider>,
);
