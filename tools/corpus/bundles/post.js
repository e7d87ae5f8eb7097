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
