// PrimeVue 4 (Vue 3) with its Aura theme: every widget kind of the trip request, each
// caption a <label for> its input (the radios and checkboxes labelled one by one), the
// destination an autocomplete with a dropdown, or (?captions=bare) text above each control.
import { createApp, reactive } from "vue";
import PrimeVue from "primevue/config";
import Aura from "@primeuix/themes/aura";
import AutoComplete from "primevue/autocomplete";
import Button from "primevue/button";
import Checkbox from "primevue/checkbox";
import DatePicker from "primevue/datepicker";
import InputNumber from "primevue/inputnumber";
import InputText from "primevue/inputtext";
import MultiSelect from "primevue/multiselect";
import RadioButton from "primevue/radiobutton";
import Select from "primevue/select";
import SelectButton from "primevue/selectbutton";
import Slider from "primevue/slider";
import ToggleSwitch from "primevue/toggleswitch";
import {
  BARE, CABINS, CAPTIONS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, hhmm, isoDate, list, post, yesNo,
} from "./_fields.js";

const app = createApp({
  setup() {
    const v = reactive({
      name: "", travellers: 1, budget: 100, depart: null, time: null, cabin: null, city: "",
      interests: [], meal: "", insurance: false, newsletter: false, seat: "Window", extras: [],
    });
    const found = reactive({ cities: [] });
    const search = (event) => {
      const q = event.query.trim().toLowerCase();
      found.cities = CITIES.filter((c) => c.toLowerCase().startsWith(q));
    };
    const submit = () =>
      post({
        name: v.name, travellers: v.travellers ?? "", budget: v.budget, depart: isoDate(v.depart),
        time: hhmm(v.time), cabin: v.cabin || "", city: v.city || "", interests: list(v.interests),
        meal: v.meal, insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter),
        seat: v.seat || "", extras: list(v.extras),
      });
    return { v, found, search, submit, BARE, C: CAPTIONS, CABINS, EXTRAS, INTERESTS, MEALS, SEATS };
  },
  template: `
  <main style="max-width: 620px; margin: 24px auto; font-family: sans-serif">
    <h2>Trip request</h2>
    <form class="trip" @submit.prevent="submit">
      <div class="row"><component :is="BARE ? 'div' : 'label'" for="name" class="cap">{{ C.name }}</component>
        <InputText id="name" v-model="v.name" fluid /></div>
      <div class="row"><component :is="BARE ? 'div' : 'label'" for="travellers" class="cap">{{ C.travellers }}</component>
        <InputNumber inputId="travellers" v-model="v.travellers" :min="1" :max="9" showButtons /></div>
      <div class="row"><div class="cap">{{ C.budget }}: {{ v.budget }} EUR</div>
        <Slider v-model="v.budget" :min="50" :max="500" :step="10" /></div>
      <div class="row"><component :is="BARE ? 'div' : 'label'" for="depart" class="cap">{{ C.depart }}</component>
        <DatePicker inputId="depart" v-model="v.depart" dateFormat="dd/mm/yy" showIcon /></div>
      <div class="row"><component :is="BARE ? 'div' : 'label'" for="time" class="cap">{{ C.time }}</component>
        <DatePicker inputId="time" v-model="v.time" timeOnly hourFormat="24" /></div>
      <div class="row"><component :is="BARE ? 'div' : 'label'" for="cabin" class="cap">{{ C.cabin }}</component>
        <Select inputId="cabin" v-model="v.cabin" :options="CABINS" placeholder="Pick one" style="min-width: 16rem" /></div>
      <div class="row"><component :is="BARE ? 'div' : 'label'" for="city" class="cap">{{ C.city }}</component>
        <AutoComplete inputId="city" v-model="v.city" :suggestions="found.cities" @complete="search" dropdown /></div>
      <div class="row"><component :is="BARE ? 'div' : 'label'" for="interests" class="cap">{{ C.interests }}</component>
        <MultiSelect inputId="interests" v-model="v.interests" :options="INTERESTS" placeholder="Pick any" display="chip" style="min-width: 16rem" /></div>
      <div class="row"><div class="cap">{{ C.meal }}</div>
        <span v-for="m in MEALS" :key="m" class="opt">
          <RadioButton :inputId="'meal-' + m" name="meal" :value="m" v-model="v.meal" />
          <label :for="'meal-' + m">{{ m }}</label>
        </span></div>
      <div class="row"><span class="opt"><Checkbox inputId="insurance" v-model="v.insurance" binary />
        <label for="insurance">{{ C.insurance }}</label></span></div>
      <div class="row"><span class="opt"><ToggleSwitch inputId="newsletter" v-model="v.newsletter" />
        <label for="newsletter">{{ C.newsletter }}</label></span></div>
      <div class="row"><div class="cap">{{ C.seat }}</div>
        <SelectButton v-model="v.seat" :options="SEATS" :allowEmpty="false" /></div>
      <div class="row"><div class="cap">{{ C.extras }}</div>
        <span v-for="x in EXTRAS" :key="x" class="opt">
          <Checkbox :inputId="'extra-' + x" name="extras" :value="x" v-model="v.extras" />
          <label :for="'extra-' + x">{{ x }}</label>
        </span></div>
      <Button type="submit" label="Send request" />
    </form>
    <component is="style">.trip .row{margin:14px 0}.trip .cap{display:block;font-weight:600;margin-bottom:6px}.trip .opt{display:inline-flex;align-items:center;gap:6px;margin-right:16px}</component>
  </main>`,
});
app.use(PrimeVue, { theme: { preset: Aura } });
for (const [name, part] of Object.entries({
  AutoComplete, Button, Checkbox, DatePicker, InputNumber, InputText, MultiSelect, RadioButton,
  Select, SelectButton, Slider, ToggleSwitch,
})) app.component(name, part);
app.mount("#app");
