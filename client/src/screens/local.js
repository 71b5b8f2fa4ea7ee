// Offline play: a match run entirely on this device, by the rules worker
// (kickline.local in Pyodide), kept in the page's storage.  One person against a bot of
// any level, or two people passing one phone, each secret choice behind a "pass the
// phone" screen.  No server is involved, so it works with the network off once the
// client has loaded (the service worker keeps the app, Pyodide and the rules).
//
//   #/local/<id>   the local match <id> (storage key kickline.local.<id>)
import { html, nothing } from "lit-html";
import { app, LS, update, go, flash } from "../app.js";
import { addScreen } from "../router.js";
import { addToSlot } from "../slots.js";
import { Chooser } from "../ui/chooser.js";
import { boardView, benchView } from "../ui/board.js";
import { config, botLevel } from "./home.js";
import { W } from "../words.js";

const INDEX = "locals"; // ids of the local matches kept, newest first
const KEEP = 6; // local matches kept in storage; the oldest finished ones go first
const BOT_PAUSE = 350; // ms between bot moves, so each can be seen

// ---- storage ----------------------------------------------------------------------

function save(lm) {
  LS.set(`local.${lm.id}`, JSON.stringify({ match: lm.match, names: lm.names, lines: lm.lines.slice(-200), hand: lm.hand, over: lm.over }));
}

function load(id) {
  const kept = LS.json(`local.${id}`, null);
  return kept && kept.match ? { id, ...kept, lines: kept.lines || [], busy: false, current: null, passTo: null } : null;
}

function remember(id) {
  const ids = [id, ...LS.json(INDEX, []).filter((x) => x !== id)];
  for (const old of ids.slice(KEEP)) LS.set(`local.${old}`, null);
  LS.set(INDEX, JSON.stringify(ids.slice(0, KEEP)));
}

function kept() {
  return LS.json(INDEX, []).map((id) => ({ id, lm: LS.json(`local.${id}`, null) })).filter((x) => x.lm && !x.lm.over);
}

// ---- running the match --------------------------------------------------------------

const humanSeats = (lm) => lm.match.seats.flatMap((s, i) => (s === "human" ? [i] : []));
const passAndPlay = (lm) => humanSeats(lm).length === 2;
// Whose eyes the shared screen is for: the one person against a bot, else nobody's
// (both players read the match report, so it shows no secret before the reveal).
const audience = (lm) => (passAndPlay(lm) ? null : humanSeats(lm)[0]);

function narrate(lm, events, view) {
  for (const e of events) {
    const line = W.narrate(e, view);
    if (line) lm.lines.push({ text: line, law: e.law });
  }
  if (lm.lines.length > 400) lm.lines.splice(0, lm.lines.length - 400);
}

async function show(lm, seat, events = []) {
  return app.preview.local("show", { match: lm.match, seat, events });
}

// Roll the dice and let the bots move, one move a step (the screen shows each), until a
// person owes a decision or the match is over.
async function pump(lm) {
  if (lm.busy) return;
  lm.busy = true;
  update();
  try {
    for (;;) {
      if (app.local !== lm) return;
      const shared = await show(lm, audience(lm));
      if (shared.result) { lm.over = shared.result; lm.current = { seat: audience(lm), view: shared.view, legal: [] }; break; }
      if (shared.humans.length) { await ask(lm, shared.humans); break; }
      const r = await app.preview.local("step", { match: lm.match });
      if (r.error) throw new Error(r.error);
      lm.match = r.match;
      const seen = await show(lm, audience(lm), r.events);
      narrate(lm, seen.events, seen.view);
      lm.current = { seat: audience(lm), view: seen.view, legal: [] };
      save(lm);
      update();
      if (!r.humans.length && !seen.result) await new Promise((res) => setTimeout(res, BOT_PAUSE));
    }
  } catch (e) {
    lm.error = String(e && e.message ? e.message : e);
  } finally {
    lm.busy = false;
    save(lm);
    update();
  }
}

// A person owes a decision: show it to them, behind a hand-over screen when the phone
// must change hands, and before every secret choice in pass-and-play.
async function ask(lm, humans) {
  const seat = humans[0];
  const mine = await show(lm, seat);
  lm.current = { seat, view: mine.view, legal: mine.legal };
  const secret = mine.view.to_act.secret;
  lm.passTo = passAndPlay(lm) && (secret || lm.hand !== seat) ? seat : null;
  if (!passAndPlay(lm)) lm.hand = seat;
}

async function decide(text) {
  const lm = app.local;
  if (!lm || !lm.current || lm.busy) return;
  const seat = lm.current.seat;
  lm.busy = true;
  try {
    const r = await app.preview.local("decide", { match: lm.match, seat, decision: text });
    if (r.error) { flash(W.UI.local.refused, "error"); return; }
    lm.match = r.match;
    const seen = await show(lm, audience(lm), r.events);
    narrate(lm, seen.events, seen.view);
    lm.current = null;
    save(lm);
  } finally {
    lm.busy = false;
  }
  pump(lm);
}

const chooser = new Chooser({ changed: () => update(), confirm: (t) => decide(t), consequence: null });
app.localChooser = chooser; // tests read it, as they read the match screen's

// A new local match: ``seats`` are "human" or a bot level, seat 0 first.
export async function startLocal(seats) {
  const L = W.UI.local;
  if (!app.preview.ready) {
    app.preview.start();
    flash(app.preview.failed ? L.noRules : L.rulesLoading, app.preview.failed ? "error" : "info");
    return;
  }
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const cfg = config();
  const r = await app.preview.local("new", { config: cfg, seats, seed: `${id}:${Math.random()}` });
  if (r.error) { flash(r.error, "error"); return; }
  const names = seats.map((s, i) => (s === "human" ? (seats.every((x) => x === "human") ? L.player(i + 1) : L.you) : L.bot(W.BOT_LEVELS[s])));
  const lm = { id, match: r.match, names, lines: [], hand: null, over: null, busy: false, current: null, passTo: null };
  save(lm);
  remember(id);
  go(`#/local/${id}`);
}

// ---- the screen ---------------------------------------------------------------------

function enter(r) {
  const lm = load(r.arg);
  app.local = lm;
  if (!lm) return;
  const waitForRules = () => { if (app.local === lm) pump(lm); };
  if (app.preview.ready) waitForRules();
  else {
    app.preview.start();
    app.preview.addEventListener("ready", waitForRules, { once: true });
  }
}

function passView(lm) {
  const L = W.UI.local;
  const name = lm.names[lm.passTo];
  return html`<section class="card-screen pass" id="pass">
    <h2>${L.passTo(name)}</h2>
    <p>${lm.current && lm.current.view.to_act.secret ? L.secretAhead : L.yourTurnAhead}</p>
    <button class="btn primary" type="button" id="take-phone" @click=${() => { lm.hand = lm.passTo; lm.passTo = null; save(lm); update(); }}>${L.imReady(name)}</button>
  </section>`;
}

function view() {
  const L = W.UI.local;
  const M = W.UI.match;
  const lm = app.local;
  if (!lm) return html`<section class="card-screen"><p>${L.gone}</p><a class="btn" href="#/">${L.lobby}</a></section>`;
  if (lm.error) return html`<section class="card-screen"><p>${L.failed(lm.error)}</p><a class="btn" href="#/">${L.lobby}</a></section>`;
  if (!lm.current) return html`<section class="card-screen"><p>${app.preview.ready ? L.thinking : L.rulesLoading}</p></section>`;
  if (lm.passTo !== null && lm.passTo !== undefined) return passView(lm);
  const { seat, legal } = lm.current;
  const v = lm.current.view;
  const mySide = seat === null || seat === undefined ? (v.home_seat >= 0 ? (v.home_seat === 0 ? "home" : "visitors") : null) : (v.side || null);
  const myTurn = !lm.busy && legal.length > 0 && !lm.over;
  if (myTurn) chooser.set(legal, v, v.prompt.frame);
  else chooser.set([], v, null);
  const t = myTurn ? chooser.targets() : { players: new Set(), spaces: new Set(), selected: new Set() };
  const opts = { mySide, pickPlayers: t.players, pickSpaces: t.spaces, selected: t.selected, onPick: (x) => chooser.pick(x), prev: null };
  const homeSeat = v.home_seat;
  const homeName = homeSeat >= 0 ? lm.names[homeSeat] : lm.names[0];
  const visName = homeSeat >= 0 ? lm.names[1 - homeSeat] : lm.names[1];
  const status = lm.over ? L.over(lm.over.winner === null || lm.over.winner === undefined ? null : lm.names[lm.over.winner], lm.over.score)
    : myTurn ? (passAndPlay(lm) ? L.yourMoveName(lm.names[seat]) : M.yourMove) : L.thinking;
  return html`
    <header class="score">
      <div class="teams">
        <span class="t home"><b>${homeSeat >= 0 ? M.home : ""}</b> ${homeName}</span>
        <span class="sc" id="score" role="img" aria-label=${M.score(v.score[0], v.score[1])}>${v.score[0]} : ${v.score[1]}</span>
        <span class="t visitors"><b>${homeSeat >= 0 ? M.visitors : ""}</b> ${visName}</span>
      </div>
      <div class="meta">
        <span id="clock">${v.period === 3 ? M.shootout : M.periodMinute(Math.max(1, v.period), v.minute)}</span>
        <span id="ballinfo">${v.ball.space ? M.ball(v.ball.space, v.ball.speed) : ""}</span>
        <span class="muted" id="local-badge">${L.badge}</span>
      </div>
      <p class="status${myTurn ? " go" : ""}" id="status" role="status">${status}</p>
    </header>
    <div id="boardbox">${boardView(v, opts)}</div>
    <section id="panel" class="panel" aria-label=${M.decision}>${myTurn ? chooser.render() : html`<p class="muted">${status}</p>`}</section>
    <div id="benchbox">${benchView(v, opts)}</div>
    ${lm.over ? html`<div class="row"><a class="btn primary" id="local-lobby" href="#/">${L.lobby}</a></div>` : nothing}
    <h3>${M.report}</h3>
    <ol class="log" id="log" aria-label=${M.whatHappened} reversed tabindex="0">
      ${lm.lines.slice(-60).reverse().map((line) => html`<li>${line.text}</li>`)}
    </ol>`;
}

addScreen({
  id: "local",
  paths: ["local"],
  needsName: false,
  enter,
  leave: () => { app.local = null; },
  title: () => (app.local && app.local.current && app.local.current.legal.length ? W.UI.match.yourMove : null),
  view,
});

// The lobby's section: start a match here, or go back to one kept on this device.
addToSlot("lobby", () => {
  const L = W.UI.local;
  const mine = kept();
  return html`<section class="local" id="local-play">
    <h3>${L.title}</h3>
    <p class="hint">${L.hint}</p>
    <div class="grid actions">
      <button class="btn" type="button" id="local-bot" @click=${() => startLocal(["human", botLevel()])}>${L.vsBot(W.BOT_LEVELS[botLevel()])}</button>
      <button class="btn" type="button" id="local-pass" @click=${() => startLocal(["human", "human"])}>${L.passAndPlay}</button>
    </div>
    ${mine.length ? html`<div class="resume">${mine.map(({ id, lm }) => html`
      <button class="btn" type="button" data-local=${id} @click=${() => go(`#/local/${id}`)}>${L.resume(lm.names.join(" – "))}</button>`)}</div>` : nothing}
  </section>`;
}, 10);
