// Naive UI (Vue 3): every widget kind of the trip request in an n-form whose items
// carry their labels, or (?captions=bare) a caption line above each control.
import { createApp, reactive } from "vue";
import naive from "naive-ui";
import {
  BARE, CABINS, CAPTIONS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, isoDate, list, post, yesNo,
} from "./_fields.js";

const options = (values) => values.map((x) => ({ value: x, label: x }));

const app = createApp({
  setup() {
    const v = reactive({
      name: "", travellers: 1, budget: 100, depart: null, time: null, cabin: null, city: null,
      interests: [], meal: "", insurance: false, newsletter: false, seat: "Window", extras: [],
    });
    const submit = () =>
      post({
        name: v.name, travellers: v.travellers ?? "", budget: v.budget,
        depart: v.depart ? isoDate(new Date(v.depart)) : "", time: v.time || "",
        cabin: v.cabin || "", city: v.city || "", interests: list(v.interests), meal: v.meal,
        insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter), seat: v.seat,
        extras: list(v.extras),
      });
    const label = (key) => (BARE ? "" : CAPTIONS[key]);
    return {
      v, submit, label, BARE, C: CAPTIONS, MEALS, SEATS, EXTRAS,
      cabins: options(CABINS), cities: options(CITIES), interests: options(INTERESTS),
    };
  },
  template: `
  <n-config-provider>
  <div style="max-width: 640px; margin: 24px auto; font-family: sans-serif">
    <h2>Trip request</h2>
    <n-form label-placement="top" @submit.prevent="submit">
      <n-form-item :label="label('name')"><div v-if="BARE">{{ C.name }}</div><n-input v-model:value="v.name" /></n-form-item>
      <n-form-item :label="label('travellers')"><div v-if="BARE">{{ C.travellers }}</div><n-input-number v-model:value="v.travellers" :min="1" :max="9" /></n-form-item>
      <n-form-item :label="label('budget')"><div v-if="BARE">{{ C.budget }}</div><n-slider v-model:value="v.budget" :min="50" :max="500" :step="10" /></n-form-item>
      <n-form-item :label="label('depart')"><div v-if="BARE">{{ C.depart }}</div><n-date-picker v-model:value="v.depart" type="date" format="dd/MM/yyyy" /></n-form-item>
      <n-form-item :label="label('time')"><div v-if="BARE">{{ C.time }}</div><n-time-picker v-model:formatted-value="v.time" value-format="HH:mm" format="HH:mm" /></n-form-item>
      <n-form-item :label="label('cabin')"><div v-if="BARE">{{ C.cabin }}</div><n-select v-model:value="v.cabin" :options="cabins" placeholder="Pick one" /></n-form-item>
      <n-form-item :label="label('city')"><div v-if="BARE">{{ C.city }}</div><n-select v-model:value="v.city" :options="cities" filterable placeholder="Search a city" /></n-form-item>
      <n-form-item :label="label('interests')"><div v-if="BARE">{{ C.interests }}</div><n-select v-model:value="v.interests" :options="interests" multiple placeholder="Pick any" /></n-form-item>
      <n-form-item :label="label('meal')"><div v-if="BARE">{{ C.meal }}</div><n-radio-group v-model:value="v.meal"><n-radio v-for="m in MEALS" :key="m" :value="m">{{ m }}</n-radio></n-radio-group></n-form-item>
      <n-form-item><n-checkbox v-model:checked="v.insurance">{{ C.insurance }}</n-checkbox></n-form-item>
      <n-form-item :label="BARE ? '' : C.newsletter"><div v-if="BARE">{{ C.newsletter }}</div><n-switch v-model:value="v.newsletter" /></n-form-item>
      <n-form-item :label="label('seat')"><div v-if="BARE">{{ C.seat }}</div><n-radio-group v-model:value="v.seat"><n-radio-button v-for="s in SEATS" :key="s" :value="s">{{ s }}</n-radio-button></n-radio-group></n-form-item>
      <n-form-item :label="label('extras')"><div v-if="BARE">{{ C.extras }}</div><n-checkbox-group v-model:value="v.extras"><n-checkbox v-for="x in EXTRAS" :key="x" :value="x">{{ x }}</n-checkbox></n-checkbox-group></n-form-item>
      <n-button attr-type="submit" type="primary">Send request</n-button>
    </n-form>
  </div>
  </n-config-provider>`,
});
app.use(naive);
app.mount("#app");
