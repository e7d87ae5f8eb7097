// Element Plus (Vue): el-upload's drag-and-drop zone, which opens the file chooser when
// clicked, holding the files until the form is sent.
import "element-plus/dist/index.css";
import { createApp, reactive } from "vue";
import ElementPlus from "element-plus";
import { postFiles } from "./_files.js";

const app = createApp({
  setup() {
    const state = reactive({ files: [] });
    const submit = () => postFiles({ cv: state.files.map((f) => f.raw) });
    return { state, submit };
  },
  template: `
  <main style="max-width: 640px; margin: 2rem auto">
    <h2>Job application</h2>
    <el-form label-position="top" @submit.prevent="submit">
      <el-form-item label="Your CV">
        <el-upload drag :auto-upload="false" v-model:file-list="state.files" style="width: 100%">
          <div class="el-upload__text">Drop your CV here or <em>click to upload</em></div>
        </el-upload>
      </el-form-item>
      <el-button type="primary" native-type="submit">Send application</el-button>
    </el-form>
  </main>`,
});
app.use(ElementPlus).mount("#app");
