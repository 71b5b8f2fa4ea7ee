// #/transfer/<code>: a "use on another device" link opened here.  A browser with no
// player yet becomes the player who made the link at once; one that already plays as
// someone is asked first, since it stops being that player on this device.
import { html, nothing } from "lit-html";
import { app, go } from "../app.js";
import { addScreen } from "../router.js";
import { useTransfer } from "../identity.js";
import { W } from "../words.js";

let used = null; // the code already sent, so a redraw does not send it twice

function use(code) {
  used = code;
  useTransfer(code);
}

addScreen({
  id: "transfer",
  paths: ["transfer"],
  needsName: false,
  title: () => W.UI.transfer.title,
  enter: (r) => {
    used = null;
    if (r.arg && !app.welcome && !(app.link && app.link.online)) use(r.arg);
  },
  view: (r) => {
    const T = W.UI.transfer;
    const problem = app.identity.problem;
    if (used === r.arg && !problem) return html`<section class="card-screen"><h2>${T.title}</h2><p>${T.working}</p></section>`;
    if (problem) {
      return html`<section class="card-screen"><h2>${T.title}</h2>
        <p class="problem" role="alert" id="transfer-problem">${problem}</p>
        <p>${T.makeNew}</p>
        <button class="btn primary" type="button" @click=${() => { app.identity.problem = null; go("#/"); }}>${T.instead}</button></section>`;
    }
    const who = app.welcome ? app.welcome.name : null;
    return html`<section class="card-screen"><h2>${T.title}</h2>
      ${who ? html`<p>${T.switchAsk(who)}</p>` : nothing}
      <div class="row">
        <button class="btn primary" type="button" id="use-transfer" @click=${() => use(r.arg)}>${T.use}</button>
        <button class="btn" type="button" @click=${() => go("#/")}>${T.keep}</button>
      </div></section>`;
  },
});
