// Quasar 2 (Vue 3, Material Design): every widget kind of the trip request as Quasar's
// docs show them (the date and the time as inputs whose calendar and clock open in a popup
// from an icon), captions by the fields' own label props, or (?captions=bare) a caption
// line above each control tied to nothing.
import "quasar/dist/quasar.css";
import "@quasar/extras/material-icons/material-icons.css";
import { createApp, reactive, ref } from "vue";
import * as quasar from "quasar";
import {
  BARE, CABINS, CAPTIONS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, list, post, yesNo,
} from "./_fields.js";

const app = createApp({
  setup() {
    const v = reactive({
      name: "", travellers: 1, budget: 100, depart: "", time: "", cabin: null, city: null,
      interests: [], meal: "", insurance: false, newsletter: false, seat: "Window", extras: [],
    });
    const cities = ref(CITIES);
    const filter = (typed, update) =>
      update(() => {
        const q = typed.toLowerCase();
        cities.value = CITIES.filter((c) => c.toLowerCase().includes(q));
      });
    const iso = (d) => (d ? d.replaceAll("/", "-") : "");
    const submit = () =>
      post({
        name: v.name, travellers: v.travellers ?? "", budget: v.budget, depart: iso(v.depart),
        time: v.time || "", cabin: v.cabin || "", city: v.city || "", interests: list(v.interests),
        meal: v.meal, insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter),
        seat: v.seat || "", extras: list(v.extras),
      });
    const label = (key) => (BARE ? undefined : CAPTIONS[key]);
    const opts = (values) => values.map((x) => ({ label: x, value: x }));
    return {
      v, cities, filter, submit, label, BARE, C: CAPTIONS, CABINS, INTERESTS,
      MEALS: opts(MEALS), SEATS: opts(SEATS), EXTRAS: opts(EXTRAS),
    };
  },
  template: `
  <div class="q-pa-lg" style="max-width: 620px; margin: auto">
    <div class="text-h4 q-mb-md">Trip request</div>
    <q-form @submit="submit" class="q-gutter-md">
      <div v-if="BARE" class="cap">{{ C.name }}</div>
      <q-input v-model="v.name" :label="label('name')" outlined />
      <div v-if="BARE" class="cap">{{ C.travellers }}</div>
      <q-input v-model.number="v.travellers" type="number" :label="label('travellers')" :min="1" :max="9" outlined />
      <div class="cap">{{ C.budget }}</div>
      <q-slider class="q-mt-lg" v-model="v.budget" :min="50" :max="500" :step="10" label label-always />
      <div v-if="BARE" class="cap">{{ C.depart }}</div>
      <q-input v-model="v.depart" :label="label('depart')" outlined mask="date">
        <template v-slot:append>
          <q-icon name="event" class="cursor-pointer">
            <q-popup-proxy cover transition-show="scale" transition-hide="scale">
              <q-date v-model="v.depart"><div class="row items-center justify-end">
                <q-btn v-close-popup label="Close" color="primary" flat />
              </div></q-date>
            </q-popup-proxy>
          </q-icon>
        </template>
      </q-input>
      <div v-if="BARE" class="cap">{{ C.time }}</div>
      <q-input v-model="v.time" :label="label('time')" outlined mask="time">
        <template v-slot:append>
          <q-icon name="access_time" class="cursor-pointer">
            <q-popup-proxy cover transition-show="scale" transition-hide="scale">
              <q-time v-model="v.time" format24h><div class="row items-center justify-end">
                <q-btn v-close-popup label="Close" color="primary" flat />
              </div></q-time>
            </q-popup-proxy>
          </q-icon>
        </template>
      </q-input>
      <div v-if="BARE" class="cap">{{ C.cabin }}</div>
      <q-select v-model="v.cabin" :options="CABINS" :label="label('cabin')" outlined />
      <div v-if="BARE" class="cap">{{ C.city }}</div>
      <q-select v-model="v.city" :options="cities" :label="label('city')" outlined use-input
        hide-selected fill-input input-debounce="0" @filter="filter" />
      <div v-if="BARE" class="cap">{{ C.interests }}</div>
      <q-select v-model="v.interests" :options="INTERESTS" :label="label('interests')" outlined multiple use-chips />
      <div class="cap">{{ C.meal }}</div>
      <q-option-group v-model="v.meal" :options="MEALS" type="radio" inline />
      <q-checkbox v-model="v.insurance" :label="C.insurance" />
      <q-toggle v-model="v.newsletter" :label="C.newsletter" />
      <div class="cap">{{ C.seat }}</div>
      <q-btn-toggle v-model="v.seat" :options="SEATS" toggle-color="primary" />
      <div class="cap">{{ C.extras }}</div>
      <q-option-group v-model="v.extras" :options="EXTRAS" type="checkbox" />
      <div><q-btn type="submit" label="Send request" color="primary" /></div>
    </q-form>
    <component is="style">.cap{font-weight:600;margin-bottom:-8px}</component>
  </div>`,
});
// as a bundled app does it: every component and the close-popup directive named at install
const components = Object.fromEntries(Object.entries(quasar).filter(([name]) => /^Q[A-Z]/.test(name)));
app.use(quasar.Quasar, { components, directives: { ClosePopup: quasar.ClosePopup } });
app.mount("#app");
