// Vuetify (Vue 3, Material Design): every widget kind of the trip request with Vuetify's
// own label props (the date and time inputs as Vuetify ships them, the time one from
// its labs), or (?captions=bare) a caption line above each control tied to nothing.
import "vuetify/styles";
import "@mdi/font/css/materialdesignicons.css";
import { createApp, reactive } from "vue";
import { createVuetify } from "vuetify";
import * as components from "vuetify/components";
import * as directives from "vuetify/directives";
import { VTimeInput } from "vuetify/labs/VTimeInput";
import {
  BARE, CABINS, CAPTIONS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS, isoDate, list, post, yesNo,
} from "./_fields.js";

const app = createApp({
  setup() {
    const v = reactive({
      name: "", travellers: 1, budget: 100, depart: null, time: null, cabin: null, city: null,
      interests: [], meal: null, insurance: false, newsletter: false, seat: "Window", extras: [],
    });
    const submit = () =>
      post({
        name: v.name, travellers: v.travellers ?? "", budget: v.budget, depart: isoDate(v.depart),
        time: v.time || "", cabin: v.cabin || "", city: v.city || "", interests: list(v.interests),
        meal: v.meal || "", insurance: yesNo(v.insurance), newsletter: yesNo(v.newsletter),
        seat: v.seat || "", extras: list(v.extras),
      });
    const label = (key) => (BARE ? undefined : CAPTIONS[key]);
    return { v, submit, label, BARE, C: CAPTIONS, CABINS, CITIES, EXTRAS, INTERESTS, MEALS, SEATS };
  },
  template: `
  <v-app><v-main><v-container style="max-width: 640px">
    <h1 class="text-h4 mb-4">Trip request</h1>
    <v-form @submit.prevent="submit">
      <div v-if="BARE" class="cap">{{ C.name }}</div>
      <v-text-field v-model="v.name" :label="label('name')" />
      <div v-if="BARE" class="cap">{{ C.travellers }}</div>
      <v-number-input v-model="v.travellers" :label="label('travellers')" :min="1" :max="9" />
      <div v-if="BARE" class="cap">{{ C.budget }}</div>
      <v-slider v-model="v.budget" :label="BARE ? undefined : C.budget" :min="50" :max="500" :step="10" thumb-label />
      <div v-if="BARE" class="cap">{{ C.depart }}</div>
      <v-date-input v-model="v.depart" :label="label('depart')" />
      <div v-if="BARE" class="cap">{{ C.time }}</div>
      <v-time-input v-model="v.time" :label="label('time')" />
      <div v-if="BARE" class="cap">{{ C.cabin }}</div>
      <v-select v-model="v.cabin" :items="CABINS" :label="label('cabin')" />
      <div v-if="BARE" class="cap">{{ C.city }}</div>
      <v-autocomplete v-model="v.city" :items="CITIES" :label="label('city')" />
      <div v-if="BARE" class="cap">{{ C.interests }}</div>
      <v-select v-model="v.interests" :items="INTERESTS" :label="label('interests')" multiple chips />
      <v-radio-group v-model="v.meal" :label="label('meal')" inline>
        <v-radio v-for="m in MEALS" :key="m" :label="m" :value="m" />
      </v-radio-group>
      <v-checkbox v-model="v.insurance" :label="C.insurance" hide-details />
      <v-switch v-model="v.newsletter" :label="C.newsletter" color="primary" hide-details />
      <div class="cap mt-4">{{ C.seat }}</div>
      <v-btn-toggle v-model="v.seat" mandatory divided variant="outlined">
        <v-btn v-for="s in SEATS" :key="s" :value="s">{{ s }}</v-btn>
      </v-btn-toggle>
      <div class="cap mt-4">{{ C.extras }}</div>
      <v-checkbox v-for="x in EXTRAS" :key="x" v-model="v.extras" :label="x" :value="x" hide-details density="compact" />
      <v-btn type="submit" color="primary" class="mt-4">Send request</v-btn>
    </v-form>
    <component is="style">.cap{font-weight:600;line-height:1.6}</component>
  </v-container></v-main></v-app>`,
});
app.use(createVuetify({ components: { ...components, VTimeInput }, directives }));
app.mount("#app");
