// Element Plus (Vue 3): every widget kind of the trip request in an el-form whose
// items carry their labels, or (?captions=bare) a caption line above each control.
import "element-plus/dist/index.css";
import { createApp, reactive } from "vue";
import ElementPlus from "element-plus";
import {
  BARE, CABINS, CAPTIONS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, isoDate, list, post, yesNo,
} from "./_fields.js";

const app = createApp({
  setup() {
    const v = reactive({
      name: "", travellers: 1, budget: 100, depart: null, time: "", cabin: "", city: "",
      interests: [], meal: "", insurance: false, newsletter: false, seat: "Window", extras: [],
    });
    const submit = () =>
      post({
        name: v.name, travellers: v.travellers ?? "", budget: v.budget, depart: isoDate(v.depart),
        time: v.time || "", cabin: v.cabin, city: v.city, interests: list(v.interests), meal: v.meal,
        insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter), seat: v.seat, extras: list(v.extras),
      });
    const label = (key) => (BARE ? "" : CAPTIONS[key]);
    return { v, submit, label, BARE, C: CAPTIONS, CABINS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS };
  },
  template: `
  <div style="max-width: 640px; margin: 24px auto; font-family: sans-serif">
    <h2>Trip request</h2>
    <el-form label-width="auto" label-position="top" @submit.prevent="submit">
      <el-form-item :label="label('name')"><div v-if="BARE" class="cap">{{ C.name }}</div><el-input v-model="v.name" /></el-form-item>
      <el-form-item :label="label('travellers')"><div v-if="BARE" class="cap">{{ C.travellers }}</div><el-input-number v-model="v.travellers" :min="1" :max="9" /></el-form-item>
      <el-form-item :label="label('budget')"><div v-if="BARE" class="cap">{{ C.budget }}</div><el-slider v-model="v.budget" :min="50" :max="500" :step="10" show-input /></el-form-item>
      <el-form-item :label="label('depart')"><div v-if="BARE" class="cap">{{ C.depart }}</div><el-date-picker v-model="v.depart" type="date" placeholder="Pick a day" format="DD/MM/YYYY" /></el-form-item>
      <el-form-item :label="label('time')"><div v-if="BARE" class="cap">{{ C.time }}</div><el-time-select v-model="v.time" start="06:00" step="00:15" end="22:00" placeholder="Pick a time" /></el-form-item>
      <el-form-item :label="label('cabin')"><div v-if="BARE" class="cap">{{ C.cabin }}</div><el-select v-model="v.cabin" placeholder="Pick one"><el-option v-for="c in CABINS" :key="c" :label="c" :value="c" /></el-select></el-form-item>
      <el-form-item :label="label('city')"><div v-if="BARE" class="cap">{{ C.city }}</div><el-select v-model="v.city" filterable placeholder="Search a city"><el-option v-for="c in CITIES" :key="c" :label="c" :value="c" /></el-select></el-form-item>
      <el-form-item :label="label('interests')"><div v-if="BARE" class="cap">{{ C.interests }}</div><el-select v-model="v.interests" multiple placeholder="Pick any"><el-option v-for="c in INTERESTS" :key="c" :label="c" :value="c" /></el-select></el-form-item>
      <el-form-item :label="label('meal')"><div v-if="BARE" class="cap">{{ C.meal }}</div><el-radio-group v-model="v.meal"><el-radio v-for="m in MEALS" :key="m" :value="m">{{ m }}</el-radio></el-radio-group></el-form-item>
      <el-form-item><el-checkbox v-model="v.insurance">{{ C.insurance }}</el-checkbox></el-form-item>
      <el-form-item :label="BARE ? '' : C.newsletter"><div v-if="BARE" class="cap">{{ C.newsletter }}</div><el-switch v-model="v.newsletter" /></el-form-item>
      <el-form-item :label="label('seat')"><div v-if="BARE" class="cap">{{ C.seat }}</div><el-radio-group v-model="v.seat"><el-radio-button v-for="s in SEATS" :key="s" :value="s">{{ s }}</el-radio-button></el-radio-group></el-form-item>
      <el-form-item :label="label('extras')"><div v-if="BARE" class="cap">{{ C.extras }}</div><el-checkbox-group v-model="v.extras"><el-checkbox v-for="x in EXTRAS" :key="x" :value="x">{{ x }}</el-checkbox></el-checkbox-group></el-form-item>
      <el-form-item><el-button type="primary" native-type="submit">Send request</el-button></el-form-item>
    </el-form>
    <component is="style">.cap{width:100%;font-weight:600;line-height:1.6}</component>
  </div>`,
});
app.use(ElementPlus);
app.mount("#app");
