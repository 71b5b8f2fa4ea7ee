// The first screen: choose the name other players see.
import { html } from "lit-html";
import { app, LS, update } from "../app.js";
import { addScreen } from "../router.js";
import { W } from "../words.js";

function submit(e) {
  e.preventDefault();
  const input = e.target.querySelector("#name");
  const v = input.value.trim();
  if (!v) return;
  LS.set("name", v);
  LS.set("token", null);
  app.welcome = null;
  if (app.link) app.link.drop();
  else app.startLink();
  update();
}

addScreen({
  id: "name",
  paths: ["name"],
  needsName: false,
  title: () => W.UI.name.title,
  view: () => {
    const N = W.UI.name;
    return html`<form class="card-screen" @submit=${submit}>
      <h2>${N.title}</h2><p>${N.why}</p>
      <input id="name" name="name" autocomplete="nickname" maxlength="24" required placeholder=${N.placeholder} aria-label=${N.placeholder} data-autofocus>
      <button class="btn primary" type="submit" id="save-name">${N.go}</button>
    </form>`;
  },
});
