// Sends the files a form's upload controls hold to the corpus server's /upload, as a
// native multipart form would (the browser navigates to the server's answer).
export function postFiles(fields) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = "/upload";
  form.enctype = "multipart/form-data";
  form.style.display = "none";
  for (const [name, files] of Object.entries(fields)) {
    const input = document.createElement("input");
    input.type = "file";
    input.name = name;
    input.multiple = true;
    const held = new DataTransfer();
    for (const file of files) held.items.add(file);
    input.files = held.files;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
}
