// Posts a form's values to the corpus server's /record, as a native form would (the
// browser navigates to the server's answer).
export function post(values) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = "/record";
  form.style.display = "none";
  for (const [name, value] of Object.entries(values)) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value == null ? "" : String(value);
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}

// forty countries: the ones far down are out of sight in a select's scrolled list
export const COUNTRIES = [
  "Albania", "Andorra", "Armenia", "Austria", "Azerbaijan", "Belarus", "Belgium",
  "Bosnia and Herzegovina", "Bulgaria", "Croatia", "Cyprus", "Czechia", "Denmark",
  "Estonia", "Finland", "France", "Georgia", "Germany", "Greece", "Hungary", "Iceland",
  "Ireland", "Italy", "Kosovo", "Latvia", "Liechtenstein", "Lithuania", "Luxembourg",
  "Malta", "Moldova", "Monaco", "Montenegro", "Netherlands", "North Macedonia", "Norway",
  "Poland", "Portugal", "Romania", "San Marino", "Serbia",
];
