// Bootstrap 5: a plain file input styled by Bootstrap's form-control, with its label.
import "bootstrap/dist/css/bootstrap.min.css";
import { postFiles } from "./_files.js";

document.getElementById("app").innerHTML = `
<main class="container py-4" style="max-width: 640px">
  <h2 class="mb-3">Job application</h2>
  <form id="apply">
    <div class="mb-3"><label class="form-label" for="cv">Upload your CV</label>
      <input class="form-control" type="file" id="cv" accept=".pdf,.txt"></div>
    <button class="btn btn-primary" type="submit">Send application</button>
  </form>
</main>`;
document.getElementById("apply").addEventListener("submit", (event) => {
  event.preventDefault();
  postFiles({ cv: Array.from(document.getElementById("cv").files) });
});
