// Joining or watching by a code: a short wait while the server answers.
import { html } from "lit-html";
import { attach } from "../match-model.js";
import { addScreen } from "../router.js";
import { W } from "../words.js";

addScreen({
  id: "join",
  paths: ["join", "watch"],
  enter: () => attach(),
  view: (r) => html`<section class="card-screen"><p>${r.what === "join" ? W.UI.joining(r.arg) : W.UI.finding(r.arg)}</p></section>`,
});
