// Mantine (React): FileInput, a button that opens the file chooser of a hidden input,
// for one file and for several.
import "@mantine/core/styles.css";
import { useState } from "react";
import { createRoot } from "react-dom/client";
import { Button, Container, FileInput, MantineProvider, Stack, Title } from "@mantine/core";
import { postFiles } from "./_files.js";

function Apply() {
  const [cv, setCv] = useState(null);
  const [photos, setPhotos] = useState([]);
  const submit = (event) => {
    event.preventDefault();
    postFiles({ cv: cv ? [cv] : [], photos });
  };
  return (
    <Container size="sm" py="lg">
      <Title order={2} mb="md">Job application</Title>
      <form onSubmit={submit}>
        <Stack gap="md">
          <FileInput label="Upload your CV" placeholder="No file chosen" value={cv} onChange={setCv} clearable />
          <FileInput label="Portfolio images" placeholder="Pick images" multiple value={photos} onChange={setPhotos} />
          <Button type="submit">Send application</Button>
        </Stack>
      </form>
    </Container>
  );
}

createRoot(document.getElementById("app")).render(
  <MantineProvider><Apply /></MantineProvider>,
);
