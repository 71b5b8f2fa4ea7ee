// The first screen: choose the name other players see, or sign in as a player made
// elsewhere.  Shown while the server knows no player for this browser (no token, no
// cookie); when it refused a name it says why (identity.js).
import { html, nothing } from "lit-html";
import { app, update } from "../app.js";
import { addScreen } from "../router.js";
import { chooseName, signIn } from "../identity.js";
import { W } from "../words.js";

function submit(e) {
  e.preventDefault();
  const form = e.target;
  const name = form.querySelector("#name").value.trim();
  if (!name) return;
  const pw = form.querySelector("#password");
  if (app.identity.signingIn && pw) {
    if (!pw.value) return;
    signIn(name, pw.value);
    pw.value = "";
  } else {
    chooseName(name);
  }
}

// Before the server has answered the first hello, a returning player (cookie) must not
// see a name form flash past.
function waitingForServer() {
  const link = app.link;
  return !app.identity.asked && !app.identity.problem && link && !link.stopped
    && (link.state === "connecting" || (link.state === "reconnecting" && !link.welcomed));
}

addScreen({
  id: "name",
  paths: ["name"],
  needsName: false,
  title: () => W.UI.name.title,
  view: () => {
    const N = W.UI.name;
    if (waitingForServer()) return html`<section class="card-screen"><p>${W.UI.loading}</p></section>`;
    const id = app.identity;
    const busy = app.link && !app.link.stopped && !app.link.online;
    return html`<form class="card-screen" id="name-form" @submit=${submit}>
      <h2>${id.signingIn ? N.signInTitle : N.title}</h2>
      <p>${id.signingIn ? N.signInWhy : N.why}</p>
      ${id.problem ? html`<p class="problem" role="alert" id="name-problem">${id.problem}</p>` : nothing}
      <label for="name">${N.placeholder}</label>
      <input id="name" name="name" autocomplete=${id.signingIn ? "username" : "nickname"} maxlength="40" required data-autofocus
        aria-describedby=${id.problem ? "name-problem name-rules" : "name-rules"}>
      <p class="hint" id="name-rules">${N.rules}</p>
      ${id.signingIn ? html`<label for="password">${N.password}</label>
        <input id="password" name="password" type="password" autocomplete="current-password" maxlength="256" required>` : nothing}
      <button class="btn primary" type="submit" id="save-name" ?disabled=${busy}>${busy ? W.UI.loading : id.signingIn ? N.signIn : N.go}</button>
      <p><button class="link" type="button" id="toggle-signin" @click=${() => { id.signingIn = !id.signingIn; id.problem = null; update(); }}>${id.signingIn ? N.newPlayer : N.haveAccount}</button></p>
      <p class="hint">${N.otherDevice}</p>
    </form>`;
  },
});
