// PrimeReact: FileUpload in basic mode (a "Browse" button over a hidden input) and in
// advanced mode (a "Choose" button that takes several files, listed below it).
import "primereact/resources/themes/lara-light-blue/theme.css";
import "primereact/resources/primereact.min.css";
import { useRef } from "react";
import { createRoot } from "react-dom/client";
import { PrimeReactProvider } from "primereact/api";
import { Button } from "primereact/button";
import { FileUpload } from "primereact/fileupload";
import { postFiles } from "./_files.js";

function Apply() {
  const cv = useRef(null);
  const papers = useRef(null);
  const submit = (event) => {
    event.preventDefault();
    postFiles({ cv: cv.current.getFiles(), papers: papers.current.getFiles() });
  };
  return (
    <main style={{ maxWidth: 640, margin: "2rem auto" }}>
      <h2>Job application</h2>
      <form onSubmit={submit}>
        <p>Your CV</p>
        <FileUpload ref={cv} mode="basic" name="cv" chooseLabel="Browse" customUpload />
        <p>Published papers</p>
        <FileUpload ref={papers} name="papers" multiple customUpload chooseLabel="Choose papers"
          emptyTemplate={<p>Drag and drop your papers here.</p>} />
        <Button type="submit" label="Send application" style={{ marginTop: "1rem" }} />
      </form>
    </main>
  );
}

createRoot(document.getElementById("app")).render(
  <PrimeReactProvider><Apply /></PrimeReactProvider>,
);
