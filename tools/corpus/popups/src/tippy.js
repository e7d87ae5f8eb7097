// tippy.js popovers that open when a field gets focus, as shops ship newsletter and
// account prompts: interactive content with buttons, the field read-only until the prompt
// is answered ("Subscribe" ticks the newsletter, "No thanks" only closes it).
import tippy from "tippy.js";
import "tippy.js/dist/tippy.css";
import { post } from "./_post.js";

const app = document.getElementById("app");
app.innerHTML = `
  <main style="max-width:480px;margin:32px auto;font:16px sans-serif">
    <h1>Create your account</h1>
    <form id="signup">
      <p><label for="name">Full name</label><br><input id="name" name="name" size="40"></p>
      <p><label for="email">Email address</label><br><input id="email" name="email" type="email" size="40"></p>
      <p><label for="phone">Phone</label><br><input id="phone" name="phone" type="tel" size="40"></p>
      <p><label><input id="newsletter" name="newsletter" type="checkbox"> Send me the newsletter</label></p>
      <p><button type="submit">Create account</button></p>
    </form>
  </main>`;

function prompt(field, text, consent, refuse, onConsent) {
  const box = document.createElement("div");
  box.innerHTML = `<p style="margin:4px 0 8px">${text}</p>`;
  const yes = document.createElement("button");
  yes.type = "button";
  yes.textContent = consent;
  const no = document.createElement("button");
  no.type = "button";
  no.textContent = refuse;
  no.style.marginLeft = "8px";
  box.append(yes, no);
  const tip = tippy(field, {
    content: box,
    trigger: "focus",
    interactive: true,
    placement: "bottom-start",
    theme: "light",
    appendTo: () => document.body,
    onShow() {
      field.readOnly = true;
    },
  });
  const answer = (consented) => {
    if (consented) onConsent();
    field.readOnly = false;
    tip.hide();
    tip.disable();
    field.focus();
  };
  yes.addEventListener("click", () => answer(true));
  no.addEventListener("click", () => answer(false));
}

prompt(
  document.getElementById("email"),
  "Get 10% off your first order: join our newsletter?",
  "Subscribe",
  "No thanks",
  () => {
    document.getElementById("newsletter").checked = true;
  },
);
prompt(
  document.getElementById("phone"),
  "Allow us to text you offers and reminders?",
  "Allow texts",
  "Not now",
  () => {},
);

document.getElementById("signup").addEventListener("submit", (event) => {
  event.preventDefault();
  post({
    name: document.getElementById("name").value,
    email: document.getElementById("email").value,
    phone: document.getElementById("phone").value,
    newsletter: document.getElementById("newsletter").checked ? "yes" : "no",
  });
});
