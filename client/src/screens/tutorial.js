// The tutorial (#/tutorial): a guided training match against a scripted coach with
// scripted dice, played on the rules package in the page (no server once loaded), each
// idea introduced when it first matters.  Each step asks for one move and only lets that
// move through, so the lesson always goes the same way; progress and the match are kept
// in localStorage, so it resumes where the player left it.  #/tutorial/standard and
// #/tutorial/advanced are the short lessons for the other modes.
import { html, nothing } from "lit-html";
import { app, LS, update, go } from "../app.js";
import { addScreen } from "../router.js";
import { newMatch, receive } from "../match-model.js";
import { LocalMatch } from "../local.js";
import { SCRIPT } from "../tutorial-script.js";
import { draw, after } from "./match.js";
import { W } from "../words.js";

const KEEP = "tutorial.match";
const T = () => W.TUTORIAL;
let starting = null;

function stepIndex() { return Number(LS.get("tutorial.step") || 0); }
function setStep(i) { LS.set("tutorial.step", String(i)); }
const step = () => SCRIPT.steps[stepIndex()] || null;

function frameOf(mm) { return mm && mm.prompt && mm.prompt.view ? mm.prompt.view.prompt.frame : null; }

// What the player may choose now: the step's move only, on the step's own prompt.
function restrict(legal) {
  const s = step();
  const mm = app.match;
  if (!s) return legal;
  if (s.jump) return [];
  if (s.frame !== frameOf(mm) || !s.expect) return legal;
  return legal.filter((d) => s.expect.includes(d));
}

// Called as each decision goes: the step is done when its move is made.
function onDecide(text) {
  const s = step();
  if (s && !s.jump && s.frame === frameOf(app.match) && (!s.expect || s.expect.includes(text))) setStep(stepIndex() + 1);
  return {};
}

async function start(fresh) {
  if (starting) return starting;
  starting = (async () => {
    if (fresh) { LS.set(KEEP, null); setStep(0); }
    app.startPreview && app.startPreview();
    if (!app.preview.ready) {
      await new Promise((resolve, reject) => {
        app.preview.addEventListener("ready", resolve, { once: true });
        app.preview.addEventListener("failed", reject, { once: true });
        if (app.preview.failed) reject(new Error(app.preview.failed));
      });
    }
    const mm = newMatch("tutorial");
    const name = (app.welcome && app.welcome.name) || LS.get("name") || W.UI.player;
    mm.local = new LocalMatch("tutorial", SCRIPT.config,
      { seat: SCRIPT.seat, names: [name, "Coach"], seed: SCRIPT.seed, plan: SCRIPT.plan }, KEEP);
    mm.planFor = onDecide;
    mm.tutorial = true;
    app.match = mm;
    receive(await mm.local.start());
  })().catch((e) => { app.tutorialFailed = String(e && e.message ? e.message : e); update(); })
    .finally(() => { starting = null; update(); });
  return starting;
}

async function jump(s) {
  const mm = app.match;
  setStep(stepIndex() + 1);
  receive(await mm.local.jump(s.jump));
}

function coach(mm) {
  const s = step();
  const n = SCRIPT.steps.length;
  const i = Math.min(stepIndex() + 1, n);
  const onStep = s && (s.jump || s.frame === frameOf(mm));
  const text = s ? (onStep ? T()[s.id] : T().free) : "";
  if (!s || mm.play) return nothing;
  return html`<aside class="coachbox" id="coach" aria-live="polite" aria-label=${T().title}>
    <p class="stepno">${T().step(i, n)}</p><p class="say">${text}</p>
    ${s.jump ? html`<button class="btn primary" type="button" id="tutorial-jump" @click=${() => jump(s)}>${T().jumpButton}</button>` : nothing}
  </aside>`;
}

function finished(mm) {
  LS.set("tutorial.done", "1");
  const r = mm.over.result || {};
  return html`<section class="over" id="tutorial-done">
    <h2 id="result">${T().done}</h2>
    <p class="bigscore">${r.score_home_visitors ? `${r.score_home_visitors[0]} : ${r.score_home_visitors[1]}` : ""}</p>
    <p>${T().ready}</p>
    <div class="grid actions">
      <a class="btn primary" href="#/" id="tutorial-play">${T().playBot}</a>
      <a class="btn" href="#/rules">${W.UI.nav.rules}</a>
      <a class="btn" href="#/tutorial/standard">${W.TUTORIAL.standardTitle}</a>
      <a class="btn" href="#/tutorial/advanced">${W.TUTORIAL.advancedTitle}</a>
      <button class="btn" type="button" id="tutorial-again" @click=${() => start(true)}>${T().again}</button>
    </div></section>`;
}

function lesson(mode) {
  const std = mode === "standard";
  const teams = [["fire-demons", "Fire Demon"], ["cyborgs", "Cyborg"], ["telekinetics", "Telekinetic"], ["oozes", "Ooze"]];
  return html`<section class="rules" id=${`lesson-${mode}`}>
    <h2>${std ? T().standardTitle : T().advancedTitle}</h2>
    <p>${std ? T().standardIntro : T().advancedIntro}</p>
    ${std ? html`<dl>${teams.map(([id, sp]) => html`<dt>${W.TEAMS[id]}: ${W.SPECIES_INFO[sp][0]}</dt><dd>${W.SPECIES_INFO[sp][1]}</dd>`)}</dl>`
      : html`<h3>${W.UI.info.cardsTitle}</h3><dl>${["skilled-pass", "dribble-burst", "setup-pass", "clear", "intercept", "double-team"].map((c) => html`<dt>${W.cardName(c)}</dt><dd>${W.CARD_LONG[c]}</dd>`)}</dl>
        <h3>${W.UI.info.abilitiesTitle}</h3><dl>${Object.entries(W.ABILITIES).map(([k, v]) => html`<dt>${k[0].toUpperCase() + k.slice(1)}</dt><dd>${v}</dd>`)}</dl>`}
    <p><button class="btn primary" type="button" id=${`lesson-play-${mode}`} @click=${() => { LS.set("mode", mode); go("#/"); }}>${T().tryMode(W.MODES[mode])}</button></p>
  </section>`;
}

function view(r) {
  if (r.arg === "standard" || r.arg === "advanced") return lesson(r.arg);
  const mm = app.match;
  if (app.tutorialFailed) return html`<section class="card-screen"><h2>${T().title}</h2><p>${T().failed}</p></section>`;
  if (!mm || !mm.tutorial || !mm.prompt) return html`<section class="card-screen"><h2>${T().title}</h2><p id="tutorial-loading">${T().loading}</p></section>`;
  if (mm.over && !mm.play) return finished(mm);
  return draw(coach(mm), restrict);
}

addScreen({
  id: "tutorial",
  paths: ["tutorial"],
  needsName: false,
  title: () => T().title,
  enter: (r) => {
    if (r.arg) return;
    if (!app.match || !app.match.tutorial) start(false);
  },
  leave: () => { if (app.match && app.match.tutorial && app.match.play) app.match.play.skip(); },
  after: (r) => { if (!r.arg) after(); },
  view,
});
