// Settings: confirming moves, playback speed, how a hidden page says "your turn".
import { html } from "lit-html";
import { update } from "../app.js";
import { addScreen } from "../router.js";
import { setting, setSetting, reducedMotion } from "../settings.js";
import { W } from "../words.js";

function choice(key, values) {
  const S = W.UI.settings;
  const cur = setting(key);
  return html`<fieldset class="seg-field"><legend>${S[key].label}</legend>
    <div class="seg" role="radiogroup" aria-label=${S[key].label}>${values.map((v) => html`
      <button class="btn${cur === v ? " on" : ""}" type="button" role="radio" aria-checked=${cur === v ? "true" : "false"}
        data-setting=${key} data-value=${v} @click=${() => { setSetting(key, v); update(); }}>${S[key][v]}</button>`)}</div>
    <p class="hint">${S[key].hint}</p></fieldset>`;
}

function toggle(key, onTurnOn) {
  const S = W.UI.settings;
  const on = !!setting(key);
  return html`<label class="toggle"><input type="checkbox" data-setting=${key} .checked=${on}
    @change=${async (e) => {
      let v = e.target.checked;
      if (v && onTurnOn) v = await onTurnOn();
      setSetting(key, v);
      update();
    }}> ${S[key]}</label>`;
}

async function askNotify() {
  if (typeof Notification === "undefined") return false;
  if (Notification.permission === "granted") return true;
  try { return (await Notification.requestPermission()) === "granted"; } catch (e) { return false; }
}

addScreen({
  id: "settings",
  paths: ["settings"],
  needsName: false,
  title: () => W.UI.settings.title,
  view: () => {
    const S = W.UI.settings;
    return html`<section class="settings" id="settings">
      <h2>${S.title}</h2>
      ${choice("confirm", ["irreversible", "always", "never"])}
      ${choice("speed", ["slow", "normal", "fast", "instant"])}
      ${reducedMotion() ? html`<p class="hint" id="reduced">${S.reduced}</p>` : ""}
      <fieldset class="seg-field"><legend>${S.away}</legend>
        ${toggle("vibrate")}${toggle("sound")}${toggle("notify", askNotify)}
        <p class="hint">${S.awayHint}</p></fieldset>
      <p><a class="btn" href="#/">${W.UI.nav.home}</a></p>
    </section>`;
  },
});
