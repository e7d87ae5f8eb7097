// MUI (Material UI) with MUI X date pickers on dayjs, British English: dates written
// DD/MM/YYYY in sectioned fields, a 24-hour time picker, a mobile date picker in a
// dialog with its own OK, and a static (inline) calendar labelled by its container.
import { useState } from "react";
import { createRoot } from "react-dom/client";
import dayjs from "dayjs";
import "dayjs/locale/en-gb";
import { ThemeProvider, createTheme } from "@mui/material/styles";
import CssBaseline from "@mui/material/CssBaseline";
import Container from "@mui/material/Container";
import Typography from "@mui/material/Typography";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import MenuItem from "@mui/material/MenuItem";
import Button from "@mui/material/Button";
import Autocomplete from "@mui/material/Autocomplete";
import { LocalizationProvider } from "@mui/x-date-pickers/LocalizationProvider";
import { AdapterDayjs } from "@mui/x-date-pickers/AdapterDayjs";
import { DatePicker } from "@mui/x-date-pickers/DatePicker";
import { MobileDatePicker } from "@mui/x-date-pickers/MobileDatePicker";
import { TimePicker } from "@mui/x-date-pickers/TimePicker";
import { StaticDatePicker } from "@mui/x-date-pickers/StaticDatePicker";
import { post, CATEGORIES, CITIES } from "./_post.js";

const iso = (d) => (d && d.isValid() ? d.format("YYYY-MM-DD") : "");

function EventForm() {
  const [name, setName] = useState("");
  const [date, setDate] = useState(null);
  const [time, setTime] = useState(null);
  const [deadline, setDeadline] = useState(null);
  const [tickets, setTickets] = useState("10");
  const [category, setCategory] = useState("");
  const [city, setCity] = useState(null);
  const [rehearsal, setRehearsal] = useState(null);
  const submit = (event) => {
    event.preventDefault();
    post({
      name,
      date: iso(date),
      time: time && time.isValid() ? time.format("HH:mm") : "",
      deadline: iso(deadline),
      tickets,
      category,
      city: city ?? "",
      rehearsal: iso(rehearsal),
    });
  };
  return (
    <Container maxWidth="sm" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" gutterBottom>
        New event
      </Typography>
      <form onSubmit={submit} noValidate>
        <Stack spacing={3}>
          <TextField label="Event name" value={name} onChange={(e) => setName(e.target.value)} />
          <DatePicker label="Event date" value={date} onChange={setDate} />
          <TimePicker label="Start time" value={time} onChange={setTime} ampm={false} />
          <MobileDatePicker
            label="Registration deadline"
            value={deadline}
            onChange={setDeadline}
          />
          <TextField
            label="Tickets"
            type="number"
            value={tickets}
            onChange={(e) => setTickets(e.target.value)}
            slotProps={{ htmlInput: { min: 0, max: 500 } }}
          />
          <TextField
            select
            label="Category"
            value={category}
            onChange={(e) => setCategory(e.target.value)}
          >
            {CATEGORIES.map((c) => (
              <MenuItem key={c} value={c}>
                {c}
              </MenuItem>
            ))}
          </TextField>
          <Autocomplete
            options={CITIES}
            value={city}
            onChange={(_, value) => setCity(value)}
            renderInput={(params) => <TextField {...params} label="City" />}
          />
          <div role="group" aria-labelledby="rehearsal-label">
            <Typography id="rehearsal-label" variant="subtitle1">
              Rehearsal day
            </Typography>
            <StaticDatePicker
              value={rehearsal}
              onChange={setRehearsal}
              slotProps={{ actionBar: { actions: [] }, toolbar: { hidden: true } }}
            />
          </div>
          <Button type="submit" variant="contained">
            Create event
          </Button>
        </Stack>
      </form>
    </Container>
  );
}

createRoot(document.getElementById("app")).render(
  <ThemeProvider theme={createTheme()}>
    <CssBaseline />
    <LocalizationProvider dateAdapter={AdapterDayjs} adapterLocale="en-gb">
      <EventForm />
    </LocalizationProvider>
  </ThemeProvider>,
);
