// Vuetify in British English: a date input written DD/MM/YYYY whose menu keeps the
// pick until its own OK, a number input, a select, an autocomplete, and an inline date
// picker (its month and year heading drawn as separate buttons) under a caption.
import { createApp, ref } from "vue";
import { createVuetify } from "vuetify";
import * as components from "vuetify/components";
import * as directives from "vuetify/directives";
import { aliases, mdi } from "vuetify/iconsets/mdi-svg";
import "vuetify/styles";
import { post, CATEGORIES, CITIES } from "./_post.js";

const pad = (n) => String(n).padStart(2, "0");
const iso = (d) => (d ? `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` : "");

const App = {
  setup() {
    const values = {
      name: ref(""),
      date: ref(null),
      tickets: ref(10),
      category: ref(null),
      city: ref(null),
      rehearsal: ref(null),
    };
    const submit = () =>
      post({
        name: values.name.value,
        date: iso(values.date.value),
        tickets: values.tickets.value ?? "",
        category: values.category.value ?? "",
        city: values.city.value ?? "",
        rehearsal: iso(values.rehearsal.value),
      });
    return { ...values, submit, categories: CATEGORIES, cities: CITIES };
  },
  template: `
    <v-app>
      <v-main>
        <v-container style="max-width: 640px">
          <h1 class="text-h4 mb-6">New event</h1>
          <v-form @submit.prevent="submit">
            <v-text-field v-model="name" label="Event name" />
            <v-date-input v-model="date" label="Event date" prepend-icon="" prepend-inner-icon="$calendar" />
            <v-number-input v-model="tickets" label="Tickets" :min="0" :max="500" control-variant="split" />
            <v-select v-model="category" label="Category" :items="categories" />
            <v-autocomplete v-model="city" label="City" :items="cities" />
            <div class="mb-4">
              <div class="text-subtitle-1 mb-2">Rehearsal day</div>
              <v-date-picker v-model="rehearsal" hide-header show-adjacent-months />
            </div>
            <v-btn type="submit" color="primary">Create event</v-btn>
          </v-form>
        </v-container>
      </v-main>
    </v-app>`,
};

const vuetify = createVuetify({
  components,
  directives,
  icons: { defaultSet: "mdi", aliases, sets: { mdi } },
  locale: { locale: "en" },
  date: { locale: { en: "en-GB" } },
});
createApp(App).use(vuetify).mount("#app");
